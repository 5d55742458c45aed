import type { Actor, ServiceContext } from '../../context';
import type { Prisma } from '../../generated/prisma/client';
import { recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { cancelChannelReservation, moveReservationDates, reserveFromChannel } from '../stays/reservation';
import { extendChannelStay, moveChannelReservationToFreeRoom } from '../stays/channel-stay';
import { followStayJobs } from '../stays/stay-schedule';
import { FeedFetchError, fetchFeedText } from './feed-fetch';
import { FeedParseError, parseFeed, type FeedEvent, type HotelTimes, type SkippedEvent } from './ical-parse';

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

/** A booking moved to another room of its group because its room was taken on its new dates. */
export interface FeedRoomChange {
  reference: string;
  fromRoom: string;
  toRoom: string;
}

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

/** Booking states whose stay the feed still follows (`cancelled` and `past` are done with). */
const FOLLOWED_STATES = new Set<string>(['booked', 'conflict', 'moved_in_house', 'gone_in_house']);
/** Booking states a booking gone from its feed's answer leaves (cancelled, or `gone_in_house`). */
const CANCELLABLE_STATES = ['booked', 'conflict', 'moved_in_house'];

/** A booking's identity in its hotel, as a key (a RECURRENCE-ID has no `|`: the two parts never run into each other). */
const keyOf = (e: { uid: string; recurrenceId: string }) => `${e.recurrenceId}|${e.uid}`;

/** The lock of one booking identity of a hotel, for the rest of the transaction: every feed of the hotel that reads it waits for it. */
const lockIdentity = (tx: Tx, hotelId: number, e: { uid: string; recurrenceId: string }) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`CalendarFeedBooking:${hotelId}`}), hashtext(${keyOf(e)}))`;

async function feedRooms(tx: Tx, feed: { hotelId: number; roomId: number | null; groupId: number | null }): Promise<number[]> {
  const rooms = await tx.room.findMany({
    where: { hotelId: feed.hotelId, deletedAt: null, maintenance: 'none', ...(feed.roomId !== null ? { id: feed.roomId } : { groupId: feed.groupId! }) },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return rooms.map((r) => r.id);
}

/** The hotel's booking of an identity (not a `duplicate` left from before the identity was the hotel's). */
const bookingSelect = {
  id: true,
  feedId: true,
  stayId: true,
  state: true,
  startsAt: true,
  endsAt: true,
  stay: { select: { status: true } },
} as const;

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
  const followedElsewhere = (row: { feedId: number | null; state: string } | undefined | null) =>
    row !== undefined && row !== null && row.feedId !== null && row.feedId !== feed.id && FOLLOWED_STATES.has(row.state);
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
    if (followedElsewhere(known.get(keyOf(event)))) {
      result.followedElsewhere += 1;
      continue;
    }
    if (unchanged(event)) continue;
    applied += 1;
    const outcome = await transaction(deps, async (tx) => {
      await lockIdentity(tx, feed.hotelId, event);
      const row = await tx.calendarFeedBooking.findFirst({
        where: { hotelId: feed.hotelId, uid: event.uid, recurrenceId: event.recurrenceId, state: { not: 'duplicate' } },
        select: bookingSelect,
      });
      // Another feed of the hotel took it meanwhile: it follows it.
      if (followedElsewhere(row)) return 'elsewhere' as const;
      // The row is this feed's from now on (made here, or adopted: its feed deleted, or done with there).
      const facts = {
        feedId: feed.id,
        reference: event.reference,
        guestName: event.guestName ?? '',
        phone: event.phone ?? event.phoneTail,
        startsAt: event.checkInAt,
        endsAt: event.checkOutAt,
      };
      const stayIsReserved = row?.stay?.status === 'reserved';
      const stayIsInHouse = row?.stay?.status === 'in_house' || row?.stay?.status === 'expired';
      if (row && row.stayId !== null && FOLLOWED_STATES.has(row.state)) {
        // A booking already made: moved when its dates changed. Before it begins, the reservation
        // moves; once the guest is in, a later check-out extends the stay and anything else (an
        // earlier check-out, a moved arrival) is shown for the desk to decide (`moved_in_house`);
        // a stay that has ended is left as it is.
        const stay = await tx.stay.findUniqueOrThrow({ where: { id: row.stayId }, select: { checkInAt: true, expectedCheckOutAt: true } });
        const stayMatches = stay.checkInAt.getTime() === event.checkInAt.getTime() && stay.expectedCheckOutAt.getTime() === event.checkOutAt.getTime();
        if (stayIsInHouse && !stayMatches) {
          const sameArrival = stay.checkInAt.getTime() === event.checkInAt.getTime();
          const extended =
            sameArrival && event.checkOutAt > stay.expectedCheckOutAt
              ? await extendChannelStay(tx, ctx, {
                  hotelId: feed.hotelId,
                  timeZone: hotel.timeZone,
                  stayId: row.stayId,
                  expectedCheckOutAt: event.checkOutAt,
                  note: note(event),
                })
              : null;
          if (extended && 'extended' in extended) {
            await tx.calendarFeedBooking.update({ where: { id: row.id }, data: { ...facts, state: 'booked', conflictStayId: null } });
            followStayJobs(tx, deps, extended.extended, hotel.timeZone);
            followCredentials(tx, deps, feed.hotelId, { stayId: extended.extended.id });
            return 'moved' as const;
          }
          await tx.calendarFeedBooking.update({
            where: { id: row.id },
            data: {
              ...facts,
              state: extended ? 'conflict' : 'moved_in_house',
              conflictStayId: extended && 'conflictStayId' in extended ? extended.conflictStayId : null,
            },
          });
          return 'conflict' as const;
        }
        if (stayMatches || !stayIsReserved) {
          await tx.calendarFeedBooking.update({ where: { id: row.id }, data: { ...facts, state: 'booked', conflictStayId: null } });
          return 'kept' as const;
        }
        // A group's booking: every room of the group it may take is locked first, in id order.
        const groupRooms = feed.groupId !== null ? await feedRooms(tx, feed) : [];
        const moved = await moveReservationDates(tx, ctx, {
          hotelId: feed.hotelId,
          timeZone: hotel.timeZone,
          stayId: row.stayId,
          checkInAt: event.checkInAt,
          expectedCheckOutAt: event.checkOutAt,
          note: note(event),
          lockAlso: groupRooms,
        });
        if (moved && 'moved' in moved) {
          await tx.calendarFeedBooking.update({ where: { id: row.id }, data: { ...facts, state: 'booked', conflictStayId: null } });
          followStayJobs(tx, deps, moved.moved, hotel.timeZone);
          followCredentials(tx, deps, feed.hotelId, { stayId: moved.moved.id });
          return 'moved' as const;
        }
        // The new dates overlap another stay of its room: a group's booking takes a free room of the group.
        const changed =
          moved && groupRooms.length > 1
            ? await moveChannelReservationToFreeRoom(tx, ctx, {
                hotelId: feed.hotelId,
                timeZone: hotel.timeZone,
                stayId: row.stayId,
                roomIds: groupRooms,
                checkInAt: event.checkInAt,
                expectedCheckOutAt: event.checkOutAt,
                note: note(event),
              })
            : null;
        if (changed) {
          await tx.calendarFeedBooking.update({ where: { id: row.id }, data: { ...facts, stayId: changed.moved.id, state: 'booked', conflictStayId: null } });
          const names = await tx.room.findMany({
            where: { hotelId: feed.hotelId, id: { in: [changed.fromRoomId, changed.moved.roomId] } },
            select: { id: true, name: true },
          });
          const name = (id: number) => names.find((n) => n.id === id)?.name ?? String(id);
          roomChanges.push({ reference: event.reference, fromRoom: name(changed.fromRoomId), toRoom: name(changed.moved.roomId) });
          followStayJobs(tx, deps, changed.moved, hotel.timeZone);
          followCredentials(tx, deps, feed.hotelId, { stayId: row.stayId });
          followCredentials(tx, deps, feed.hotelId, { stayId: changed.moved.id });
          return 'roomChanged' as const;
        }
        // No room is free on the new dates: the reservation keeps its dates; the feed shows the conflict.
        await tx.calendarFeedBooking.update({
          where: { id: row.id },
          data: { ...facts, state: 'conflict', conflictStayId: moved && 'conflictStayId' in moved ? moved.conflictStayId : null },
        });
        return 'conflict' as const;
      }
      // New, cancelled earlier and back, or a conflict to try again.
      const roomIds = await feedRooms(tx, feed);
      const made =
        roomIds.length === 0
          ? { conflictStayId: null }
          : await reserveFromChannel(tx, ctx, {
              hotelId: feed.hotelId,
              timeZone: hotel.timeZone,
              roomIds,
              checkInAt: event.checkInAt,
              expectedCheckOutAt: event.checkOutAt,
              guestName: event.guestName ?? note(event).slice(0, 64),
              mobile: event.phone,
              phoneTail: event.phoneTail,
              email: event.email,
              remark: note(event),
            });
      const data = made.stay
        ? { ...facts, state: 'booked', stayId: made.stay.id, conflictStayId: null }
        : { ...facts, state: 'conflict', stayId: null, conflictStayId: made.conflictStayId };
      if (row) await tx.calendarFeedBooking.update({ where: { id: row.id }, data });
      else await tx.calendarFeedBooking.create({ data: { hotelId: feed.hotelId, uid: event.uid, recurrenceId: event.recurrenceId, ...data } });
      if (made.stay) followStayJobs(tx, deps, made.stay, hotel.timeZone);
      return made.stay ? ('created' as const) : ('conflict' as const);
    });
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

async function cancelGone(
  ctx: Ctx,
  feed: { id: number; hotelId: number },
  gone: { id: number; uid: string; recurrenceId: string; stayId: number | null; state: string; reference: string }[],
  note: (e: { reference: string }) => string,
): Promise<number> {
  let cancelled = 0;
  for (const g of gone) {
    const done = await transaction(ctx.deps, async (tx) => {
      await lockIdentity(tx, feed.hotelId, g);
      const row = await tx.calendarFeedBooking.findUnique({
        where: { id: g.id },
        select: { feedId: true, state: true, stayId: true, stay: { select: { status: true } } },
      });
      // Adopted by another feed meanwhile, or no longer to cancel.
      if (!row || row.feedId !== feed.id || !CANCELLABLE_STATES.includes(row.state)) return false;
      const ended =
        row.stayId !== null && row.state === 'booked'
          ? await cancelChannelReservation(tx, ctx, { hotelId: feed.hotelId, stayId: row.stayId, note: note(g) })
          : false;
      // A stay that has begun stays as it is, and the feed says so until the desk ends it
      // (`gone_in_house`); otherwise the booking is no longer the channel's.
      const inHouse = !ended && (row.stay?.status === 'in_house' || row.stay?.status === 'expired');
      await tx.calendarFeedBooking.update({ where: { id: g.id }, data: { state: inHouse ? 'gone_in_house' : 'cancelled', conflictStayId: null } });
      if (ended && row.stayId !== null) followCredentials(tx, ctx.deps, feed.hotelId, { stayId: row.stayId });
      return ended;
    });
    if (done) cancelled += 1;
  }
  return cancelled;
}

/**
 * A manager confirms that a feed which came back empty really has no bookings any more: its
 * bookings still to come are cancelled (as a read would have), audited `feed.confirmEmpty`.
 */
export async function applyConfirmedEmpty(ctx: Ctx, feed: { id: number; hotelId: number; label: string }): Promise<number> {
  const now = new Date();
  const gone = await ctx.deps.prisma.calendarFeedBooking.findMany({
    where: { feedId: feed.id, state: { in: CANCELLABLE_STATES }, endsAt: { gt: now } },
    select: { id: true, uid: true, recurrenceId: true, stayId: true, state: true, reference: true },
  });
  const cancelled = await cancelGone(ctx, feed, gone, (e) => `${feed.label} · ${e.reference}`.slice(0, 500));
  await transaction(ctx.deps, async (tx) => {
    await tx.calendarFeed.updateMany({ where: { id: feed.id }, data: { emptyPending: false } });
    await recordAudit(tx, ctx, {
      action: 'feed.confirmEmpty',
      hotelId: feed.hotelId,
      entityType: 'CalendarFeed',
      entityId: feed.id,
      after: { cancelled },
    });
    await recordEvent(tx, { hotelId: feed.hotelId, kind: 'feed.changed', feedId: feed.id });
  });
  return cancelled;
}
