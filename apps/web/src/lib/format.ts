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
