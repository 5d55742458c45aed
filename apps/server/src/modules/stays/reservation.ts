import { refuseOverlap } from './check-in';
import { roomsOutOfOrder } from '../housekeeping/out-of-order';
import { ACTIVE_STAY_STATES, ZReservationInput, hotelDayStart, minPriceMinor, noShowDeadline, passwordValidity, type TReservationInput } from '@console/shared';
import type { AuthedContext, ServiceContext } from '../../context';
import type { Prisma } from '../../generated/prisma/client';
import type { TPrisma } from '../../db/client';
import { isConstraint } from '../../db/errors';
import { idempotent } from '../../db/idempotency';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { ruleForRoom, ruleWindow } from '../base/rule-lookup';
import { postStayMoney } from '../orders/room-charge';
import { visitStayColumns } from '../orders/folio';
import { quoteStay } from '../price/price.service';
import { findRoom, roomScope } from '../base/room-access';
import { newPasswordValidity, PASSWORD_FOR_VALIDITY_SELECT, revokeStayCredentials } from '../credentials/revocation';
import { LIVE_DELIVERY_STATES } from '../credentials/delivery-states';
import { guestData, roomOccupied, staySelect, toStayDto, type StayDto, type StayRow } from '../base/stay-dto';
import { followStayJobs, type SchedulableStay } from './stay-schedule';
import { recordEvent } from '../../db/events';

type Db = TPrisma | Tx;

const byKey = (db: Db, hotelId: number, idempotencyKey: string) =>
  db.stay.findUnique({ where: { hotelId_idempotencyKey: { hotelId, idempotencyKey } }, select: staySelect });

/** When a reservation of the actor's hotel from `checkInAt` to `expectedCheckOutAt` becomes a no-show (the hotel's no-show time). */
export async function reservationNoShowAt(db: Db, hotelId: number, timeZone: string, checkInAt: Date, expectedCheckOutAt: Date): Promise<Date> {
  const hotel = await db.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { noShowTime: true } });
  return noShowDeadline(checkInAt, expectedCheckOutAt, hotel.noShowTime, timeZone);
}

/** The first of `roomIds` (in that order) with no active stay overlapping [from, to): the exclusion constraint's rule. */
export async function firstFreeRoom(db: Db, hotelId: number, roomIds: number[], from: Date, to: Date, timeZone: string): Promise<number | null> {
  const busy = await db.stay.findMany({
    where: { hotelId, roomId: { in: roomIds }, status: { in: [...ACTIVE_STAY_STATES] }, checkInAt: { lt: to }, expectedCheckOutAt: { gt: from } },
    select: { roomId: true },
  });
  // A room out of order or out of service on one of the nights is not free either (docs/housekeeping.md).
  const taken = new Set([...busy.map((s) => s.roomId), ...(await roomsOutOfOrder(db, hotelId, roomIds, from, to, timeZone))]);
  return roomIds.find((id) => !taken.has(id)) ?? null;
}

/**
 * Takes a reservation at the desk (docs/room-status.md "Reservations"): a room, or any room of a
 * group that is free for those dates (the first free one in the board's order, among the group's
 * rooms the actor manages and not under maintenance), held from the arrival for a guest who checks
 * in at the desk (`arriveReservation`); not arrived by the hotel's no-show time, it becomes a
 * no-show and the room is released (`noShowOnTime`). The deposit received is posted on the stay's
 * bill with its way of paying, as at check-in; the room charge only when the stay begins.
 *
 * Whether a room is free is decided by time overlap alone, under the lock of the candidate rooms
 * (in id order), and by the database's exclusion constraint: two reservations at once for the last
 * free room of a group, one wins, the other is refused ("no room of the group is free"). The same
 * `idempotencyKey` always gives the same reservation.
 */
