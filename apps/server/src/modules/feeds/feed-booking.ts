import type { Actor, ServiceContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { cancelChannelReservation, moveReservationDates, reserveFromChannel } from '../stays/reservation';
import { extendChannelStay, moveChannelReservationToFreeRoom } from '../stays/channel-stay';
import { followStayJobs } from '../stays/stay-schedule';
import { type HotelTimes } from './ical-dates';
import { type FeedEvent } from './ical-parse';

/**
 * One booking of a calendar feed applied to the hotel's stays (feed-import.ts reads the feed and
 * calls these): made a reservation, moved, extended, cancelled when gone from the answer, under the
 * lock of its identity so that two feeds of the hotel listing it apply it once.
 */

type Ctx = ServiceContext & { actor?: Actor };

/** A booking moved to another room of its group because its room was taken on its new dates. */
export interface FeedRoomChange {
  reference: string;
  fromRoom: string;
  toRoom: string;
}

/** Booking states whose stay the feed still follows (`cancelled` and `past` are done with). */
const FOLLOWED_STATES = new Set<string>(['booked', 'conflict', 'moved_in_house', 'gone_in_house']);
/** Booking states a booking gone from its feed's answer leaves (cancelled, or `gone_in_house`). */
export const CANCELLABLE_STATES = ['booked', 'conflict', 'moved_in_house'];

/** A booking's identity in its hotel, as a key (a RECURRENCE-ID has no `|`: the two parts never run into each other). */
export const keyOf = (e: { uid: string; recurrenceId: string }) => `${e.recurrenceId}|${e.uid}`;

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

/** Whether another feed of the hotel follows this booking row (the same calendar twice): that one keeps it. */
export const followedElsewhere = (feedId: number, row: { feedId: number | null; state: string } | undefined | null) =>
  row !== undefined && row !== null && row.feedId !== null && row.feedId !== feedId && FOLLOWED_STATES.has(row.state);

/** The feed a booking is applied for, as `applyBooking` reads it. */
export interface BookingFeed {
  id: number;
  hotelId: number;
  roomId: number | null;
  groupId: number | null;
}

/**
 * Applies one booking of a feed's answer in `tx`, under its identity's lock: a new booking becomes
 * a reservation, a known one follows its new dates (or its room, in a group), an in-house stay is
 * extended or shown for the desk to decide; the stay's jobs and credentials follow the commit.
 * Answers what it did; a group's room change is added to `roomChanges`.
 */
export async function applyBooking(
  tx: Tx,
  ctx: Ctx,
  feed: BookingFeed,
  hotel: HotelTimes,
  event: FeedEvent,
  note: (e: { reference: string }) => string,
  roomChanges: FeedRoomChange[],
): Promise<'elsewhere' | 'moved' | 'conflict' | 'kept' | 'roomChanged' | 'created'> {
  const { deps } = ctx;
  await lockIdentity(tx, feed.hotelId, event);
  const row = await tx.calendarFeedBooking.findFirst({
    where: { hotelId: feed.hotelId, uid: event.uid, recurrenceId: event.recurrenceId, state: { not: 'duplicate' } },
    select: bookingSelect,
  });
  // Another feed of the hotel took it meanwhile: it follows it.
  if (followedElsewhere(feed.id, row)) return 'elsewhere' as const;
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
}

export async function cancelGone(
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
