import { isLocalDate, isLocalDateTime } from '@console/shared';

/**
 * Dates and times as people type them into the console's date-time field, read into the value the
 * forms hold: `YYYY-MM-DDTHH:mm` (a wall-clock time of the hotel) or `YYYY-MM-DD` (a day). The
 * field shows the value as `YYYY-MM-DD HH:mm` (its placeholder), and that is what is read first;
 * what else is taken is what cannot mean two things:
 *
 * - the year first, with four digits, then the month, then the day, separated by `-`, `/` or `.`
 *   (the same one twice), or written `2026年11月26日` as Chinese and Japanese do;
 * - a month, day or hour of one digit (`2026-1-5 9:00`), minutes always of two;
 * - a space (or several) or a `T` between the date and the time;
 * - full-width digits, signs and spaces of a Chinese or Japanese input method (`２０２６－１１－２６`,
 *   `１２：００`) and Arabic-Indic digits (`٢٠٢٦-١١-٢٦`): the same characters, read as ASCII.
 *
 * Never guessed: a year of two digits, a day or month first (`03/04/2026` is March or April), a
 * month name, a time left out of a date-time (the field does not invent one), seconds (the
 * console keeps minutes: `12:00:30` is not silently cut), a day that does not exist (30 February),
 * an hour past 23. Such text stays what was typed and the form says it is not a time.
 *
 * While typing (`typing: true`) a date-only text that ends in a one-digit day is not read yet:
 * `2026-11-2` is on its way to `2026-11-26`, and a list filtered on 2 November in between would be
 * a surprise. On leaving the field (or Enter) it is read as the 2nd.
 */

/** The format the field shows and the placeholder says. */
export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

const DIGITS: Record<string, string> = {};
for (let i = 0; i < 10; i += 1) {
  DIGITS[String.fromCharCode(0x0660 + i)] = String(i); // Arabic-Indic
  DIGITS[String.fromCharCode(0x06f0 + i)] = String(i); // Extended Arabic-Indic (Persian, Urdu)
}

/** Full-width forms as ASCII (NFKC), Arabic-Indic digits as ASCII, the ends trimmed. */
function normalized(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => DIGITS[d]!)
    .trim();
}

const DATE = String.raw`(\d{4})(?:([-/.])(\d{1,2})\2(\d{1,2})|年(\d{1,2})月(\d{1,2})日?)`;
const TIME = String.raw`(\d{1,2}):(\d{2})`;
const DATE_ONLY = new RegExp(`^${DATE}$`);
const DATE_TIME = new RegExp(`^${DATE}(?:\\s+|\\s*[Tt]\\s*|(?<=日)\\s*)${TIME}$`);
const TIME_ONLY = new RegExp(`^${TIME}$`);

const pad = (n: string) => n.padStart(2, '0');

/**
 * The value of a typed date (`withTime: false`, `YYYY-MM-DD`) or date-time (`YYYY-MM-DDTHH:mm`), or
 * undefined when the text is not one (empty text included: the caller decides what empty means).
 */
export function parseTypedDate(text: string, withTime: boolean, { typing = false }: { typing?: boolean } = {}): string | undefined {
  const input = normalized(text);
  const m = (withTime ? DATE_TIME : DATE_ONLY).exec(input);
  if (!m) return undefined;
  const [, y, , mo1, d1, mo2, d2, h, mi] = m;
  const month = mo1 ?? mo2!;
  const day = d1 ?? d2!;
  if (typing && !withTime && d1 !== undefined && day.length === 1) return undefined;
  const date = `${y}-${pad(month)}-${pad(day)}`;
  if (!withTime) return isLocalDate(date) ? date : undefined;
  const value = `${date}T${pad(h!)}:${mi}`;
  return isLocalDateTime(value) ? value : undefined;
}

/** A typed time of day (`9:30`, `09:30`, full-width or Arabic-Indic digits) as `HH:mm`, or undefined. */
export function parseTypedTime(text: string): string | undefined {
  const m = TIME_ONLY.exec(normalized(text));
  if (!m) return undefined;
  const [, h, mi] = m;
  return Number(h) <= 23 && Number(mi) <= 59 ? `${pad(h!)}:${mi}` : undefined;
}

/** The text the field shows for a value: `2026-11-26T12:00` as `2026-11-26 12:00`; anything else as it is. */
export function typedText(value: string): string {
  return isLocalDateTime(value) ? value.replace('T', ' ') : value;
}

/**
 * What the field gives its form for a text: the value when the text is one, '' for blank text,
 * and otherwise the text itself, so that the form's own check says it is not a time (a text that
 * cannot be read is never dropped, nor taken as the last good value).
 */
export function valueOfText(text: string, withTime: boolean, options?: { typing?: boolean }): string {
  if (normalized(text) === '') return '';
  return parseTypedDate(text, withTime, options) ?? text;
}
