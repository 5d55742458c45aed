import { z } from 'zod';
import { LIMITS } from './limits';

/**
 * The building blocks every schema of every face is made of (web forms, tRPC, the legacy
 * protocol, jobs). Nothing is coerced: a value is what it says it is, or a field error.
 * Messages are i18n keys (`validation.*`).
 */

type Message = string;

/**
 * For refinements over several fields: run only when every field parsed, so a rule never sees a
 * value its field already refused (the field's own error is what the user is told).
 */
export const WHEN_FIELDS_VALID = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/**
 * For a refinement over some fields: run when those fields parsed, even if others did not, so a
 * form shows every error it can at once (a too-short stay and a missing guest together).
 */
export function whenValid(...fields: string[]) {
  return {
    when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
      !payload.issues.some((issue) => issue.path !== undefined && issue.path.length > 0 && fields.includes(String(issue.path[0]))),
  };
}

/**
 * An integer given as a JSON number or as decimal digits (`42`, and `-3` when negatives are
 * allowed); arrays, booleans, decimals, exponent forms and empty strings are refused.
 * `required` is the message for a missing value (default: `invalid`).
 */
export function zInt(range: { min: number; max: number }, invalid: Message, required: Message = invalid) {
  const number = z.number({ error: invalid }).int({ error: invalid }).min(range.min, { error: invalid }).max(range.max, { error: invalid });
  const digits = range.min < 0 ? /^-?\d{1,16}$/ : /^\d{1,16}$/;
  return z.union([number, z.string({ error: invalid }).regex(digits, { error: invalid }).transform(Number).pipe(number)], {
    error: (issue) => (issue.input === undefined || issue.input === '' ? required : invalid),
  });
}

/** A record id: a positive integer (a number or a decimal-digit string), nothing else. */
export const ZId = zInt({ min: 1, max: LIMITS.idMax }, 'validation.idInvalid');

/** A 0/1 flag of the legacy protocol and forms: true, false, 0, 1, "0" or "1". */
export const ZFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'validation.flagInvalid' })
  .transform((v) => v === true || v === 1 || v === '1');

// ---------------------------------------------------------------------------------------------
// Dates and times

export const LOCAL_DATE_REGEX = /^\d{4}-\d{2}-\d{2}$/;
export const LOCAL_DATETIME_REGEX = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
/** An instant as JSON carries it: ISO 8601 with a zone (`Z` or `+08:00`). */
export const ISO_INSTANT_REGEX = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Whether year-month-day is a day of the calendar (no 30 February, no month 13) in the accepted years. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < LIMITS.yearMin || year > LIMITS.yearMax) return false;
  if (!Number.isInteger(month) || month < 1 || month > 12) return false;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return Number.isInteger(day) && day >= 1 && day <= days;
}

