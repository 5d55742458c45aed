import { currentLanguage } from './language';

/** A date and time in the hotel's time zone, written the way the interface language writes it. */
export function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(currentLanguage().header, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(currentLanguage().header).format(value);
}
