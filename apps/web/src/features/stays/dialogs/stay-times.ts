import {
  SMALL_HOURS_END,
  addDays,
  addStayLength,
  daysBetween,
  isLongEnoughStay,
  localDate,
  localDateTime,
  zonedToInstant,
  type TStayLengthUnit,
} from '@console/shared';

/**
 * The times the check-in form proposes, from the hotel's own clock: its time zone and its default
 * check-in and check-out times (hotel information, `HH:mm`).
 *
 * - A walk-in checks in now and leaves at the hotel's check-out time after one night.
 * - Nights are the hotel's calendar dates, in its zone (not the browser's), counted as the price
 *   counts them (docs/pricing.md: from the date of check-in; a stay that ends on the date it began
 *   is one night), so that the length field and the quote's nights always say the same.
 * - A guest who comes in the small hours, before {@link SMALL_HOURS_END} and early enough to stay
 *   the shortest stay before the check-out time, is sleeping the rest of the night that began the
 *   evening before: at 01:00 on 26 November a clerk sells that night and expects the guest to
 *   leave at 12:00 on the 26th, not at 12:00 on the 27th. So one night from the small hours ends
 *   the same morning (one night by the price too). Two nights from there end on the 28th: the
 *   price counts the 26th and the 27th (a check-out on the 27th would be one night by the price,
 *   and the form never says "2" where the quote says one). From 06:00 an arrival starts the coming
 *   night (an early check-in) and leaves the next day.
 * - Every stay counted in days, months or years ends at the check-out time (months and years from
 *   the date of check-in). Hours are exact.
 * - A day other than today picked for the check-in (a booking) gets the hotel's check-in time;
 *   today keeps the time it is now.
 *
 * The price is not decided here: the server prices the stay it gets, and the form shows that quote.
 */
export interface HotelClock {
  timeZone: string;
  /** `HH:mm` */
  checkInTime: string;
  /** `HH:mm` */
  checkOutTime: string;
}

/** `HH:mm` of an instant on the hotel's clock. */
const clockTime = (instant: Date, timeZone: string) => localDateTime(instant, timeZone).slice(11);

/** The instant of a hotel date at a time of day (a time skipped by daylight saving moves forward). */
const at = (date: string, time: string, timeZone: string) => zonedToInstant(`${date}T${time}`, timeZone)!;

/** Whether `checkIn` is in the small hours of the hotel: before {@link SMALL_HOURS_END}, an hour or more before that morning's check-out time. */
export function isSmallHours(checkIn: Date, hotel: HotelClock): boolean {
  const date = localDate(checkIn, hotel.timeZone);
  return clockTime(checkIn, hotel.timeZone) < SMALL_HOURS_END && isLongEnoughStay(checkIn, at(date, hotel.checkOutTime, hotel.timeZone));
}

/** The expected check-out of a stay from `checkIn` lasting `amount` (at least 1) `unit`s. */
export function checkOutAfter(checkIn: Date, amount: number, unit: TStayLengthUnit, hotel: HotelClock): Date {
  const { timeZone, checkOutTime } = hotel;
  if (unit === 'hour') return addStayLength(checkIn, amount, 'hour', timeZone);
  const date = localDate(checkIn, timeZone);
  let end: Date;
  if (unit === 'day') end = at(amount === 1 && isSmallHours(checkIn, hotel) ? date : addDays(date, amount), checkOutTime, timeZone);
  else end = addStayLength(at(date, checkOutTime, timeZone), amount, unit, timeZone);
  // A check-out time just after midnight and a late arrival: never shorter than the shortest stay.
  while (!isLongEnoughStay(checkIn, end)) end = addStayLength(end, 1, 'day', timeZone);
  return end;
}

/**
 * How many `unit`s a stay from `checkIn` to `checkOut` lasts: days are nights as the price counts
 * them (the hotel's dates from the check-in date, at least one); hours, months and years the fewest
 * that reach the check-out as {@link checkOutAfter} makes it. At least 1.
 */
export function lengthOfStay(checkIn: Date, checkOut: Date, unit: TStayLengthUnit, hotel: HotelClock): number {
  if (checkOut <= checkIn) return 1;
  if (unit === 'hour') return Math.max(1, Math.ceil((checkOut.getTime() - checkIn.getTime()) / 3_600_000));
  if (unit === 'day') return Math.max(1, daysBetween(localDate(checkIn, hotel.timeZone), localDate(checkOut, hotel.timeZone)));
  let n = 1;
  while (n < 1200 && checkOutAfter(checkIn, n, unit, hotel) < checkOut) n += 1;
  return n;
}

/** The times of a walk-in at `now`: in now, out at the check-out time after one night (`YYYY-MM-DDTHH:mm` of the hotel). */
export function walkInTimes(now: Date, hotel: HotelClock): { checkInAt: string; expectedCheckOutAt: string } {
  return { checkInAt: localDateTime(now, hotel.timeZone), expectedCheckOutAt: localDateTime(checkOutAfter(now, 1, 'day', hotel), hotel.timeZone) };
}

/** The check-in time proposed for a day picked on the calendar (`HH:mm`): now today, the hotel's check-in time any other day. */
export function checkInTimeOn(date: string, hotel: HotelClock, now: Date): string {
  return date === localDate(now, hotel.timeZone) ? clockTime(now, hotel.timeZone) : hotel.checkInTime;
}

/**
 * A quick "+1 day" (hour, week, month, year) on a time field: the field's own time (`YYYY-MM-DDTHH:mm`
 * of the hotel) moved on, so that pressed twice it has moved twice; from `start` when the field
 * holds no time. Hours are exact; days, months and years keep the time of day on the hotel's clock.
 */
export function addToTime(value: string, start: Date, amount: number, unit: TStayLengthUnit, timeZone: string): string {
  const current = zonedToInstant(value, timeZone) ?? start;
  return localDateTime(addStayLength(current, amount, unit, timeZone), timeZone);
}
