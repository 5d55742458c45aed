import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { toAcceptedText, type TFeedSkipReason } from '@console/shared';
import { EventSkip, dateOf, instantOf, periodOf, recurrenceKey, tzidOf, type HotelTimes } from './ical-dates';
import { factsOf } from './ical-facts';

/**
 * Reading a channel's iCal calendar (RFC 5545) with ical.js (Mozilla's parser, docs/calendar-feeds.md):
 * each VEVENT is a booking or a block. What an event says of its booking is read in ical-facts.ts
 * (the big channels' ways), its dates in ical-dates.ts.
 *
 * A booking is identified by its UID and, for an instance of a recurring event, its RECURRENCE-ID
 * (RFC 5545 §3.8.4.4): a recurring event gives one booking per instance (up to a horizon), an override
 * (same UID, a RECURRENCE-ID) replaces the instance it names, and the same UID twice without one (not
 * valid, but seen) is one booking: the higher SEQUENCE, else the later in the calendar. An event that
 * cannot be read (a DTSTART `garbage`, an end before its start, an RRULE that is not one) is skipped
 * and named (`skipped`: its UID and why); the others are read.
 */

export interface FeedEvent {
  uid: string;
  /** The instance of a recurring event it is (`YYYYMMDDTHHMMSSZ` or `YYYYMMDD`), '' for an event that does not recur. */
  recurrenceId: string;
  /** A booking (false: a block, "not available", or a cancelled event). */
  isBooking: boolean;
  /** STATUS:CANCELLED: the channel says this booking is cancelled (not merely absent). */
  isCancelled: boolean;
  checkInAt: Date;
  checkOutAt: Date;
  /** The channel's reference: the reservation code when the event carries one, else the UID. */
  reference: string;
  guestName: string | null;
  /** The guest's phone number (7 digits or more): a number messages may go to. */
  phone: string | null;
  /** Only the last digits of the phone (Airbnb's "Last 4 Digits", a masked number): codes may use them, nothing is sent to them. */
  phoneTail: string | null;
  /** The guest's e-mail address the event carries (an ATTENDEE's `mailto:`, or "Email:" in the description). */
  email: string | null;
}

type TSkipReason = TFeedSkipReason;

export interface SkippedEvent {
  /** The event's UID as far as it could be read ('' when it has none). */
  uid: string;
  /** Why (`feeds.skipReason.*`). */
  reason: TSkipReason;
}

export interface ParsedFeed {
  events: FeedEvent[];
  skipped: SkippedEvent[];
}

export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedParseError';
  }
}

/** How far ahead a recurring event's instances are read, and how many at most. */
const RECUR_HORIZON_DAYS = 730;
const RECUR_MAX_INSTANCES = 500;
const UID_MAX = 512;

/**
 * The UID as stored (512 characters at most, only characters the product accepts): a UID longer
 * than that, or one whose characters had to be cleaned (a NUL, a lone surrogate, a line break), keeps
 * a hash of its exact text at its end, so two different UIDs never become one booking.
 */
function uidOf(raw: string): string {
  const cleaned = toAcceptedText(raw).trim();
  if (cleaned === raw && raw.length <= UID_MAX) return raw;
  return `${cleaned.slice(0, UID_MAX - 66)}#${createHash('sha256').update(raw).digest('hex')}`;
}

/** One VEVENT read far enough to be grouped: its UID, its RECURRENCE-ID, its SEQUENCE; a skip when even that fails. */
interface Component {
  vevent: ICAL.Component;
  uid: string;
  recurrenceId: string | null;
  sequence: number;
  order: number;
}

/** The later of two versions of one event: the higher SEQUENCE, else the later in the calendar. */
const newer = (a: Component, b: Component) => (b.sequence > a.sequence || (b.sequence === a.sequence && b.order > a.order) ? b : a);