export async function createReservation(ctx: AuthedContext, raw: TReservationInput): Promise<StayDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZReservationInput.parse(raw);
  const now = new Date();
  // The reservation this key made: an earlier copy of this request's, or one that won a race with it.
  const made = async () => {
    const stay = await byKey(deps.prisma, actor.hotelId, input.idempotencyKey);
    return stay && { stay, isNew: false };
  };
  let group: { id: number; name: string } | null = null;
  const full = () => (group ? new AppError('CONFLICT', { messageKey: 'reservations.errors.groupFull', params: { group: group.name } }) : roomOccupied());
  let result: { stay: StayRow; isNew: boolean };
  try {
    result = await idempotent(made, () => write());
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw group ? full() : roomOccupied(error);
    throw error;
  }
  return toStayDto(result.stay, now);

  async function write(): Promise<{ stay: StayRow; isNew: boolean }> {
    if (input.expectedCheckOutAt <= now)
      throw new AppError('VALIDATION', { messageKey: 'validation.checkOutInPast', fields: { expectedCheckOutAt: 'validation.checkOutInPast' } });
    if (input.checkInAt < hotelDayStart(now, actor.timeZone)) {
      throw new AppError('VALIDATION', { messageKey: 'reservations.validation.arrivalInPast', fields: { checkInAt: 'reservations.validation.arrivalInPast' } });
    }
    const noShowAt = await reservationNoShowAt(deps.prisma, actor.hotelId, actor.timeZone, input.checkInAt, input.expectedCheckOutAt);
    if (noShowAt <= now)
      throw new AppError('VALIDATION', { messageKey: 'reservations.validation.noShowPassed', fields: { checkInAt: 'reservations.validation.noShowPassed' } });
    if (input.priceMode === 'fixed' && input.fixedPrice! < minPriceMinor(actor.currency))
      throw new AppError('VALIDATION', { messageKey: 'validation.priceMin', fields: { fixedPrice: 'validation.priceMin' } });

    // The candidate rooms, in the actor's scope: the room asked for, or the group's rooms in the board's order.
    let candidates: { id: number; name: string }[];
    if (input.roomId !== undefined) {
      const room = await findRoom(ctx, input.roomId, { id: true, name: true, maintenance: true });
      if (room.maintenance !== 'none') throw new AppError('CONFLICT', { messageKey: 'stay.errors.roomMaintain', params: { room: room.name } });
      candidates = [room];
    } else {
      group = await deps.prisma.roomGroup.findFirst({ where: { id: input.groupId!, hotelId: actor.hotelId }, select: { id: true, name: true } });
      if (!group) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
      candidates = await deps.prisma.room.findMany({
        where: { ...roomScope(actor), groupId: group.id, maintenance: 'none' },
        orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }, { id: 'asc' }],
        select: { id: true, name: true },
      });
    }
    const ids = candidates.map((r) => r.id);
    // Most refusals are told at once, without a transaction.
    if (ids.length === 0 || (await firstFreeRoom(deps.prisma, actor.hotelId, ids, input.checkInAt, input.expectedCheckOutAt, actor.timeZone)) === null) {
      const twin = await made();
      if (twin) return twin;
      // One room asked for: the refusal names the stay in its way.
      if (!group) await refuseOverlap(deps.prisma, actor, ids[0]!, input.checkInAt, input.expectedCheckOutAt);
      throw full();
    }

    return transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, ids);
      const twin = await byKey(tx, actor.hotelId, input.idempotencyKey);
      if (twin) return { stay: twin, isNew: false };
      const roomId = await firstFreeRoom(tx, actor.hotelId, ids, input.checkInAt, input.expectedCheckOutAt, actor.timeZone);
      if (roomId === null) {
        if (!group) await refuseOverlap(tx, actor, ids[0]!, input.checkInAt, input.expectedCheckOutAt);
        throw full();
      }
      const room = candidates.find((r) => r.id === roomId)!;
      const price =
        input.priceMode === 'fixed' ? input.fixedPrice! : (await quoteStay(tx, roomId, actor.timeZone, input.checkInAt, input.expectedCheckOutAt)).total;
      const stay = await tx.stay.create({
        data: {
          hotelId: actor.hotelId,
          roomId,
          status: 'reserved',
          awaitsArrival: true,
          noShowAt,
          checkInAt: input.checkInAt,
          expectedCheckOutAt: input.expectedCheckOutAt,
          lengthUnit: input.lengthUnit,
          breakfast: input.breakfast,
          depositAmount: input.depositAmount,
          priceAmount: price,
          remark: input.remark,
          idempotencyKey: input.idempotencyKey,
          createdByAccountId: actor.accountId,
        },
        select: visitStayColumns,
      });
      await tx.stayGuest.createMany({ data: input.guests.map((g, i) => guestData(actor.hotelId, stay.id, g, i === 0)) });
      // The deposit received, on the stay's bill with its way of paying (no room charge before the stay begins).
      await postStayMoney(
        tx,
        ctx,
        { ...stay, room: { name: room.name } },
        input.depositMethod ? { amount: input.depositAmount, method: input.depositMethod } : null,
      );
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'stay.reserved', roomIds: [roomId], stayId: stay.id });
      await recordAudit(tx, ctx, {
        action: 'stay.reserve',
        entityType: 'Stay',
        entityId: stay.id,
        after: {
          roomId,
          room: room.name,
          ...(group ? { groupId: group.id } : {}),
          checkInAt: input.checkInAt.toISOString(),
          expectedCheckOutAt: input.expectedCheckOutAt.toISOString(),
          noShowAt: noShowAt.toISOString(),
          price,
          deposit: input.depositAmount,
          guests: input.guests.length,
        },
      });
      const reserved = await tx.stay.findUniqueOrThrow({ where: { id: stay.id }, select: staySelect });
      followStayJobs(tx, deps, reserved, actor.timeZone);
      return { stay: reserved, isNew: true };
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Reservations from channel calendars (issue 20 §1, modules/feeds): made, moved and cancelled by
// the feed's reader (a job, or a manager's "read now") inside its own transaction, with the rules
// above: the room is locked, overlap decides (and the exclusion constraint), the price is quoted.

