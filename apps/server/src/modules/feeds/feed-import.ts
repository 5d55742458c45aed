import type { Actor, ServiceContext } from '../../context';
import type { Prisma } from '../../generated/prisma/client';
import { recordEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import { FeedFetchError, fetchFeedText } from './feed-fetch';
import { type HotelTimes } from './ical-dates';
import { FeedParseError, parseFeed, type FeedEvent, type SkippedEvent } from './ical-parse';
import { applyBooking, cancelGone, CANCELLABLE_STATES, followedElsewhere, keyOf, type FeedRoomChange } from './feed-booking';

/**
 * One read of one feed (docs/calendar-feeds.md): its bookings become reservations, followed when
 * they change, never duplicated.
 * - A read that fails (HTTP error, timeout, not a calendar) changes nothing but the feed's error.
 * - A booking is the hotel's, identified by (hotel, UID, RECURRENCE-ID or none) across all its feeds
 *   (issue 27): each is applied in a transaction of its own holding the advisory lock of that
 *   identity, and its row is unique per identity in the database (CalendarFeedBooking_identity_key):
 *   two reads at once, of one feed or of two feeds listing the same calendar, make one reservation.
 *   The feed that made it follows it; another feed of the hotel listing it leaves it to that one
 *   (`followedElsewhere`), and adopts it once that feed is deleted, or once it was cancelled there.
 * - An event that cannot be read is skipped and named in the read's report; it cancels nothing.
 * - Moved dates that do not fit the room of a group's booking move it to a free room of the group
 *   (the room change, keys following), said in the report (`roomChanges`).
 * - A booking gone from an answer that still has bookings is cancelled; an answer with no booking
 *   while the feed has bookings to come cancels nothing: the feed waits for a manager's
 *   confirmation (`emptyPending`, `confirmEmptyFeed`).
 * - Bookings that have ended are not touched; a booking whose dates overlap another stay of the
 *   room (or find no free room of the group) is a conflict shown on the feed, not dropped.
 */

/** What a read that succeeded has to say beyond its counts, kept on the feed (`lastReadReport`) and shown with its last read. */
export interface FeedReadReport {
  /** Events that could not be read (their UID and why), at most `REPORT_MAX`; `skippedCount` says how many in all. */
  skipped: SkippedEvent[];
  skippedCount: number;
  roomChanges: FeedRoomChange[];
}

export interface FeedReadResult {
  ok: boolean;
  error?: string;
  events: number;
  created: number;
  moved: number;
  /** Of `moved`: those that took another room of the group. */
  roomChanged: number;
  cancelled: number;
  conflicts: number;
  /** Bookings listed by this feed that another feed of the hotel follows (the same calendar twice). */
  followedElsewhere: number;
  skipped: number;
  emptyPending: boolean;
  report?: FeedReadReport;
}

const REPORT_MAX = 50;

type Ctx = ServiceContext & { actor?: Actor };

/** Reads feed `feedId` of hotel `hotelId` now and applies what it says. */
export async function readFeed(ctx: Ctx, hotelId: number, feedId: number, options: { timeoutMs?: number; now?: Date } = {}): Promise<FeedReadResult> {
  const { deps } = ctx;
  const now = options.now ?? new Date();
  // The feed and its hotel's times in one statement.
  const [feedRow] = await deps.prisma.$queryRaw<
    {
      id: number;
      hotelId: number;
      roomId: number | null;
      groupId: number | null;
      label: string;
      url: string;
      everyMinutes: number;
      timeZone: string;
      checkInTime: string;
      checkOutTime: string;
    }[]
  >`
    SELECT f."id", f."hotelId", f."roomId", f."groupId", f."label", f."url", f."everyMinutes", h."timeZone", h."checkInTime", h."checkOutTime"
      FROM "CalendarFeed" f JOIN "Hotel" h ON h."id" = f."hotelId"
     WHERE f."id" = ${feedId} AND f."hotelId" = ${hotelId}`;
  const feed = feedRow ? { ...feedRow, hotel: { timeZone: feedRow.timeZone, checkInTime: feedRow.checkInTime, checkOutTime: feedRow.checkOutTime } } : null;
  const result: FeedReadResult = {
    ok: false,
    events: 0,
    created: 0,
    moved: 0,
    roomChanged: 0,
    cancelled: 0,
    conflicts: 0,
    followedElsewhere: 0,
    skipped: 0,
    emptyPending: false,
  };
  if (!feed) return { ...result, error: 'not_found' };
  const nextReadAt = new Date(now.getTime() + feed.everyMinutes * 60_000);
  const hotel: HotelTimes = feed.hotel;

  let events: FeedEvent[];
  let skipped: SkippedEvent[];
  try {
    ({ events, skipped } = parseFeed(
      await fetchFeedText(feed.url, { timeoutMs: options.timeoutMs, privateAddresses: deps.config.feeds.privateAddresses }),
      hotel,
      now,
    ));
  } catch (error) {
    const code = error instanceof FeedFetchError ? error.code : error instanceof FeedParseError ? 'unparsable' : 'unknown';
    if (code === 'unknown') deps.log.warn({ err: error, feedId }, 'calendar feed read failed');
    await transaction(deps, async (tx) => {
      // A read that failed after one that did not (or with another reason) is news: `feed.failed`, which webhooks send.
      const news = await tx.calendarFeed.updateMany({
        where: { id: feed.id, OR: [{ lastError: null }, { lastError: { not: code } }] },
        data: { lastError: code },
      });
      await tx.calendarFeed.updateMany({ where: { id: feed.id }, data: { lastError: code, lastErrorAt: now, nextReadAt } });
      if (news.count) await recordEvent(tx, { hotelId: feed.hotelId, kind: 'feed.failed', feedId: feed.id, roomIds: [feed.roomId] });
    });
    return { ...result, error: code };
  }
  // Bad data is the channel's, not ours: said in the report, never a stack in the log.
  if (skipped.length) deps.log.info({ feedId, skipped: skipped.length }, 'calendar feed events skipped');

  const bookings = events.filter((e) => e.isBooking);
  const inAnswer = new Set(bookings.map(keyOf));
  // A skipped event's bookings are not gone: nothing of that UID is cancelled by this read.
  const skippedUids = new Set(skipped.map((e) => e.uid));
  const roomChanges: FeedRoomChange[] = [];
  const note = (e: { reference: string }) => `${feed.label} · ${e.reference}`.slice(0, 500);

  // What the hotel already holds of these bookings, and what this feed follows that may be gone from
  // the answer, in one statement: a booking that this feed follows, booked and unchanged (its facts,
  // its stay's dates), is passed over without a transaction, and so is one another feed follows;
  // only what changed is applied under the identity's lock (bench/feeds.ts: most reads of a feed
  // change nothing).
  const uids = [...new Set(bookings.map((e) => e.uid))];
  const held = await deps.prisma.$queryRaw<
    {
      id: number;
      uid: string;
      recurrenceId: string;
      feedId: number | null;
      state: string;
      reference: string;
      guestName: string;
      phone: string | null;
      startsAt: Date;
      endsAt: Date;
      stayId: number | null;
      stayStatus: string | null;
      stayCheckInAt: Date | null;
      stayCheckOutAt: Date | null;
      listed: boolean;
    }[]
  >`
    SELECT b."id", b."uid", b."recurrenceId", b."feedId", b."state", b."reference", b."guestName", b."phone", b."startsAt", b."endsAt", b."stayId",
           s."status"::text AS "stayStatus", s."checkInAt" AS "stayCheckInAt", s."expectedCheckOutAt" AS "stayCheckOutAt",
           (b."hotelId" = ${feed.hotelId} AND b."uid" = ANY(${uids}::text[]) AND b."state" <> 'duplicate') AS "listed"
      FROM "CalendarFeedBooking" b
      -- Each booking's stay by its key, never a pass over the hotel's stays (OFFSET 0 keeps the planner
      -- from turning the lookups into a hash join over every stay when it expects a few dozen bookings).
      LEFT JOIN LATERAL (SELECT s."status", s."checkInAt", s."expectedCheckOutAt" FROM "Stay" s WHERE s."id" = b."stayId" OFFSET 0) s ON true
     WHERE (b."hotelId" = ${feed.hotelId} AND b."uid" = ANY(${uids}::text[]) AND b."state" <> 'duplicate')
        OR (b."feedId" = ${feed.id} AND b."state" = ANY(${CANCELLABLE_STATES}::text[]) AND b."endsAt" > ${now})`;
  const stayOf = (r: (typeof held)[number]) =>
    r.stayId === null || r.stayStatus === null ? null : { status: r.stayStatus, checkInAt: r.stayCheckInAt!, expectedCheckOutAt: r.stayCheckOutAt! };
  const known = new Map(held.filter((r) => r.listed).map((r) => [keyOf(r), { ...r, stay: stayOf(r) }]));
  const unchanged = (event: FeedEvent) => {
    const row = known.get(keyOf(event));
    return (
      row !== undefined &&
      row.feedId === feed.id &&
      row.state === 'booked' &&
      row.stay !== null &&
      row.reference === event.reference &&
      row.guestName === (event.guestName ?? '') &&
      row.phone === (event.phone ?? event.phoneTail) &&
      row.startsAt.getTime() === event.checkInAt.getTime() &&
      row.endsAt.getTime() === event.checkOutAt.getTime() &&
      row.stay.checkInAt.getTime() === event.checkInAt.getTime() &&
      row.stay.expectedCheckOutAt.getTime() === event.checkOutAt.getTime()
    );
  };

  /** Bookings this read applied in a transaction of their own (0: it changed nothing, the usual read). */
  let applied = 0;
  for (const event of bookings) {
    if (event.checkOutAt <= now) continue; // past: not touched
    if (followedElsewhere(feed.id, known.get(keyOf(event)))) {
      result.followedElsewhere += 1;
      continue;
    }
    if (unchanged(event)) continue;
    applied += 1;
    const outcome = await transaction(deps, (tx) => applyBooking(tx, ctx, feed, hotel, event, note, roomChanges));
    if (outcome === 'created') result.created += 1;
    if (outcome === 'moved') result.moved += 1;
    if (outcome === 'roomChanged') {
      result.moved += 1;
      result.roomChanged += 1;
    }
    if (outcome === 'elsewhere') result.followedElsewhere += 1;
  }

  // Bookings this feed follows gone from the answer (still to come): cancelled, unless the answer holds
  // no booking at all. Read with the bookings above: what this read applied was in the answer, so it
  // changed none of them.
  const gone = held
    .filter((g) => g.feedId === feed.id && CANCELLABLE_STATES.includes(g.state) && g.endsAt > now)
    .map((g) => ({ ...g, stay: stayOf(g) }))
    .filter((g) => !inAnswer.has(keyOf(g)) && !skippedUids.has(g.uid));
  // An answer without bookings cancels only what it says is cancelled (STATUS:CANCELLED): the rest waits for a confirmation.
  const saidCancelled = new Set(events.filter((e) => e.isCancelled).map(keyOf));
  const goneBooked = gone.filter((g) => g.state === 'booked' && g.stay?.status === 'reserved' && !saidCancelled.has(keyOf(g)));
  const emptyPending = bookings.length === 0 && goneBooked.length > 0;
  result.cancelled = await cancelGone(ctx, feed, emptyPending ? gone.filter((g) => saidCancelled.has(keyOf(g))) : gone, note);
  // The feed's conflicts still to come: as read above when this read changed nothing, else read again.
  const changedAny = applied > 0 || result.cancelled > 0;
  result.conflicts = changedAny
    ? await deps.prisma.calendarFeedBooking.count({ where: { feedId: feed.id, state: 'conflict', endsAt: { gt: now } } })
    : held.filter((r) => r.feedId === feed.id && r.state === 'conflict' && r.endsAt > now).length;
  const report: FeedReadReport = { skipped: skipped.slice(0, REPORT_MAX), skippedCount: skipped.length, roomChanges: roomChanges.slice(0, REPORT_MAX) };
  await deps.prisma.calendarFeed.updateMany({
    where: { id: feed.id },
    data: {
      lastReadAt: now,
      lastError: null,
      lastErrorAt: null,
      lastEventCount: events.length,
      emptyPending,
      nextReadAt,
      lastReadReport: report as unknown as Prisma.InputJsonValue,
    },
  });
  return { ...result, ok: true, events: events.length, skipped: skipped.length, emptyPending, report };
}