/** `YYYY-MM-DD` that names a real day. */
export function isLocalDate(value: string): boolean {
  if (!LOCAL_DATE_REGEX.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return isCalendarDay(y, m, d);
}

/** `YYYY-MM-DD HH:mm[:ss]` (or with a `T`) that names a real day and time of day. */
export function isLocalDateTime(value: string): boolean {
  const m = LOCAL_DATETIME_REGEX.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return isCalendarDay(y!, mo!, d!) && h! <= 23 && mi! <= 59 && (Number.isNaN(s) || s === undefined || s <= 59);
}

/** A calendar date `YYYY-MM-DD` that exists. */
export const ZLocalDate = z
  .string({ error: 'validation.dateInvalid' })
  .max(10, { error: 'validation.dateInvalid' })
  .refine(isLocalDate, { error: 'validation.dateInvalid' });

/** A wall-clock time `YYYY-MM-DD HH:mm[:ss]` (hotel time zone) that exists; converted by the caller. */
export const ZLocalDateTime = z
  .string({ error: 'validation.dateTimeInvalid' })
  .trim()
  .min(1, { error: 'validation.dateTimeRequired' })
  .max(19, { error: 'validation.dateTimeInvalid' })
  .refine(isLocalDateTime, { error: 'validation.dateTimeInvalid' });

function isIsoInstant(value: string): boolean {
  const m = ISO_INSTANT_REGEX.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return isCalendarDay(y!, mo!, d!) && h! <= 23 && mi! <= 59 && (Number.isNaN(s) || s === undefined || s <= 59) && !Number.isNaN(Date.parse(value));
}

/** An instant: a Date, or an ISO 8601 string with its zone. Numbers and booleans are refused. */
export const ZInstant = z
  .union(
    [
      z.date({ error: 'validation.dateTimeInvalid' }),
      z
        .string({ error: 'validation.dateTimeInvalid' })
        .max(40, { error: 'validation.dateTimeInvalid' })
        .refine(isIsoInstant, { error: 'validation.dateTimeInvalid' }),
    ],
    {
      error: (issue) => (issue.input === undefined ? 'validation.dateTimeRequired' : 'validation.dateTimeInvalid'),
    },
  )
  .transform((v) => (v instanceof Date ? v : new Date(v)))
  .refine((d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= LIMITS.yearMin && d.getUTCFullYear() <= LIMITS.yearMax, {
    error: 'validation.dateTimeInvalid',
  });

// ---------------------------------------------------------------------------------------------
// Text

/**
 * What text the product accepts (decision 025): Unicode text, that is any character but the
 * control characters (NUL and the rest of C0 and C1, DEL; tab, line feed and carriage return are
 * allowed) and without unpaired UTF-16 surrogates (a lone `\ud800` is not a character: it cannot
 * be written as UTF-8, and PostgreSQL's JSON refuses it). A request holding either anywhere, in a
 * value or in a key, is refused with a field error naming each place (`findUnacceptedText`); the
 * transports check every request before its schema, so a schema never has to remember. Text that
 * does not come from a request (the lock cloud, files) is made acceptable with `toAcceptedText`.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text is not accepted, as the i18n key of its field error; undefined when it is. */
export function unacceptedTextReason(text: string): 'validation.controlCharacters' | 'validation.brokenCharacters' | undefined {
  if (CONTROL_CHARACTERS.test(text)) return 'validation.controlCharacters';
  if (UNPAIRED_SURROGATE.test(text)) return 'validation.brokenCharacters';
  return undefined;
}

const CONTROL_CHARACTERS_ALL = new RegExp(CONTROL_CHARACTERS.source, 'g');
const UNPAIRED_SURROGATE_ALL = new RegExp(UNPAIRED_SURROGATE.source, 'g');

/** `text` made acceptable: control characters removed, each unpaired surrogate replaced by U+FFFD. */
export function toAcceptedText(text: string): string {
  return text.replace(CONTROL_CHARACTERS_ALL, '').replace(UNPAIRED_SURROGATE_ALL, '\uFFFD');
}

/** Every string of a JSON-like value (keys too) made acceptable (`toAcceptedText`); other values as they are. */
export function toAcceptedJson<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return toAcceptedText(value) as T;
  if (depth >= 64 || value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => toAcceptedJson(item, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [toAcceptedText(key), toAcceptedJson(item, depth + 1)])) as T;
}

export interface TUnacceptedText {
  /** `a.b.0.c`, or `_` for the value itself. */
  path: string;
  reason: 'validation.controlCharacters' | 'validation.brokenCharacters';
}

/** Every place in `value` (strings and keys, at any depth) holding text the product does not accept. */
export function findUnacceptedText(value: unknown, path: (string | number)[] = [], found: TUnacceptedText[] = [], depth = 0): TUnacceptedText[] {
  if (typeof value === 'string') {
    const reason = unacceptedTextReason(value);
    if (reason) found.push({ path: path.join('.') || '_', reason });
  } else if (depth < 32 && Array.isArray(value)) {
    value.forEach((item, i) => findUnacceptedText(item, [...path, i], found, depth + 1));
  } else if (depth < 32 && value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      const reason = unacceptedTextReason(key);
      // A key is named by where it stands, as its text cannot be shown.
      if (reason) found.push({ path: path.join('.') || '_', reason });
      else findUnacceptedText(item, [...path, key], found, depth + 1);
    }
  }
  return found;
}

