import { LIMITS, ZArriveInput, type TArriveInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { lockRooms, transaction } from '../../db/transaction';
import { isConstraint } from '../../db/errors';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { quoteStay } from '../price/price.service';
import { findRoom } from '../base/room-access';
import { refuseOverlap } from './check-in';
import { findStay, roomOccupied, staySelect, toStayDto, type StayDto } from '../base/stay-dto';
import { followStayJobs } from './stay-schedule';
import { followRoomCharge } from '../orders/room-charge';
import { recordEvent } from '../../db/events';

/** How far ahead of now an arrival may be recorded (clocks of the desk and the server differ a little). */
const ARRIVAL_CLOCK_SLACK_MS = 5 * 60_000;

/**
 * The guest of a reservation arrives (a reservation taken at the desk, or a check-in dated ahead,
 * early): the reserved stay becomes in house, with its guests, options and price. The check-in time is now unless given (not in the future); the expected check-out can
 * be moved, and then the price is recomputed by the pricing function unless a fixed price is given.
 * A dirty room asks for confirmation, as a check-in does.
 */
export async function arriveReservation(ctx: AuthedContext, raw: TArriveInput): Promise<StayDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZArriveInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  if (stay.status !== 'reserved') throw new AppError('CONFLICT', { messageKey: 'stay.errors.notReservation' });
  const checkInAt = input.checkInAt ?? now;
  const expectedCheckOutAt = input.expectedCheckOutAt ?? stay.expectedCheckOutAt;
  if (checkInAt.getTime() > now.getTime() + ARRIVAL_CLOCK_SLACK_MS)
    throw new AppError('VALIDATION', { messageKey: 'validation.arrivalInFuture', fields: { checkInAt: 'validation.arrivalInFuture' } });
  if (expectedCheckOutAt <= now)
    throw new AppError('VALIDATION', { messageKey: 'validation.checkOutInPast', fields: { expectedCheckOutAt: 'validation.checkOutInPast' } });
  if (expectedCheckOutAt.getTime() - checkInAt.getTime() < LIMITS.minStayHours * 3_600_000) {
    throw new AppError('VALIDATION', { messageKey: 'validation.checkOutAfterCheckIn', fields: { expectedCheckOutAt: 'validation.checkOutAfterCheckIn' } });
  }
  const room = await findRoom(ctx, stay.roomId, { id: true, name: true, cleanStatus: true, maintenance: true });
  if (room.maintenance !== 'none') throw new AppError('CONFLICT', { messageKey: 'stay.errors.roomMaintain', params: { room: room.name } });
  if (room.cleanStatus === 'dirty' && !input.acknowledge.includes('room_dirty')) {
    throw new AppError('CONFIRMATION_REQUIRED', {
      messageKey: 'stay.warnings.roomDirty',
      params: { room: room.name },
      details: { warnings: ['room_dirty'], elsewhere: [] },
    });
  }
  const periodChanged = expectedCheckOutAt.getTime() !== stay.expectedCheckOutAt.getTime();
  const price =
    input.priceMode === 'fixed'
      ? input.fixedPrice!
      : periodChanged
        ? (await quoteStay(deps.prisma, room.id, actor.timeZone, checkInAt, expectedCheckOutAt)).total
        : stay.priceAmount;

  let arrived;
  try {
    arrived = await transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, [room.id]);
      await refuseOverlap(tx, actor, room.id, checkInAt, expectedCheckOutAt, stay.id);
      const updated = await tx.stay.updateMany({
        where: { id: stay.id, version: stay.version, status: 'reserved' },
        data: { status: 'in_house', checkInAt, expectedCheckOutAt, priceAmount: price, version: { increment: 1 } },
      });
      if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
      await followRoomCharge(tx, ctx, actor, stay.id);
      await recordEvent(tx, { hotelId: actor.hotelId, kind: 'stay.arrived', roomIds: [room.id], stayId: stay.id });
      await recordAudit(tx, ctx, {
        action: 'stay.arrive',
        entityType: 'Stay',
        entityId: stay.id,
        before: { checkInAt: stay.checkInAt.toISOString(), expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(), priceAmount: stay.priceAmount },
        after: { checkInAt: checkInAt.toISOString(), expectedCheckOutAt: expectedCheckOutAt.toISOString(), priceAmount: price },
      });
      const row = await tx.stay.findUniqueOrThrow({ where: { id: stay.id }, select: staySelect });
      followStayJobs(tx, deps, row, actor.timeZone);
      return row;
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw roomOccupied(error);
    throw error;
  }
  return toStayDto(arrived, now);
}
