import { LIMITS, ZChangeRoomInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { isConstraint } from '../../db/errors';
import { lockRooms, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { quoteStay } from '../price/price.service';
import { findRoom } from '../base/room-access';
import { hasOverlappingStay } from './check-in';
import { followCredentials } from '../credentials/delivery';
import { moveStayCredentials, type CredentialMoveDto } from './credential-move';
import { findStay, requireActive, staySelect, toStayDto, type StayDto, type StayRow } from '../base/stay-dto';
import { scheduleStayJobs } from './stay-schedule';
import { followRoomCharge } from '../orders/room-charge';
import { recordEvent } from '../../db/events';

export interface RoomChangeDto extends StayDto {
  priceDifference: number;
  /** What happened to each credential of the old stay (credential-move.ts): the keys follow the guest. */
  credentialMoves: CredentialMoveDto[];
}

/**
 * Moves a stay to another room (`exchangeHouses`). The old stay is kept as history (moved), a new
 * stay carries the guests on from now (or from its start, for a reservation), and its price changes
 * by the difference between the two rooms over the remaining nights. The guest's keys follow, in
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
  const [oldPrice, newPrice] = await Promise.all([
    quoteStay(deps.prisma, stay.roomId, actor.timeZone, from, end),
    quoteStay(deps.prisma, target.id, actor.timeZone, from, end),
  ]);
  const difference = newPrice.total - oldPrice.total;
  let moved: StayRow;
  let credentialMoves: CredentialMoveDto[] = [];
  try {
    moved = await transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, [stay.roomId, target.id]);
      if (await hasOverlappingStay(tx, actor.hotelId, target.id, from, end)) throw occupied();
      const updated = await tx.stay.updateMany({
        where: { id: stay.id, version: stay.version, status: { in: ['reserved', 'in_house', 'expired'] } },
        data: { status: 'moved', checkedOutAt: hasBegun ? now : null, version: { increment: 1 } },
      });
      if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
      const next = await tx.stay.create({
        data: {
          hotelId: actor.hotelId,
          roomId: target.id,
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
          priceAmount: Math.max(0, stay.priceAmount + difference),
          remark: stay.remark,
          movedFromStayId: stay.id,
          createdByAccountId: actor.accountId,
        },
        select: { id: true },
      });
      // One by one, in the old stay's order: each new guest is known by the old one's id (a credential follows its guest).
      const guestIds = new Map<number, number>();
      for (const g of stay.guests) {
        const copy = await tx.stayGuest.create({
          data: {
            hotelId: actor.hotelId,
            stayId: next.id,
            isPrimary: g.isPrimary,
            name: g.name,
            gender: g.gender,
            nationality: g.nationality,
            birthDate: g.birthDate,
            idNumber: g.idNumber,
            mobile: g.mobile,
            email: g.email,
          },
          select: { id: true },
        });
        guestIds.set(g.id, copy.id);
      }
      if (hasBegun) await tx.room.update({ where: { id: stay.roomId }, data: { cleanStatus: 'dirty' } });
      // The keys follow the guest: off the old room's lock, on the new one's, for the rest of the stay.
      const keys = await moveStayCredentials(tx, {
        hotelId: actor.hotelId,
        timeZone: actor.timeZone,
        accountId: actor.accountId,
        fromStayId: stay.id,
        toStayId: next.id,
        targetRoomId: target.id,
        from,
        guestIds,
        now,
      });
      credentialMoves = keys.moves;
      const revoked = keys.revoked;
      // The bill follows the guest: the room charge brought to the new stay's price.
      await followRoomCharge(tx, ctx, actor, next.id);
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'stay.roomChanged', roomIds: [stay.roomId, target.id], stayId: next.id });
      // Both locks: the old stay's credentials come off the old room's, the new stay's go on the new room's.
      followCredentials(tx, deps, actor.hotelId, { stayId: stay.id });
      followCredentials(tx, deps, actor.hotelId, { stayId: next.id });
      await recordAudit(tx, ctx, {
        action: 'stay.changeRoom',
        entityType: 'Stay',
        entityId: stay.id,
        before: { roomId: stay.roomId, priceAmount: stay.priceAmount },
        after: {
          roomId: target.id,
          newStayId: next.id,
          priceDifference: difference,
          revokedCredentials: revoked,
          movedCredentials: credentialMoves.map((m) => ({ kind: m.kind, from: m.fromId, to: m.toId, outcome: m.outcome, blocked: m.blocked })),
        },
      });
      return tx.stay.findUniqueOrThrow({ where: { id: next.id }, select: staySelect });
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap'))
      throw new AppError('CONFLICT', { messageKey: 'stay.errors.changeFailedOccupied', params: { room: target.name }, cause: error });
    throw error;
  }
  await scheduleStayJobs(deps, moved, actor.timeZone);
  return { ...toStayDto(moved, now), priceDifference: difference, credentialMoves };
}
