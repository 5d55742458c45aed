import type { TFunction } from 'i18next';

/** Client-side messages are i18n keys (validation.*); server field messages arrive translated. */
export function fieldMessage(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return message.startsWith('validation.') ? t(message) : message;
}
