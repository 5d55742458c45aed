import { localDate, localDateTime, zonedToInstant } from '@console/shared';

/**
 * Times at the front desk are the hotel's wall-clock times, whatever the browser's zone:
 * datetime-local inputs hold `YYYY-MM-DDTHH:mm` in the hotel's zone and the API gets instants.
 * (Showing dates and times is in format.ts: it needs no time-zone library.)
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
