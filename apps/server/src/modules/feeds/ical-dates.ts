import type ICAL from 'ical.js';
import { addDays, isValidTimeZone, zonedToInstant, type TFeedSkipReason } from '@console/shared';

/**
 * An event's times read (RFC 5545): date-times in UTC, in their TZID's zone or floating (the hotel's
 * zone); all-day dates, the channels' usual way, at the hotel's check-in and check-out times in its zone.
 */

export interface HotelTimes {
  timeZone: string;
  /** `HH:mm` in the hotel's zone. */
  checkInTime: string;
  checkOutTime: string;
}

/** An event that cannot be read: skipped and named, never the whole calendar. */
export class EventSkip extends Error {
  constructor(readonly reason: TFeedSkipReason) {
    super(reason);
    this.name = 'EventSkip';
  }
}

/** The instant of an iCal DATE-TIME: UTC as it is; a TZID (when it names a zone) or a floating time in that zone, else the hotel's. */
export function instantOf(time: ICAL.Time, tzid: string | null, hotelZone: string): Date | null {
  if (time.zone?.tzid === 'UTC' || time.toString().endsWith('Z')) return time.toJSDate();
  const zone = tzid && isValidTimeZone(tzid) ? tzid : hotelZone;
  const pad = (n: number) => String(n).padStart(2, '0');
  return zonedToInstant(`${time.year}-${pad(time.month)}-${pad(time.day)}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`, zone);
}

export function dateOf(time: ICAL.Time): string {
  return `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
}

export const tzidOf = (prop: ICAL.Property | null) => (prop?.getParameter('tzid') as string | undefined) ?? null;

/** A RECURRENCE-ID (or an instance's start) as a key: `YYYYMMDD` for a date, the UTC instant `YYYYMMDDTHHMMSSZ` for a date-time. */
export function recurrenceKey(time: ICAL.Time, tzid: string | null, hotel: HotelTimes): string {
  if (time.isDate) return dateOf(time).replaceAll('-', '');
  const at = instantOf(time, tzid, hotel.timeZone);
  if (!at) throw new EventSkip('bad_date');
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The stay an event's start and end give: all-day dates at the hotel's times, date-times as they are. */
export function periodOf(start: ICAL.Time, startTzid: string | null, end: ICAL.Time | null, endTzid: string | null, hotel: HotelTimes) {
  let checkInAt: Date | null;
  let checkOutAt: Date | null;
  if (start.isDate) {
    // All-day: the nights from DTSTART to DTEND (exclusive); no DTEND is one day (RFC 5545 §3.6.1).
    const endDate = end && end.isDate ? dateOf(end) : addDays(dateOf(start), 1);
    checkInAt = zonedToInstant(`${dateOf(start)}T${hotel.checkInTime}`, hotel.timeZone);
    checkOutAt = zonedToInstant(`${endDate}T${hotel.checkOutTime}`, hotel.timeZone);
  } else {
    checkInAt = instantOf(start, startTzid, hotel.timeZone);
    checkOutAt = end ? instantOf(end, endTzid, hotel.timeZone) : null;
  }
  if (!checkInAt || !checkOutAt) throw new EventSkip('bad_date');
  if (checkOutAt <= checkInAt) throw new EventSkip('ends_before_start');
  return { checkInAt, checkOutAt };
}