/** A booking of a channel: no desk to arrive at, so it begins by itself at its check-in time (a check-in dated ahead). */
export interface ChannelReservation {
  hotelId: number;
  timeZone: string;
  /** The room, or the group's rooms in the board's order: the first one free is taken. */
  roomIds: number[];
  checkInAt: Date;
  expectedCheckOutAt: Date;
  guestName: string;
  mobile: string | null;
  /** Only the last digits of the guest's phone (Airbnb's "Last 4 Digits"): the access rules' phone codes use them. */
  phoneTail?: string | null;
  /** The guest's e-mail when the channel's event carries one (guest messages go to it). */
  email?: string | null;
  remark: string;
}

/**
 * Makes a channel's booking a reservation in `tx` (the rooms locked first), or answers the stay it
 * overlaps when no room is free (a conflict: nothing made). The caller asks for the stay's jobs
 * (`followStayJobs`) in `tx`.
 */
export async function reserveFromChannel(
  tx: Tx,
  ctx: ServiceContext,
  r: ChannelReservation,
): Promise<{ stay: SchedulableStay; conflictStayId?: undefined } | { stay?: undefined; conflictStayId: number | null }> {
  await lockRooms(tx, r.hotelId, r.roomIds);
  const roomId = await firstFreeRoom(tx, r.hotelId, r.roomIds, r.checkInAt, r.expectedCheckOutAt, r.timeZone);
  if (roomId === null) {
    const other = await tx.stay.findFirst({
      where: {
        hotelId: r.hotelId,
        roomId: { in: r.roomIds },
        status: { in: [...ACTIVE_STAY_STATES] },
        checkInAt: { lt: r.expectedCheckOutAt },
        expectedCheckOutAt: { gt: r.checkInAt },
      },
      orderBy: { checkInAt: 'asc' },
      select: { id: true },
    });
    return { conflictStayId: other?.id ?? null };
  }
  const price = (await quoteStay(tx, roomId, r.timeZone, r.checkInAt, r.expectedCheckOutAt)).total;
  const stay = await tx.stay.create({
    data: {
      hotelId: r.hotelId,
      roomId,
      status: 'reserved',
      checkInAt: r.checkInAt,
      expectedCheckOutAt: r.expectedCheckOutAt,
      priceAmount: price,
      remark: r.remark,
    },
    // What its jobs are scheduled from (the feed's only use of it): no read of the stay as the console shows it.
    select: CHANNEL_STAY_SELECT,
  });
  await tx.stayGuest.create({
    data: {
      ...(guestData(
        r.hotelId,
        stay.id,
        { name: r.guestName, gender: 'unknown', nationality: '', birthDate: null, idNumber: null, mobile: r.mobile, email: r.email ?? null },
        true,
      ) as Prisma.StayGuestUncheckedCreateInput),
      phoneTail: r.mobile ? null : (r.phoneTail ?? null),
    },
  });
  await recordAudit(tx, ctx, {
    action: 'stay.reserve',
    hotelId: r.hotelId,
    entityType: 'Stay',
    entityId: stay.id,
    after: { roomId, checkInAt: r.checkInAt.toISOString(), expectedCheckOutAt: r.expectedCheckOutAt.toISOString(), price, remark: r.remark },
  });
  return { stay: { ...stay, fromChannel: true } };
}

