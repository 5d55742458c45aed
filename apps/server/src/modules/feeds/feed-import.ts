import type { Actor, ServiceContext } from '../../context';
import { transaction, type Tx } from '../../db/transaction';
import { recordAudit } from '../audit/audit.service';
import { afterCredentialChange } from '../credentials/delivery';
import { cancelChannelReservation, moveReservationDates, reserveFromChannel } from '../stay/reservation';
import { extendChannelStay } from '../stay/channel-stay';
import { scheduleStayJobs } from '../stay/stay-schedule';
import type { StayRow } from '../stay/stay-dto';
import { FeedFetchError, fetchFeedText } from './feed-fetch';
import { FeedParseError, parseFeed, type FeedEvent, type HotelTimes } from './ical-parse';

/**
 * One read of one feed (docs/calendar-feeds.md): its bookings become reservations, followed when
 * they change, never duplicated.
 * - A read that fails (HTTP error, timeout, not a calendar) changes nothing but the feed's error.
 * - Each booking is applied in a transaction of its own holding the feed's advisory lock, and its
 *   row is unique per (feed, UID) in the database: two reads at once never make two reservations.
 * - A booking gone from an answer that still has bookings is cancelled; an answer with no booking
 *   while the feed has bookings to come cancels nothing: the feed waits for a manager's
 *   confirmation (`emptyPending`, `confirmEmptyFeed`).
 * - Bookings that have ended are not touched; a booking whose dates overlap another stay of the
 *   room (or find no free room of the group) is a conflict shown on the feed, not dropped.
 */

export interface FeedReadResult {
  ok: boolean;
  error?: string;
  events: number;
  created: number;
  moved: number;
  cancelled: number;
  conflicts: number;
  emptyPending: boolean;
}

type Ctx = ServiceContext & { actor?: Actor };

/** Booking states whose stay the feed still follows (`cancelled` and `past` are done with). */
const FOLLOWED_STATES = new Set<string>(['booked', 'conflict', 'moved_in_house', 'gone_in_house']);

