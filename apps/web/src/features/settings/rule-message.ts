import type { TFunction } from 'i18next';

/**
 * A field's message: a rule's key (`validation.*`, or `settings.validation.*` for the rules of these
 * pages, whose texts are not part of the first download) is translated; a server message arrives translated.
 */
export function ruleMessage(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return message.startsWith('validation.') || message.startsWith('settings.validation.') ? t(message) : message;
}
