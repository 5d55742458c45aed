import { fromMinor, minorDigits } from '@console/shared';

/**
 * Cell values of an export. exceljs writes a JavaScript string as text (never as a formula, even
 * when it starts with `=`), but a spreadsheet evaluates such text as soon as someone edits the
 * cell or saves the sheet as CSV. So text that a spreadsheet would read as a formula (starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return: OWASP "CSV injection") gets a leading
 * apostrophe, which spreadsheets show as text and never evaluate.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A CSV field (RFC 4180): quoted when it holds a quote, a comma or a line break; text a spreadsheet would run as a formula escaped. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  // A number (ours: "-12.50") is no formula; any other text starting like one is escaped.
  const text = typeof value === 'number' || NUMBER.test(value) ? String(value) : escapeText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The value of a text cell: null (an empty cell) for nothing, escaped text otherwise. */
export function textCell(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  return escapeText(String(value));
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment as a spreadsheet date-time in the hotel's time zone: spreadsheets have no time zones,
 * so the cell holds the wall-clock time of the hotel (as a Date whose UTC fields are that time),
 * shown with `DATE_TIME_FORMAT`. Null for no time.
 */
export function zonedCell(instant: string | Date | null | undefined, timeZone: string): Date | null {
  if (!instant) return null;
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) return null;
  let format = partsFormat.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormat.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(date).map((x) => [x.type, x.value])) as Record<string, string>;
  return new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)));
}

export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** An amount in minor units as a number in the currency's major unit (the header names the currency). */
export function amountCell(minor: number | null | undefined, currency: string): number | null {
  return minor === null || minor === undefined ? null : fromMinor(minor, currency);
}

/** The number format of amounts in this currency: as many decimals as its minor unit has. */
export function amountFormat(currency: string): string {
  const digits = minorDigits(currency);
  return digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
}
