import { currentLanguage } from './language';

/**
 * Intl formatters are costly to make (a room board of a few hundred tiles made thousands, about a
 * tenth of its first render on a phone): one per language and options, kept.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();
function formatter<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(kind: string, options: object, make: (locale: string) => T): T {
  const locale = currentLanguage().header;
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let made = formatters.get(key) as T | undefined;
  if (!made) {
    made = make(locale);
    formatters.set(key, made);
  }
  return made;
}
const dateTimeFormat = (options: Intl.DateTimeFormatOptions) => formatter('date', options, (locale) => new Intl.DateTimeFormat(locale, options));
/** An `Intl.NumberFormat` of the interface language with these options, made once. */
export const numberFormat = (options: Intl.NumberFormatOptions = {}) => formatter('number', options, (locale) => new Intl.NumberFormat(locale, options));

/** A date and time in the hotel's time zone, written the way the interface language writes it. */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  return dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

export function formatNumber(value: number): string {
  return numberFormat().format(value);
}

/** Names as a list in the interface language ("Ann, Bo and Cy", "甲、乙和丙"). */
export function formatList(items: string[]): string {
  return formatter('list', {}, (locale) => new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' })).format(items);
}

/** A short date and time in the hotel's zone ("21 Nov, 14:00"). */
export function formatShortDateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  return dateTimeFormat({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
}

export function formatDate(date: string | null | undefined): string {
  if (!date) return '';
  return dateTimeFormat({ dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}
