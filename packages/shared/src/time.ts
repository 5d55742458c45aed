import { TZDate } from '@date-fns/tz';
import { LOCAL_DATETIME_REGEX, isLocalDateTime } from './primitives';

/**
 * Wall-clock times of a hotel. Front-desk staff type times in the hotel's time zone (which may
 * not be the browser's); the server stores instants. These helpers convert both ways.
 */

/** `YYYY-MM-DD` of an instant in `timeZone`. */
export function localDate(instant: Date | number, timeZone: string): string {
  const d = new TZDate(typeof instant === 'number' ? instant : instant.getTime(), timeZone);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `YYYY-MM-DDTHH:mm` of an instant in `timeZone` (the value of a datetime-local input). */
export function localDateTime(instant: Date | number, timeZone: string): string {
  const d = new TZDate(typeof instant === 'number' ? instant : instant.getTime(), timeZone);
  return `${localDate(instant, timeZone)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The instant of a wall-clock time in `timeZone` (`YYYY-MM-DDTHH:mm[:ss]` or with a space).
 * A time skipped by a daylight-saving change moves forward; an ambiguous one takes the first.
 * Returns null for text that is not such a time.
 */
export function zonedToInstant(local: string, timeZone: string): Date | null {
  const text = local.trim();
  if (!isLocalDateTime(text)) return null;
  const [, y, mo, d, h, mi, s] = LOCAL_DATETIME_REGEX.exec(text)!.map(Number) as number[];
  const date = new TZDate(y!, mo! - 1, d!, h!, mi!, Number.isNaN(s) || s === undefined ? 0 : s, timeZone);
  return new Date(date.getTime());
}

/** The day of the week (0 Sunday ... 6 Saturday) of a calendar date. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The calendar date `days` after `date`. */
export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Adds a stay length in the hotel's calendar: hours are exact, days/months/years keep the wall-clock time. */
export function addStayLength(start: Date, amount: number, unit: 'hour' | 'day' | 'month' | 'year', timeZone: string): Date {
  if (unit === 'hour') return new Date(start.getTime() + amount * 3_600_000);
  const d = new TZDate(start.getTime(), timeZone);
  const target = new TZDate(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), timeZone);
  if (unit === 'day') target.setDate(target.getDate() + amount);
  if (unit === 'month') target.setMonth(target.getMonth() + amount);
  if (unit === 'year') target.setFullYear(target.getFullYear() + amount);
  return new Date(target.getTime());
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export const HOUR_MS = 3_600_000;

/**
 * The end of the small hours on a hotel's clock (`HH:mm`): a guest who arrives before it (and early
 * enough to stay an hour before the hotel's check-out time) is sleeping the rest of the night that
 * began the evening before, and is expected to leave that same morning (the check-in form's
 * proposal, apps/web .../stay-dialogs/stay-times.ts).
 */
export const SMALL_HOURS_END = '06:00';

/** The offset of `timeZone` from UTC at an instant, in ms (east positive: Asia/Kolkata +19,800,000). */
export function zoneOffsetMs(instant: Date | number, timeZone: string): number {
  return -new TZDate(typeof instant === 'number' ? instant : instant.getTime(), timeZone).getTimezoneOffset() * 60_000;
}

/**
 * The start of the hour of the hotel's clock an instant falls in: 10:50 UTC in Asia/Kolkata
 * (16:20 there) gives 10:30 UTC (16:00 there). Lock clouds keep generated codes to whole hours of
 * the lock's clock, which is the hotel's.
 */
export function floorToZoneHour(instant: Date, timeZone: string): Date {
  const offset = zoneOffsetMs(instant, timeZone);
  return new Date(Math.floor((instant.getTime() + offset) / HOUR_MS) * HOUR_MS - offset);
}

/** The first whole hour of the hotel's clock at or after an instant. */
export function ceilToZoneHour(instant: Date, timeZone: string): Date {
  const floor = floorToZoneHour(instant, timeZone);
  return floor.getTime() === instant.getTime() ? floor : floorToZoneHour(new Date(floor.getTime() + HOUR_MS + 1), timeZone);
}