const CHANNEL_STAY_SELECT = {
  id: true,
  hotelId: true,
  roomId: true,
  accessIssuedAt: true,
  version: true,
  status: true,
  checkInAt: true,
  expectedCheckOutAt: true,
  awaitsArrival: true,
  noShowAt: true,
} as const satisfies Prisma.StaySelect;

/**
 * Moves a reservation that has not begun to new dates in `tx` (a channel changed its booking):
 * the room locked, refused (`{ conflictStayId }`, null when the room is out of order on a new night) when another stay overlaps; the price quoted again, the version
 * bumped (its old jobs become no-ops), and its credentials follow: each one that ran over the
 * stay's period runs over the new one (a generated code on its lock is replaced,
 * `newPasswordValidity`). The caller schedules the stay's jobs and kicks deliveries after commit.
 */
export async function moveReservationDates(
  tx: Tx,
  ctx: ServiceContext,
  m: {
    hotelId: number;
    timeZone: string;
    stayId: number;
    checkInAt: Date;
    expectedCheckOutAt: Date;
    note: string;
    /** Other rooms locked with its own, in one go (a group's rooms the booking may move to next). */
    lockAlso?: number[];
  },
): Promise<{ moved: StayRow } | { conflictStayId: number | null } | null> {
  const stay = await tx.stay.findFirst({ where: { id: m.stayId, hotelId: m.hotelId }, select: staySelect });
  if (!stay || stay.status !== 'reserved') return null;
  await lockRooms(tx, m.hotelId, [stay.roomId, ...(m.lockAlso ?? [])]);
  const other = await tx.stay.findFirst({
    where: {
      hotelId: m.hotelId,
      roomId: stay.roomId,
      id: { not: stay.id },
      status: { in: [...ACTIVE_STAY_STATES] },
      checkInAt: { lt: m.expectedCheckOutAt },
      expectedCheckOutAt: { gt: m.checkInAt },
    },
    select: { id: true },
  });
  if (other) return { conflictStayId: other.id };
  // A room out of order or out of service on one of the new nights is not sold either (docs/housekeeping.md).
  if ((await roomsOutOfOrder(tx, m.hotelId, [stay.roomId], m.checkInAt, m.expectedCheckOutAt, m.timeZone)).size > 0) return { conflictStayId: null };
  const price = (await quoteStay(tx, stay.roomId, m.timeZone, m.checkInAt, m.expectedCheckOutAt)).total;
  const { count } = await tx.stay.updateMany({
    where: { id: stay.id, version: stay.version, status: 'reserved' },
    data: { checkInAt: m.checkInAt, expectedCheckOutAt: m.expectedCheckOutAt, priceAmount: price, version: { increment: 1 } },
  });
  if (count === 0) return null;
  const { credentials } = await retimeStayCredentials(tx, { ...m, stay });
  await recordAudit(tx, ctx, {
    action: 'stay.reschedule',
    hotelId: m.hotelId,
    entityType: 'Stay',
    entityId: stay.id,
    before: { checkInAt: stay.checkInAt.toISOString(), expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(), priceAmount: stay.priceAmount },
    after: { checkInAt: m.checkInAt.toISOString(), expectedCheckOutAt: m.expectedCheckOutAt.toISOString(), priceAmount: price, credentials, note: m.note },
  });
  return { moved: await tx.stay.findUniqueOrThrow({ where: { id: stay.id }, select: staySelect }) };
}