const lockFeed = (tx: Tx, feedId: number) => tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('CalendarFeed'), ${feedId})`;

async function feedRooms(tx: Tx, feed: { hotelId: number; roomId: number | null; groupId: number | null }): Promise<number[]> {
  const rooms = await tx.room.findMany({
    where: { hotelId: feed.hotelId, deletedAt: null, maintenance: 'none', ...(feed.roomId !== null ? { id: feed.roomId } : { groupId: feed.groupId! }) },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return rooms.map((r) => r.id);
}

/** Reads feed `feedId` of hotel `hotelId` now and applies what it says. */
export async function readFeed(ctx: Ctx, hotelId: number, feedId: number, options: { timeoutMs?: number; now?: Date } = {}): Promise<FeedReadResult> {
  const { deps } = ctx;
  const now = options.now ?? new Date();
  const feed = await deps.prisma.calendarFeed.findFirst({
    where: { id: feedId, hotelId },
    select: {
      id: true,
      hotelId: true,
      roomId: true,
      groupId: true,
      label: true,
      url: true,
      everyMinutes: true,
      hotel: { select: { timeZone: true, checkInTime: true, checkOutTime: true } },
    },
  });
  const result: FeedReadResult = { ok: false, events: 0, created: 0, moved: 0, cancelled: 0, conflicts: 0, emptyPending: false };
  if (!feed) return { ...result, error: 'not_found' };
  const nextReadAt = new Date(now.getTime() + feed.everyMinutes * 60_000);
  const hotel: HotelTimes = feed.hotel;

  let events: FeedEvent[];
  try {
    events = parseFeed(await fetchFeedText(feed.url, { timeoutMs: options.timeoutMs, privateAddresses: deps.config.feeds.privateAddresses }), hotel);
  } catch (error) {
    const code = error instanceof FeedFetchError ? error.code : error instanceof FeedParseError ? 'unparsable' : 'unknown';
    if (code === 'unknown') deps.log.warn({ err: error, feedId }, 'calendar feed read failed');
    await deps.prisma.calendarFeed.updateMany({ where: { id: feed.id }, data: { lastError: code, lastErrorAt: now, nextReadAt } });
    return { ...result, error: code };
  }

  const bookings = events.filter((e) => e.isBooking);
  const inAnswer = new Set(bookings.map((e) => e.uid));
  const touched: StayRow[] = [];
  const credentialStays: number[] = [];
  const note = (e: { reference: string }) => `${feed.label} · ${e.reference}`.slice(0, 500);

  // What the feed already holds: a booking that is booked and unchanged (its facts, its stay's
  // dates) is passed over without a transaction; only what changed is applied under the feed's lock
  // (bench/feeds.ts: most reads of a feed change nothing).
  const known = new Map(
    (
      await deps.prisma.calendarFeedBooking.findMany({
        where: { feedId: feed.id, uid: { in: bookings.map((e) => e.uid) } },
        select: {
          uid: true,
          state: true,
          reference: true,
          guestName: true,
          phone: true,
          startsAt: true,
          endsAt: true,
          stay: { select: { checkInAt: true, expectedCheckOutAt: true } },
        },
      })
    ).map((r) => [r.uid, r]),
  );
  const unchanged = (event: FeedEvent) => {
    const row = known.get(event.uid);
    return (
      row !== undefined &&
      row.state === 'booked' &&
      row.stay !== null &&
      row.reference === event.reference &&
      row.guestName === (event.guestName ?? '') &&
      row.phone === event.phone &&
      row.startsAt.getTime() === event.checkInAt.getTime() &&
      row.endsAt.getTime() === event.checkOutAt.getTime() &&
      row.stay.checkInAt.getTime() === event.checkInAt.getTime() &&
      row.stay.expectedCheckOutAt.getTime() === event.checkOutAt.getTime()
    );
  };

  for (const event of bookings) {
    if (event.checkOutAt <= now) continue; // past: not touched
    if (unchanged(event)) continue;
    const outcome = await transaction(deps, async (tx) => {
      await lockFeed(tx, feed.id);
      const row = await tx.calendarFeedBooking.findUnique({
        where: { feedId_uid: { feedId: feed.id, uid: event.uid } },
        select: { id: true, stayId: true, state: true, startsAt: true, endsAt: true, stay: { select: { status: true } } },
      });
      const facts = { reference: event.reference, guestName: event.guestName ?? '', phone: event.phone, startsAt: event.checkInAt, endsAt: event.checkOutAt };
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
            touched.push(extended.extended);
            credentialStays.push(extended.extended.id);
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
          const same = row.startsAt.getTime() === event.checkInAt.getTime() && row.endsAt.getTime() === event.checkOutAt.getTime();
          if (!same || row.state !== 'booked')
            await tx.calendarFeedBooking.update({ where: { id: row.id }, data: { ...facts, state: 'booked', conflictStayId: null } });
          return 'kept' as const;
        }
        const moved = await moveReservationDates(tx, ctx, {
          hotelId: feed.hotelId,
          timeZone: hotel.timeZone,
          stayId: row.stayId,
          checkInAt: event.checkInAt,
          expectedCheckOutAt: event.checkOutAt,
          note: note(event),
        });
        if (moved && 'moved' in moved) {
          await tx.calendarFeedBooking.update({ where: { id: row.id }, data: { ...facts, state: 'booked', conflictStayId: null } });
          touched.push(moved.moved);
          credentialStays.push(moved.moved.id);
          return 'moved' as const;
        }
        // The new dates overlap another stay: the reservation keeps its dates; the feed shows the conflict.
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
              mobile: event.phone && event.phone.replace(/\D/g, '').length >= 7 ? event.phone : null,
              email: event.email,
              remark: note(event),
            });
      const data = made.stay
        ? { ...facts, state: 'booked', stayId: made.stay.id, conflictStayId: null }
        : { ...facts, state: 'conflict', stayId: null, conflictStayId: made.conflictStayId };
      if (row) await tx.calendarFeedBooking.update({ where: { id: row.id }, data });
      else await tx.calendarFeedBooking.create({ data: { hotelId: feed.hotelId, feedId: feed.id, uid: event.uid, ...data } });
      if (made.stay) touched.push(made.stay);
      return made.stay ? ('created' as const) : ('conflict' as const);
    });
    if (outcome === 'created') result.created += 1;
    if (outcome === 'moved') result.moved += 1;
  }

  // Bookings gone from the answer (still to come): cancelled, unless the answer holds no booking at all.
  const gone = await deps.prisma.calendarFeedBooking.findMany({
    where: { feedId: feed.id, state: { in: ['booked', 'conflict', 'moved_in_house'] }, endsAt: { gt: now }, uid: { notIn: [...inAnswer] } },
    select: { id: true, uid: true, stayId: true, state: true, reference: true, stay: { select: { status: true } } },
  });
  // An answer without bookings cancels only what it says is cancelled (STATUS:CANCELLED): the rest waits for a confirmation.
  const saidCancelled = new Set(events.filter((e) => e.isCancelled).map((e) => e.uid));
  const goneBooked = gone.filter((g) => g.state === 'booked' && g.stay?.status === 'reserved' && !saidCancelled.has(g.uid));
  const emptyPending = bookings.length === 0 && goneBooked.length > 0;
  result.cancelled = await cancelGone(ctx, feed, emptyPending ? gone.filter((g) => saidCancelled.has(g.uid)) : gone, note, credentialStays);
  result.conflicts = await deps.prisma.calendarFeedBooking.count({ where: { feedId: feed.id, state: 'conflict', endsAt: { gt: now } } });
  await deps.prisma.calendarFeed.updateMany({
    where: { id: feed.id },
    data: { lastReadAt: now, lastError: null, lastErrorAt: null, lastEventCount: events.length, emptyPending, nextReadAt },
  });
  for (const stay of touched) await scheduleStayJobs(deps, stay, hotel.timeZone);
  for (const stayId of credentialStays) await afterCredentialChange(deps, feed.hotelId, { stayId });
  return { ...result, ok: true, events: events.length, emptyPending };
}

async function cancelGone(
  ctx: Ctx,
  feed: { id: number; hotelId: number },
  gone: { id: number; uid: string; stayId: number | null; state: string; reference: string }[],
  note: (e: { reference: string }) => string,
  credentialStays: number[],
): Promise<number> {
  let cancelled = 0;
  for (const g of gone) {
    const done = await transaction(ctx.deps, async (tx) => {
      await lockFeed(tx, feed.id);
      const row = await tx.calendarFeedBooking.findUnique({
        where: { id: g.id },
        select: { state: true, stayId: true, stay: { select: { status: true } } },
      });
      if (!row || (row.state !== 'booked' && row.state !== 'conflict' && row.state !== 'moved_in_house')) return false;
      const ended =
        row.stayId !== null && row.state === 'booked'
          ? await cancelChannelReservation(tx, ctx, { hotelId: feed.hotelId, stayId: row.stayId, note: note(g) })
          : false;
      // A stay that has begun stays as it is, and the feed says so until the desk ends it
      // (`gone_in_house`); otherwise the booking is no longer the channel's.
      const inHouse = !ended && (row.stay?.status === 'in_house' || row.stay?.status === 'expired');
      await tx.calendarFeedBooking.update({ where: { id: g.id }, data: { state: inHouse ? 'gone_in_house' : 'cancelled', conflictStayId: null } });
      return ended;
    });
    if (done) {
      cancelled += 1;
      if (g.stayId !== null) credentialStays.push(g.stayId);
    }
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
    where: { feedId: feed.id, state: { in: ['booked', 'conflict', 'moved_in_house'] }, endsAt: { gt: now } },
    select: { id: true, uid: true, stayId: true, state: true, reference: true },
  });
  const credentialStays: number[] = [];
  const cancelled = await cancelGone(ctx, feed, gone, (e) => `${feed.label} · ${e.reference}`.slice(0, 500), credentialStays);
  await ctx.deps.prisma.calendarFeed.updateMany({ where: { id: feed.id }, data: { emptyPending: false } });
  await recordAudit(ctx.deps.prisma, ctx, {
    action: 'feed.confirmEmpty',
    hotelId: feed.hotelId,
    entityType: 'CalendarFeed',
    entityId: feed.id,
    after: { cancelled },
  });
  for (const stayId of credentialStays) await afterCredentialChange(ctx.deps, feed.hotelId, { stayId });
  return cancelled;
}
