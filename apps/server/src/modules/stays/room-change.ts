import { LIMITS, ZChangeRoomInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext, ServiceContext } from '../../context';
import { isConstraint } from '../../db/errors';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { quoteStay } from '../price/price.service';
import { findRoom } from '../base/room-access';
import { hasOverlappingStay } from './check-in';
import { refuseOutOfOrder } from '../housekeeping/out-of-order';
import { departureClean } from '../housekeeping/task-generation';
import { followCredentials } from '../credentials/delivery';
import { moveStayCredentials, type CredentialMoveDto } from './credential-move';
import { findStay, requireActive, staySelect, toStayDto, type StayDto, type StayRow } from '../base/stay-dto';
import { followStayJobs } from './stay-schedule';
import { followRoomCharge } from '../orders/room-charge';
import type { Poster } from '../orders/folio';
import { recordEvent } from '../../db/events';

export interface RoomChangeDto extends StayDto {
  priceDifference: number;
  /** What happened to each credential of the old stay (credential-move.ts): the keys follow the guest. */
  credentialMoves: CredentialMoveDto[];
}

/**
 * Moves a stay to another room (`exchangeHouses`). The old stay is kept as history (moved), a new
 * stay carries the guests on from now (or from its start, for a reservation), and its price changes
 * by the difference between the two rooms over the remaining nights (to a dearer room, only when
 * the clerk charges it; a complimentary upgrade keeps the booked price). The guest's keys follow, in
 * the same transaction: taken off the old room's lock and issued on the new one's
 * (moveStayCredentials). Both rooms are locked (in id order) before anything is decided. Every
 * failure says "room change failed" and why.
 */
export async function changeRoom(ctx: AuthedContext, raw: z.input<typeof ZChangeRoomInput>): Promise<RoomChangeDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZChangeRoomInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  const state = requireActive(stay, now);
  if (input.targetRoomId === stay.roomId) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedSameRoom' });
  const target = await findRoom(ctx, input.targetRoomId, { id: true, name: true, maintenance: true });
  if (target.maintenance !== 'none') throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedMaintain', params: { room: target.name } });
  const hasBegun = state !== 'reserved';
  const from = hasBegun ? now : stay.checkInAt;
  const end = stay.expectedCheckOutAt;
  if (end.getTime() - from.getTime() < LIMITS.minStayHours * 3_600_000) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedTooLate' });
  const occupied = () => new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedOccupied', params: { room: target.name } });
  if (await hasOverlappingStay(deps.prisma, actor.hotelId, target.id, from, end)) throw occupied();
  await refuseOutOfOrder(deps.prisma, actor, target.id, from, end);
  const [oldPrice, newPrice] = await Promise.all([
    quoteStay(deps.prisma, stay.roomId, actor.timeZone, from, end),
    quoteStay(deps.prisma, target.id, actor.timeZone, from, end),
  ]);
  const dearer = newPrice.total - oldPrice.total;
  // A dearer room: the clerk says whether the difference is charged or the upgrade is on the house.
  if (dearer > 0 && input.upgrade === undefined)
    throw new AppError('VALIDATION', { messageKey: 'validation.upgradeChoiceRequired', fields: { upgrade: 'validation.upgradeChoiceRequired' } });
  const complimentary = dearer > 0 && input.upgrade === 'complimentary';
  const difference = complimentary ? 0 : dearer;
  let moved: StayRow;
  let credentialMoves: CredentialMoveDto[] = [];
  try {
    moved = await transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, [stay.roomId, target.id]);
      if (await hasOverlappingStay(tx, actor.hotelId, target.id, from, end)) throw occupied();
      await refuseOutOfOrder(tx, actor, target.id, from, end);
      const done = await moveStayToRoom(tx, ctx, {
        hotelId: actor.hotelId,
        timeZone: actor.timeZone,
        poster: actor,
        stay,
        targetRoomId: target.id,
        hasBegun,
        from,
        end,
        priceAmount: Math.max(0, stay.priceAmount + difference),
        priceDifference: difference,
        ...(complimentary ? { complimentary: dearer } : {}),
        now,
      });
      credentialMoves = done.credentialMoves;
      followStayJobs(tx, deps, done.moved, actor.timeZone);
      return done.moved;
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap'))
      throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedOccupied', params: { room: target.name }, cause: error });
    throw error;
  }
  return { ...toStayDto(moved, now), priceDifference: difference, credentialMoves };
}

/** A stay moved to another room in the caller's transaction (both rooms locked, the target checked free from `from` to `end`). */
export interface StayRoomMove {
  hotelId: number;
  timeZone: string;
  /** Who the bill's entries are posted by (the desk's member, or the automation: `accountId` null). */
  poster: Poster;
  stay: StayRow;
  targetRoomId: number;
  hasBegun: boolean;
  /** The new stay's period: from now (a stay that has begun) or its check-in, to its check-out. */
  from: Date;
  end: Date;
  /** The stay moves to new dates too (a channel's booking): its credentials end with them, not at their old end. */
  datesMoved?: boolean;
  priceAmount: number;
  priceDifference: number;
  /** A complimentary upgrade: the difference not charged (audited). */
  complimentary?: number;
  now: Date;
  /** Said in the audit entry (a channel's booking moved by its feed: the feed's label and reference). */
  note?: string;
}

