import { z } from 'zod';
import { unacceptedTextReason, zInt, ZId } from './primitives';

/** Bookings from channel calendars (issue 20 §1, docs/calendar-feeds.md): the feeds' inputs and limits. */

export const FEED_LIMITS = {
  labelMax: 64,
  urlMax: 2048,
  everyMinutesMin: 5,
  everyMinutesMax: 1440,
  everyMinutesDefault: 15,
  /** The largest answer a feed may give (a year of a busy room is a few hundred KB). */
  bodyMaxBytes: 5 * 1024 * 1024,
  /** How long a read waits for the channel's answer. */
  timeoutMs: 15_000,
} as const;

/**
 * What a booking event of a feed became: a reservation, a conflict with another stay, cancelled, or
 * past when first read; `duplicate`: a second reservation of one booking made before a booking was
 * the hotel's (issue 27), left for the desk to cancel. `moved_in_house`: the channel changed the dates after the guest arrived, in a way not followed by
 * itself (an earlier check-out, a moved arrival): shown for the desk to decide. `gone_in_house`: the
 * channel cancelled a booking whose guest is in the house: the stay is left, shown until it ends.
 */
export const FEED_BOOKING_STATES = ['booked', 'conflict', 'cancelled', 'past', 'moved_in_house', 'gone_in_house', 'duplicate'] as const;
export type TFeedBookingState = (typeof FEED_BOOKING_STATES)[number];

/**
 * Why a read skipped an event (the others are read; docs/calendar-feeds.md "Events that cannot be
 * read"): a date that is not one, no start, an end before the start, a recurrence rule that cannot be
 * followed, or an event ical.js cannot read at all.
 */
export const FEED_SKIP_REASONS = ['bad_date', 'no_start', 'ends_before_start', 'bad_recurrence', 'unreadable'] as const;
export type TFeedSkipReason = (typeof FEED_SKIP_REASONS)[number];

/** The WHATWG URL parser of Node and of browsers (this package is typed without the DOM). */
const UrlParser = (globalThis as unknown as { URL: new (value: string) => { protocol: string; hostname: string; username: string; password: string } }).URL;

/** Whether `value` is an http(s) address a feed may have: parsed by the URL standard, no credentials, no spaces. */
export function isFeedUrl(value: string): boolean {
  if (value.length > FEED_LIMITS.urlMax || /\s/.test(value) || !/^https?:\/\//i.test(value)) return false;
  try {
    const url = new UrlParser(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

const ZFeedUrl = z
  .string({ error: 'feeds.validation.urlInvalid' })
  .trim()
  .min(1, { error: 'feeds.validation.urlRequired' })
  .max(FEED_LIMITS.urlMax, { error: 'feeds.validation.urlTooLong' })
  .superRefine((value, payload) => {
    const reason = unacceptedTextReason(value);
    if (reason) payload.addIssue({ code: 'custom', message: reason });
    else if (!isFeedUrl(value)) payload.addIssue({ code: 'custom', message: 'feeds.validation.urlInvalid' });
  });

const ZFeedLabel = z
  .string({ error: 'feeds.validation.labelRequired' })
  .trim()
  .min(1, { error: 'feeds.validation.labelRequired' })
  .max(FEED_LIMITS.labelMax, { error: 'validation.textTooLong' })
  .superRefine((value, payload) => {
    const reason = unacceptedTextReason(value);
    if (reason) payload.addIssue({ code: 'custom', message: reason });
  });

const ZEveryMinutes = zInt({ min: FEED_LIMITS.everyMinutesMin, max: FEED_LIMITS.everyMinutesMax }, 'feeds.validation.everyInvalid');

/** A new feed: of a room, or of a room group (each booking then takes a free room of the group). */
export const ZFeedAddInput = z
  .object({
    roomId: ZId.optional(),
    groupId: ZId.optional(),
    label: ZFeedLabel,
    url: ZFeedUrl,
    everyMinutes: ZEveryMinutes.default(FEED_LIMITS.everyMinutesDefault),
  })
  .refine((v) => (v.roomId === undefined) !== (v.groupId === undefined), { error: 'feeds.validation.roomOrGroup', path: ['roomId'] });
export type TFeedAddInput = z.input<typeof ZFeedAddInput>;

export const ZFeedEditInput = z.object({ feedId: ZId, label: ZFeedLabel, url: ZFeedUrl, everyMinutes: ZEveryMinutes });
export type TFeedEditInput = z.input<typeof ZFeedEditInput>;

export const ZFeedIdInput = z.object({ feedId: ZId });

/** Deleting a feed that made reservations asks first (CONFIRMATION_REQUIRED); `confirm` says yes. Its reservations stay. */
export const ZFeedDeleteInput = z.object({ feedId: ZId, confirm: z.boolean({ error: 'validation.flagInvalid' }).default(false) });

export const ZFeedListInput = z.object({ roomId: ZId.optional() }).default({});

export const ZFeedRoomInput = z.object({ roomId: ZId });