/**
 * A string the product accepts (decision 025), for the text schemas: the transports refuse the
 * rest before any schema runs; this says the same in a form, with the same message.
 */
function acceptedText(schema: z.ZodString) {
  return schema.superRefine((value, payload) => {
    const reason = unacceptedTextReason(value);
    if (reason) payload.addIssue({ code: 'custom', message: reason });
  });
}

/**
 * Characters that break a line (or stand for a break) and the tab: a free text may hold them, a
 * one-line field may not (a name, a subject, anything written into a header or a calendar line).
 * VT, FF and NEL are control characters already; U+2028 and U+2029 are Unicode's own breaks.
 */
export const LINE_BREAKS = /[\t\n\r\u2028\u2029]/;
const LINE_BREAKS_ALL = new RegExp(LINE_BREAKS.source, 'g');

/**
 * Why a one-line text is not accepted (the reasons of `unacceptedTextReason`, or a line break or
 * a tab: `validation.oneLine`); undefined when it is.
 */
export function unacceptedLineReason(text: string): 'validation.oneLine' | 'validation.controlCharacters' | 'validation.brokenCharacters' | undefined {
  return unacceptedTextReason(text) ?? (LINE_BREAKS.test(text) ? 'validation.oneLine' : undefined);
}

/**
 * `text` as one line: what `toAcceptedText` does, and each run of line breaks and tabs made one
 * space, trimmed. For text that does not come from a request and goes where one line is all there
 * is (a header of an e-mail, a name kept before the rule was written).
 */
export function toOneLine(text: string): string {
  return toAcceptedText(text.replace(LINE_BREAKS_ALL, ' ')).replace(/ {2,}/g, ' ').trim();
}

/**
 * A string schema refusing what `unacceptedLineReason` refuses, with its message: the one-line
 * fields' rule, written once for every face (the transports refuse control characters and broken
 * characters before any schema; a line break or a tab is refused here).
 */
export function oneLine<S extends z.ZodType<string>>(schema: S) {
  return schema.superRefine((value, payload) => {
    const reason = unacceptedLineReason(value);
    if (reason) payload.addIssue({ code: 'custom', message: reason });
  });
}

/** A search text: matched literally (no wildcard of any kind), case-insensitively. */
export const ZSearch = acceptedText(z.string({ error: 'validation.searchInvalid' }).trim().max(LIMITS.searchMaxLength, { error: 'validation.searchTooLong' }));

/** Optional free text of at most `max` characters, trimmed; `''` when absent. */
export const zOptionalText = (max: number) =>
  acceptedText(z.string({ error: 'validation.textInvalid' }).trim().max(max, { error: 'validation.textTooLong' })).default('');

/** An optional code (lock id, ID number...): trimmed, `null` when absent or blank. */
export const zOptionalCode = (max: number) =>
  acceptedText(z.string({ error: 'validation.textInvalid' }).trim().max(max, { error: 'validation.textTooLong' }))
    .nullish()
    .transform((v) => (v ? v : null));

// ---------------------------------------------------------------------------------------------
// Paging

export const ZPage = zInt({ min: 1, max: LIMITS.pageMax }, 'validation.pageInvalid').default(1);
export const zPageSize = (defaultSize: number = LIMITS.pageSizeDefault) =>
  zInt({ min: 1, max: LIMITS.pageSizeMax }, 'validation.pageSizeInvalid').default(defaultSize);

/** `page` and `pageSize` of every list of the console. */
export const ZPageInput = z.object({ page: ZPage, pageSize: zPageSize() });

/**
 * An id or an event type as Seam writes them (UUIDs, `access_code.set_on_device`): anything else (a
 * NUL, a lone surrogate, a line break, 5,000 characters) names nothing of Seam's, and is never put to
 * the database (PostgreSQL refuses a NUL in text).
 */
export const SEAM_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
