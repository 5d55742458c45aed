import type { TFunction } from 'i18next';
import { appErrorOf } from '@/lib/api-errors';
import type { DeskReader } from '@/lib/desk-reader';
import { ReaderError } from '@/readers/errors';

/** A rule of the desk's own (the card just written is still on the reader, another card than the one asked for): its text is `cards.<key>`. */
export class DeskCardError extends Error {
  constructor(
    readonly key: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
    this.name = 'DeskCardError';
  }
}

/**
 * Any failure of the card screens in words: the reader's (spec §8 texts, with the device's code
 * and the hint to check the card or the connection), the server's (translated by the server), the
 * desk's own rules, or no answer from the server.
 */
export function deskCardErrorText(error: unknown, t: TFunction, desk: Pick<DeskReader, 'errorText'>): { text: string; hint?: string } {
  if (error instanceof DeskCardError) return { text: t(`cards.${error.key}`, error.params) };
  if (error instanceof ReaderError) return desk.errorText(error);
  const app = appErrorOf(error);
  if (app) return { text: app.message };
  return { text: t('cards.noAnswer') };
}
