import type { Actor, ServiceContext } from '../../context';
import { lockRooms, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { quoteRenewal, quoteStay } from '../price/price.service';
import { extendStayInTx } from './renewal';
import { firstFreeRoom, retimeStayCredentials } from './reservation';
import { moveStayToRoom } from './room-change';
import { staySelect, type StayRow } from '../base/stay-dto';

/**
 * A channel moved the check-out of a booking whose guest is already in (docs/calendar-feeds.md
 * "After the guest arrived"): the stay is extended in `tx` as the desk's renewal extends it
 * (`extendStayInTx`: the price of the nights it adds, the bill and the credentials following),
 * audited `stay.renew` with the channel's note. Only a later check-out is followed by itself; an
 * earlier one, or a moved arrival, is left to the desk (the caller flags the booking).
 * `{ conflictStayId }` when another stay holds the room in the added nights; null when the stay is
 * no longer in the house or its check-out is not earlier than `expectedCheckOutAt`.
 * The caller schedules the stay's jobs and kicks deliveries after commit.
 */
export async function extendChannelStay(
  tx: Tx,
  ctx: ServiceContext,
  e: { hotelId: number; timeZone: string; stayId: number; expectedCheckOutAt: Date; note: string },
): Promise<{ extended: StayRow } | { conflictStayId: number | null } | null> {
  const stay = await tx.stay.findFirst({
    where: { id: e.stayId, hotelId: e.hotelId },
    select: {
      id: true,
      roomId: true,
      status: true,
      version: true,
      checkInAt: true,
      expectedCheckOutAt: true,
      priceAmount: true,
      hotel: { select: { currency: true } },
    },
  });
  if (!stay || (stay.status !== 'in_house' && stay.status !== 'expired')) return null;
  if (e.expectedCheckOutAt <= stay.expectedCheckOutAt) return null;
  const added = (await quoteRenewal(tx, stay.roomId, e.timeZone, stay.expectedCheckOutAt, e.expectedCheckOutAt)).total;
  const poster = { hotelId: e.hotelId, currency: stay.hotel.currency.trim(), accountId: null };
  try {
    const { renewed } = await extendStayInTx(tx, ctx, poster, stay, {
      expectedCheckOutAt: e.expectedCheckOutAt,
      added,
      timeZone: e.timeZone,
      state: stay.status,
      audit: { priceMode: 'auto', note: e.note },
    });
    return { extended: renewed };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // The room is out of order or out of service on an added night: a conflict with no stay to name.
    if (error.options.messageKey === 'stay.errors.roomOutOfOrder' || error.options.messageKey === 'stay.errors.roomOutOfService')
      return { conflictStayId: null };
    if (error.options.messageKey !== 'stay.errors.roomOccupied') throw error;
    const other = await tx.stay.findFirst({
      where: {
        hotelId: e.hotelId,
        roomId: stay.roomId,
        id: { not: stay.id },
        status: { in: ['reserved', 'in_house', 'expired'] },
        checkInAt: { lt: e.expectedCheckOutAt },
        expectedCheckOutAt: { gt: stay.checkInAt },
      },
      orderBy: { checkInAt: 'asc' },
      select: { id: true },
    });
    return { conflictStayId: other?.id ?? null };
  }
}

/**
 * A channel moved the dates of a booking of a room group, and its room is taken on the new nights
 * (docs/calendar-feeds.md "Moved bookings of a group"): the reservation moves to the first room of
 * `roomIds` (the group's, in the board's order) free on them, by the desk's room change
 * (`moveStayToRoom`: a new stay in the new room, the old one kept as moved, the guest's keys and
 * the bill following) at the new dates, quoted anew, its credentials brought to the new dates
 * (`retimeStayCredentials`), audited `stay.changeRoom` and `stay.reschedule` with the channel's
 * note. Null when no other room is free (the caller keeps the conflict) or the stay has begun.
 * The caller schedules the new stay's jobs and kicks deliveries after commit.
 */
export async function moveChannelReservationToFreeRoom(
  tx: Tx,
  ctx: ServiceContext & { actor?: Actor },
  r: { hotelId: number; timeZone: string; stayId: number; roomIds: number[]; checkInAt: Date; expectedCheckOutAt: Date; note: string },
): Promise<{ moved: StayRow; fromRoomId: number } | null> {
  const stay = await tx.stay.findFirst({ where: { id: r.stayId, hotelId: r.hotelId }, select: staySelect });
  if (!stay || stay.status !== 'reserved') return null;
  const candidates = r.roomIds.filter((id) => id !== stay.roomId);
  if (candidates.length === 0) return null;
  await lockRooms(tx, r.hotelId, [stay.roomId, ...candidates]);
  const target = await firstFreeRoom(tx, r.hotelId, candidates, r.checkInAt, r.expectedCheckOutAt, r.timeZone);
  if (target === null) return null;
  const price = (await quoteStay(tx, target, r.timeZone, r.checkInAt, r.expectedCheckOutAt)).total;
  const hotel = await tx.hotel.findUniqueOrThrow({ where: { id: r.hotelId }, select: { currency: true } });
  const { moved } = await moveStayToRoom(tx, ctx, {
    hotelId: r.hotelId,
    timeZone: r.timeZone,
    poster: { hotelId: r.hotelId, currency: hotel.currency.trim(), accountId: ctx.actor?.accountId ?? null },
    stay,
    targetRoomId: target,
    hasBegun: false,
    from: r.checkInAt,
    end: r.expectedCheckOutAt,
    datesMoved: true,
    priceAmount: price,
    priceDifference: price - stay.priceAmount,
    now: new Date(),
    note: r.note,
  });
  const { credentials } = await retimeStayCredentials(tx, { ...r, stay: moved });
  await recordAudit(tx, ctx, {
    action: 'stay.reschedule',
    hotelId: r.hotelId,
    entityType: 'Stay',
    entityId: moved.id,
    before: { checkInAt: stay.checkInAt.toISOString(), expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(), priceAmount: stay.priceAmount },
    after: { checkInAt: r.checkInAt.toISOString(), expectedCheckOutAt: r.expectedCheckOutAt.toISOString(), priceAmount: price, credentials, note: r.note },
  });
  return { moved: await tx.stay.findUniqueOrThrow({ where: { id: moved.id }, select: staySelect }), fromRoomId: stay.roomId };
}
