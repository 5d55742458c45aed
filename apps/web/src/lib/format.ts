import { currentLanguage } from './language';

/** A date and time in the hotel's time zone, written the way the interface language writes it. */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(currentLanguage().header, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(currentLanguage().header).format(value);
}

/** Names as a list in the interface language ("Ann, Bo and Cy", "甲、乙和丙"). */
export function formatList(items: string[]): string {
  return new Intl.ListFormat(currentLanguage().header, { style: 'long', type: 'conjunction' }).format(items);
}

/** A short date and time in the hotel's zone ("21 Nov, 14:00"). */
export function formatShortDateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(currentLanguage().header, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(iso));
}

export function formatDate(date: string | null | undefined): string {
  if (!date) return '';
  return new Intl.DateTimeFormat(currentLanguage().header, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}