function readComponent(vevent: ICAL.Component, order: number, hotel: HotelTimes): Component {
  const rawUid = String(vevent.getFirstPropertyValue('uid') ?? '');
  const ridProp = vevent.getFirstProperty('recurrence-id');
  const rid = ridProp ? (ridProp.getFirstValue() as ICAL.Time | null) : null;
  if (ridProp && !rid) throw new EventSkip('bad_date');
  const sequence = Number(vevent.getFirstPropertyValue('sequence') ?? 0);
  let uid = rawUid ? uidOf(rawUid) : '';
  if (!rawUid) {
    // No UID (not valid): one made of what the event says, the same at every read.
    const start = String(vevent.getFirstProperty('dtstart')?.toICALString() ?? '');
    const end = String(vevent.getFirstProperty('dtend')?.toICALString() ?? '');
    uid = `nouid-${createHash('sha256')
      .update(`${start}|${end}|${String(vevent.getFirstPropertyValue('summary') ?? '')}`)
      .digest('hex')
      .slice(0, 32)}`;
  }
  return {
    vevent,
    uid,
    recurrenceId: rid ? recurrenceKey(rid, tzidOf(ridProp), hotel) : null,
    sequence: Number.isFinite(sequence) ? sequence : 0,
    order,
  };
}

/** The booking an event (a single one, or an override) gives, at its own dates. */
function bookingOf(c: Component, recurrenceId: string, hotel: HotelTimes): FeedEvent {
  const startProp = c.vevent.getFirstProperty('dtstart');
  const start = startProp?.getFirstValue() as ICAL.Time | null | undefined;
  if (!startProp || !start) throw new EventSkip('no_start');
  const endProp = c.vevent.getFirstProperty('dtend');
  const end = (endProp?.getFirstValue() as ICAL.Time | null | undefined) ?? null;
  return { uid: c.uid, recurrenceId, ...periodOf(start, tzidOf(startProp), end, tzidOf(endProp), hotel), ...factsOf(c.vevent, c.uid) };
}

/**
 * The bookings of one UID: a recurring event's instances (each replaced by its override, if any),
 * or the single event (replaced by an override of its start), and the overrides that replace no
 * instance, each a booking of its own.
 */
function bookingsOfUid(components: Component[], hotel: HotelTimes, now: Date, skip: (c: Component, reason: TSkipReason) => void): FeedEvent[] {
  const masters = components.filter((c) => c.recurrenceId === null);
  const overrides = new Map<string, Component>();
  for (const c of components)
    if (c.recurrenceId !== null) overrides.set(c.recurrenceId, overrides.has(c.recurrenceId) ? newer(overrides.get(c.recurrenceId)!, c) : c);
  const master = masters.length ? masters.reduce(newer) : null;
  const out: FeedEvent[] = [];
  const used = new Set<string>();
  const attempt = (c: Component, make: () => FeedEvent) => {
    try {
      out.push(make());
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      skip(c, error instanceof EventSkip ? error.reason : 'bad_date');
    }
  };
  if (master) {
    const isRecurring = master.vevent.hasProperty('rrule') || master.vevent.hasProperty('rdate');
    if (!isRecurring) {
      const startProp = master.vevent.getFirstProperty('dtstart');
      /** The key of the event's only instance (its start), or null when its start cannot be read (the event is then skipped below). */
      const ownKeyOf = (): string | null => {
        try {
          const start = startProp?.getFirstValue() as ICAL.Time | null | undefined;
          return start ? recurrenceKey(start, tzidOf(startProp), hotel) : null;
        } catch {
          return null;
        }
      };
      const ownKey = ownKeyOf();
      const override = ownKey !== null ? overrides.get(ownKey) : undefined;
      if (override) used.add(ownKey!);
      // An override of the event's only instance replaces it: one booking, the event's.
      const c = override ?? master;
      attempt(c, () => bookingOf(c, '', hotel));
    } else {
      try {
        const event = new ICAL.Event(master.vevent);
        const horizon = new Date(now.getTime() + RECUR_HORIZON_DAYS * 86_400_000);
        const startProp = master.vevent.getFirstProperty('dtstart');
        const masterTz = tzidOf(startProp);
        const iterator = event.iterator();
        const duration = event.duration;
        for (let n = 0, next = iterator.next(); next && n < RECUR_MAX_INSTANCES * 4; n += 1, next = iterator.next()) {
          const key = recurrenceKey(next, masterTz, hotel);
          const startAt = next.isDate ? null : instantOf(next, masterTz, hotel.timeZone);
          if ((startAt ?? new Date(`${dateOf(next)}T00:00:00Z`)) > horizon) break;
          const override = overrides.get(key);
          if (override) {
            used.add(key);
            attempt(override, () => bookingOf(override, key, hotel));
          } else {
            const end = next.clone();
            end.addDuration(duration);
            attempt(master, () => ({
              uid: master.uid,
              recurrenceId: key,
              ...periodOf(next, masterTz, end, masterTz, hotel),
              ...factsOf(master.vevent, master.uid),
            }));
          }
          if (out.length >= RECUR_MAX_INSTANCES) break;
        }
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        skip(master, error instanceof EventSkip ? error.reason : 'bad_recurrence');
      }
    }
  }
  // Overrides of no instance read: bookings of their own (a booking is never dropped for its form).
  for (const [key, c] of overrides) if (!used.has(key)) attempt(c, () => bookingOf(c, key, hotel));
  return out;
}