/**
 * Cancels a reservation that has not begun in `tx` (gone from its channel's calendar), as the
 * desk's cancellation does: ended with its reason and note, its credentials withdrawn, audited
 * `stay.cancel`. The caller kicks deliveries after commit. False when it was no longer reserved.
 */
export async function cancelChannelReservation(tx: Tx, ctx: ServiceContext, c: { hotelId: number; stayId: number; note: string }): Promise<boolean> {
  const stay = await tx.stay.findFirst({ where: { id: c.stayId, hotelId: c.hotelId }, select: { id: true, roomId: true, status: true } });
  if (!stay || stay.status !== 'reserved') return false;
  await lockRooms(tx, c.hotelId, [stay.roomId]);
  const { count } = await tx.stay.updateMany({
    where: { id: stay.id, status: 'reserved' },
    data: { status: 'ended', checkedOutAt: new Date(), version: { increment: 1 }, cancelReason: 'guest_request', cancelNote: c.note },
  });
  if (count === 0) return false;
  const revoked = await revokeStayCredentials(tx, c.hotelId, { stayId: stay.id }, 'cancelled');
  await recordAudit(tx, ctx, {
    action: 'stay.cancel',
    hotelId: c.hotelId,
    entityType: 'Stay',
    entityId: stay.id,
    before: { status: 'reserved' },
    after: { revokedCredentials: revoked, reason: 'guest_request', note: c.note },
  });
  return true;
}

/**
 * A reservation's credentials brought to its new dates (in `tx`, its room locked): each one that ran
 * over the stay's period runs over the new one, with its access rule's margins when the rule issued
 * them (docs/access-rules.md); a generated code on its lock is replaced (`newPasswordValidity`).
 * How many changed.
 */
export async function retimeStayCredentials(
  tx: Tx,
  m: { hotelId: number; timeZone: string; checkInAt: Date; expectedCheckOutAt: Date; stay: { id: number; roomId: number; accessIssuedAt: Date | null } },
): Promise<{ credentials: number; window: { from: Date; until: Date } }> {
  const { stay } = m;
  // Credentials an access rule issued run over its margins before the check-in and after the check-out (docs/access-rules.md).
  const margins = stay.accessIssuedAt ? ruleWindow(await ruleForRoom(tx, m.hotelId, stay.roomId), m.checkInAt, m.expectedCheckOutAt) : null;
  const window = { from: margins?.from ?? m.checkInAt, until: margins?.until ?? m.expectedCheckOutAt };
  let credentials = 0;
  const passwords = await tx.lockPassword.findMany({
    where: { hotelId: m.hotelId, stayId: stay.id, revokeReason: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] }, kind: { not: 'one_time' } },
    select: PASSWORD_FOR_VALIDITY_SELECT,
    orderBy: { id: 'asc' },
  });
  for (const p of passwords) {
    const r = await newPasswordValidity(tx, p, passwordValidity(p.kind, window.from, p.validUntil ? window.until : null, m.timeZone));
    if (r.outcome !== 'none') credentials += 1;
  }
  const live = { hotelId: m.hotelId, stayId: stay.id, revokeReason: null, deliveryState: { in: [...LIVE_DELIVERY_STATES] } };
  const moveData = {
    validFrom: window.from,
    validUntil: window.until,
    deliveryState: 'pending' as const,
    version: { increment: 1 },
    attempts: 0,
    lastError: null,
  };
  credentials += (await tx.faceAuthorization.updateMany({ where: live, data: moveData })).count;
  credentials += (await tx.cardGrant.updateMany({ where: { ...live, medium: 'number' }, data: moveData })).count;
  // The number card's issue says the same period (its page and the desk read it there).
  await tx.cardIssue.updateMany({
    where: { hotelId: m.hotelId, stayId: stay.id, medium: 'number', state: 'issued' },
    data: { validFrom: window.from, validUntil: window.until },
  });
  return { credentials, window };
}
