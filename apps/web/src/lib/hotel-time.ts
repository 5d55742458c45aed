import { localDate, localDateTime, zonedToInstant } from '@console/shared';
import { currentLanguage } from './language';

/**
 * Times at the front desk are the hotel's wall-clock times, whatever the browser's zone:
 * datetime-local inputs hold `YYYY-MM-DDTHH:mm` in the hotel's zone and the API gets instants.
 */
export function toInputValue(iso: string | Date | null | undefined, timeZone: string): string {
  if (!iso) return '';
  return localDateTime(typeof iso === 'string' ? new Date(iso) : iso, timeZone);
}

/** ISO instant of a datetime-local value in the hotel's zone; undefined when empty or invalid. */
export function fromInputValue(value: string, timeZone: string): string | undefined {
  if (!value) return undefined;
  return zonedToInstant(value, timeZone)?.toISOString();
}

export function todayInHotel(timeZone: string): string {
  return localDate(new Date(), timeZone);
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