const VEVENT_BLOCK = /^BEGIN:VEVENT\r?\n[\s\S]*?^END:VEVENT\r?$/gim;

/** An unreadable event's UID as far as it can be read, '' when it cannot. */
function uidOrEmpty(vevent: ICAL.Component): string {
  try {
    return uidOf(String(vevent.getFirstPropertyValue('uid') ?? ''));
  } catch {
    return '';
  }
}

/**
 * A calendar ical.js refuses as a whole, read one VEVENT at a time: the calendar without its events
 * must parse (else it is not a calendar), each event that does not is skipped (`unreadable`, its UID
 * as its text says it).
 */
function eventByEvent(body: string, skipped: SkippedEvent[]): ICAL.Component[] {
  const blocks = body.match(VEVENT_BLOCK) ?? [];
  try {
    ICAL.parse(body.replace(VEVENT_BLOCK, ''));
  } catch (error) {
    throw new FeedParseError(error instanceof Error ? error.message : 'unparsable');
  }
  const out: ICAL.Component[] = [];
  for (const block of blocks) {
    try {
      const root = new ICAL.Component(ICAL.parse(`BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${block}\r\nEND:VCALENDAR\r\n`) as unknown[]);
      out.push(...root.getAllSubcomponents('vevent'));
    } catch {
      const uid = /^UID:(.*)$/im.exec(block.replace(/\r?\n[ \t]/g, ''))?.[1]?.replace(/\r$/, '') ?? '';
      skipped.push({ uid: uid ? uidOf(uid) : '', reason: 'unreadable' });
    }
  }
  return out;
}

/**
 * Parses an iCal text into its bookings and blocks, and the events it could not read (`skipped`);
 * FeedParseError when it is not a calendar at all.
 */
export function parseFeed(text: string, hotel: HotelTimes, now = new Date()): ParsedFeed {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(body)) throw new FeedParseError('not a calendar');
  const skipped: SkippedEvent[] = [];
  let vevents: ICAL.Component[];
  try {
    const root = new ICAL.Component(ICAL.parse(body) as unknown[]);
    if (root.name !== 'vcalendar') throw new FeedParseError('not a calendar');
    vevents = root.getAllSubcomponents('vevent');
  } catch (error) {
    if (error instanceof FeedParseError) throw error;
    // ical.js refuses the whole text for one bad line (an RRULE that is not one): each event is read alone.
    vevents = eventByEvent(body, skipped);
  }
  const skip = (c: { uid: string }, reason: TSkipReason) => skipped.push({ uid: c.uid, reason });
  const byUid = new Map<string, Component[]>();
  for (const [order, vevent] of vevents.entries()) {
    let c: Component;
    try {
      c = readComponent(vevent, order, hotel);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      skip({ uid: uidOrEmpty(vevent) }, error instanceof EventSkip ? error.reason : 'bad_date');
      continue;
    }
    const list = byUid.get(c.uid);
    if (list) list.push(c);
    else byUid.set(c.uid, [c]);
  }
  const events: FeedEvent[] = [];
  for (const components of byUid.values()) events.push(...bookingsOfUid(components, hotel, now, skip));
  return { events, skipped };
}
