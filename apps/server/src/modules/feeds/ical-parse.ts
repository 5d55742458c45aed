import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { LIMITS, addDays, isEmail, isValidTimeZone, toAcceptedText, zonedToInstant } from '@console/shared';

/**
 * Reading a channel's iCal calendar (RFC 5545) with ical.js (Mozilla's parser, docs/calendar-feeds.md):
 * each VEVENT is a booking or a block. What the big channels put in their events:
 * - Airbnb: SUMMARY "Reserved" for a booking, "Airbnb (Not available)" for a block; DESCRIPTION has
 *   "Reservation URL: https://www.airbnb.com/hosting/reservations/details/HMXXXXXXXX" and
 *   "Phone Number (Last 4 Digits): 1234".
 * - Booking.com: SUMMARY "CLOSED - Not available" (its export does not tell bookings from closed dates: a block).
 * - VRBO: SUMMARY "Reserved - <guest name>" for a booking, "Blocked" for a block.
 * - Property managers' and booking engines' exports (any RFC 5545 feed): the guest's e-mail as an
 *   ATTENDEE (`mailto:`) or an "Email:" line of the DESCRIPTION.
 * All-day dates (the channels' usual way) take the hotel's check-in and check-out times in its zone.
 */

export interface FeedEvent {
  uid: string;
  /** A booking (false: a block, "not available", or a cancelled event). */
  isBooking: boolean;
  /** STATUS:CANCELLED: the channel says this booking is cancelled (not merely absent). */
  isCancelled: boolean;
  checkInAt: Date;
  checkOutAt: Date;
  /** The channel's reference: the reservation code when the event carries one, else the UID. */
  reference: string;
  guestName: string | null;
  /** The phone (or its last digits) the event carries. */
  phone: string | null;
  /** The guest's e-mail address the event carries (an ATTENDEE's `mailto:`, or "Email:" in the description). */
  email: string | null;
}

export interface HotelTimes {
  timeZone: string;
  /** `HH:mm` in the hotel's zone. */
  checkInTime: string;
  checkOutTime: string;
}

export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedParseError';
  }
}

const BLOCK_SUMMARY = /not available|unavailable|closed|blocked|\bblock\b|owner stay|maintenance/i;
const RESERVED_ONLY = /^\s*(reserved|booked|reservation|airbnb|booking|vrbo)\s*$/i;
const REFERENCE_IN_URL = /reservations?\/details\/([A-Z0-9]{6,20})/i;
const EMAIL_LINE = /\be-?mail(?: address)?\s*:\s*(?:mailto:)?([^\s<>"',;]+@[^\s<>"',;]+)/i;
const PHONE = /phone(?: number)?(?: \(last 4 digits\))?\s*:\s*([+\d][\d\s().-]{2,30}\d)/i;

function clip(text: string, max: number): string {
  return toAcceptedText(text).trim().slice(0, max);
}

/** The instant of an iCal DATE-TIME: UTC as it is; a TZID (when it names a zone) or a floating time in that zone, else the hotel's. */
function instantOf(time: ICAL.Time, tzid: string | null, hotelZone: string): Date | null {
  if (time.zone?.tzid === 'UTC' || time.toString().endsWith('Z')) return time.toJSDate();
  const zone = tzid && isValidTimeZone(tzid) ? tzid : hotelZone;
  const pad = (n: number) => String(n).padStart(2, '0');
  return zonedToInstant(`${time.year}-${pad(time.month)}-${pad(time.day)}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`, zone);
}

/** The guest's address: the first ATTENDEE whose value is a `mailto:` address, else an "Email:" line; null when none is a valid address. */
function emailOf(vevent: ICAL.Component, description: string): string | null {
  const attendees = vevent.getAllProperties('attendee').map((p) => String(p.getFirstValue() ?? ''));
  const candidates = [...attendees.filter((a) => /^mailto:/i.test(a)).map((a) => a.replace(/^mailto:/i, '')), EMAIL_LINE.exec(description)?.[1] ?? ''];
  for (const candidate of candidates) {
    const address = candidate.trim();
    if (address && address.length <= LIMITS.guestFieldMax.email && isEmail(address)) return address;
  }
  return null;
}

function dateOf(time: ICAL.Time): string {
  return `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
}

/** Parses an iCal text into its events; FeedParseError when it is not a calendar. */
export function parseFeed(text: string, hotel: HotelTimes): FeedEvent[] {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(body)) throw new FeedParseError('not a calendar');
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(body) as unknown[]);
  } catch (error) {
    throw new FeedParseError(error instanceof Error ? error.message : 'unparsable');
  }
  if (root.name !== 'vcalendar') throw new FeedParseError('not a calendar');
  const events: FeedEvent[] = [];
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const startProp = vevent.getFirstProperty('dtstart');
    const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time | null;
    if (!startProp || !start) continue;
    const endValue = vevent.getFirstPropertyValue('dtend') as ICAL.Time | null;
    const summary = String(vevent.getFirstPropertyValue('summary') ?? '');
    const description = String(vevent.getFirstPropertyValue('description') ?? '');
    const status = String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase();
    let checkInAt: Date | null;
    let checkOutAt: Date | null;
    if (start.isDate) {
      // All-day: the nights from DTSTART to DTEND (exclusive); no DTEND is one day (RFC 5545 §3.6.1).
      const endDate = endValue && endValue.isDate ? dateOf(endValue) : addDays(dateOf(start), 1);
      checkInAt = zonedToInstant(`${dateOf(start)}T${hotel.checkInTime}`, hotel.timeZone);
      checkOutAt = zonedToInstant(`${endDate}T${hotel.checkOutTime}`, hotel.timeZone);
    } else {
      checkInAt = instantOf(start, (startProp.getParameter('tzid') as string | undefined) ?? null, hotel.timeZone);
      const endProp = vevent.getFirstProperty('dtend');
      checkOutAt = endValue ? instantOf(endValue, (endProp?.getParameter('tzid') as string | undefined) ?? null, hotel.timeZone) : null;
    }
    if (!checkInAt || !checkOutAt || checkOutAt <= checkInAt) continue;
    const rawUid = String(vevent.getFirstPropertyValue('uid') ?? '');
    const uid = rawUid
      ? clip(rawUid, 512)
      : `nouid-${createHash('sha256')
          .update(`${start.toString()}|${endValue?.toString() ?? ''}|${summary}`)
          .digest('hex')
          .slice(0, 32)}`;
    const code = REFERENCE_IN_URL.exec(description)?.[1] ?? null;
    const phone = PHONE.exec(description)?.[1]?.replace(/[\s().-]/g, '') ?? null;
    const vrboName = /^\s*reserved\s*[-–:]\s*(.+)$/i.exec(summary)?.[1] ?? null;
    const isBlock = BLOCK_SUMMARY.test(summary) && !code;
    events.push({
      uid,
      isBooking: !isBlock && status !== 'CANCELLED',
      isCancelled: status === 'CANCELLED',
      checkInAt,
      checkOutAt,
      reference: clip(code ?? uid, 200),
      guestName: vrboName ? clip(vrboName, 64) : summary && !RESERVED_ONLY.test(summary) && !isBlock ? clip(summary, 64) : null,
      phone: phone ? clip(phone, 40) : null,
      email: emailOf(vevent, description),
    });
  }
  return events;
}
