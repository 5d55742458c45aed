import type { TLanguageHeader } from '@console/shared';
import { Prisma } from '../generated/prisma/client';
import type { Translator } from './i18n';

/**
 * Text the system writes into the database (the note of a refund made at check-out, the name of
 * a key set nobody named) is never stored as a sentence in the language of whoever caused it: it
 * is stored as a code, an i18n key of `locales/` with its parameters, in a pair of columns beside
 * the text column (`note` + `noteKey` + `noteParams`, `name` + `nameKey` + `nameParams`; the text
 * column is then empty). Every face reads it through `readText`, in the language of its reader:
 * the console's and tRPC's request language, a legacy request's, an export's.
 *
 * The keys below are kept in every locale file for as long as rows may hold them (a unit test
 * checks it); rows written before this existed keep their text (their key is null).
 */
export const SYSTEM_TEXT_KEYS = [
  'orders.notes.roomChargeRecomputed',
  'orders.notes.roomChargeAdded',
  'orders.notes.depositKept',
  'orders.notes.depositRefund',
  'orders.notes.checkOutRefund',
  'orders.notes.settlementPayment',
  'orders.notes.noShowFee',
  'orders.notes.taxAdded',
  'orders.notes.cityTax',
  'orders.notes.cityTaxRecomputed',
  'cards.keySetName',
] as const;
export type TSystemTextKey = (typeof SYSTEM_TEXT_KEYS)[number];

/** Parameters are values (a number, a clerk's own words), never text to translate. */
export type SystemTextParams = Record<string, string | number>;

export interface SystemText {
  key: TSystemTextKey;
  params?: SystemTextParams;
}

export const systemText = (key: TSystemTextKey, params?: SystemTextParams): SystemText => (params ? { key, params } : { key });

/** Text a person typed (kept as it is), or text the system writes (kept as a code). */
export type StoredText = string | SystemText;

export const isSystemText = (value: StoredText): value is SystemText => typeof value !== 'string';

/** The three columns of a stored text: the typed text, or an empty text and the code. */
export function textColumns(value: StoredText): { text: string; key: TSystemTextKey | null; params: Prisma.InputJsonValue | typeof Prisma.DbNull } {
  if (!isSystemText(value)) return { text: value, key: null, params: Prisma.DbNull };
  return { text: '', key: value.key, params: value.params && Object.keys(value.params).length > 0 ? value.params : Prisma.DbNull };
}

/** Reads a stored text: the typed text as it is, a code in the reader's language. */
export type TextReader = (text: string, key: string | null, params: unknown) => string;

function paramsOf(params: unknown): SystemTextParams {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return {};
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'),
  );
}

export function textReader(i18n: Translator, lang: TLanguageHeader): TextReader {
  return (text, key, params) => {
    if (key === null) return text;
    // A key this version does not know (written by a newer one): the typed text if any, never the raw key.
    if (!i18n.has(key)) return text;
    return i18n.t(lang, key, paramsOf(params));
  };
}

/** The reader of a request (or a job): its language. */
export const readerOf = (ctx: { deps: { i18n: Translator }; meta: { lang: TLanguageHeader } }): TextReader => textReader(ctx.deps.i18n, ctx.meta.lang);
