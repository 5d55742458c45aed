import type { TFunction } from 'i18next';

/** Client-side messages are i18n keys (`validation.*`, or an area's own `<area>.validation.*`); server field messages arrive translated. */
export function fieldMessage(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return /^([A-Za-z]+\.)?validation\./.test(message) ? t(message) : message;
}