/**
 * The room change itself, in `tx`, for every path that moves a stay (the desk's `changeRoom`, a
 * channel's booking moved to another room of its group by its feed): the old stay kept as history
 * (moved), a new stay carrying its guests, its price and its access rule's issue on, the guest's
 * keys following (moveStayCredentials), the bill following, the event and the audit written.
 */
export async function moveStayToRoom(tx: Tx, ctx: ServiceContext, m: StayRoomMove): Promise<{ moved: StayRow; credentialMoves: CredentialMoveDto[] }> {
  const { stay, hasBegun, from, end, now, hotelId } = m;
  const accountId = m.poster.accountId;
  const updated = await tx.stay.updateMany({
    where: { id: stay.id, version: stay.version, status: { in: ['reserved', 'in_house', 'expired'] } },
    data: { status: 'moved', checkedOutAt: hasBegun ? now : null, version: { increment: 1 } },
  });
  if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
  const next = await tx.stay.create({
    data: {
      hotelId,
      roomId: m.targetRoomId,
      status: hasBegun ? 'in_house' : 'reserved',
      // A reservation moved keeps waiting for its guest, with its no-show time.
      awaitsArrival: !hasBegun && stay.awaitsArrival,
      noShowAt: hasBegun ? null : stay.noShowAt,
      checkInAt: from,
      expectedCheckOutAt: end,
      lengthUnit: stay.lengthUnit,
      breakfast: stay.breakfast,
      disableOldCards: stay.disableOldCards,
      idCardUnlock: stay.idCardUnlock,
      depositAmount: stay.depositAmount,
      priceAmount: m.priceAmount,
      remark: stay.remark,
      // The rule's credentials were issued (they follow below): not issued a second time.
      accessIssuedAt: stay.accessIssuedAt,
      accessOutcome: stay.accessOutcome,
      accessCard: stay.accessCard,
      movedFromStayId: stay.id,
      createdByAccountId: accountId,
    },
    select: { id: true },
  });
  // One by one, in the old stay's order: each new guest is known by the old one's id (a credential follows its guest).
  const guestIds = new Map<number, number>();
  for (const g of stay.guests) {
    const copy = await tx.stayGuest.create({
      data: {
        hotelId,
        stayId: next.id,
        isPrimary: g.isPrimary,
        name: g.name,
        gender: g.gender,
        nationality: g.nationality,
        birthDate: g.birthDate,
        idNumber: g.idNumber,
        mobile: g.mobile,
        email: g.email,
        phoneTail: g.phoneTail,
      },
      select: { id: true },
    });
    guestIds.set(g.id, copy.id);
  }
  if (hasBegun) {
    await tx.room.update({ where: { id: stay.roomId }, data: { cleanStatus: 'dirty' } });
    await departureClean(tx, ctx, hotelId, stay.roomId, stay.id, now);
  }
  // The keys follow the guest: off the old room's lock, on the new one's, for the rest of the stay.
  const keys = await moveStayCredentials(tx, {
    hotelId,
    timeZone: m.timeZone,
    accountId,
    fromStayId: stay.id,
    toStayId: next.id,
    targetRoomId: m.targetRoomId,
    from,
    ...(m.datesMoved ? { until: end } : {}),
    guestIds,
    now,
  });
  // A channel's booking follows the guest too: its feed keeps following the reservation (dates, cancellation).
  await tx.calendarFeedBooking.updateMany({ where: { hotelId, stayId: stay.id }, data: { stayId: next.id } });
  // The bill follows the guest: the room charge brought to the new stay's price.
  await followRoomCharge(tx, ctx, m.poster, next.id);
  await recordEvent(tx, { hotelId, kind: 'stay.roomChanged', roomIds: [stay.roomId, m.targetRoomId], stayId: next.id });
  // Both locks: the old stay's credentials come off the old room's, the new stay's go on the new room's.
  followCredentials(tx, ctx.deps, hotelId, { stayId: stay.id });
  followCredentials(tx, ctx.deps, hotelId, { stayId: next.id });
  await recordAudit(tx, ctx, {
    action: 'stay.changeRoom',
    hotelId,
    entityType: 'Stay',
    entityId: stay.id,
    before: { roomId: stay.roomId, priceAmount: stay.priceAmount },
    after: {
      roomId: m.targetRoomId,
      newStayId: next.id,
      priceDifference: m.priceDifference,
      ...(m.complimentary ? { complimentaryUpgrade: m.complimentary } : {}),
      revokedCredentials: keys.revoked,
      movedCredentials: keys.moves.map((c) => ({ kind: c.kind, from: c.fromId, to: c.toId, outcome: c.outcome, blocked: c.blocked })),
      ...(m.note ? { note: m.note } : {}),
    },
  });
  return { moved: await tx.stay.findUniqueOrThrow({ where: { id: next.id }, select: staySelect }), credentialMoves: keys.moves };
}
