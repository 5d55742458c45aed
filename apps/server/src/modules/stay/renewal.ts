import { ZRenewInput, minPriceMinor, type TRenewInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import { isConstraint } from '../../db/errors';
import { lockRooms, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { afterCredentialChange } from '../credentials/delivery';
import { quoteRenewal } from '../price/price.service';
import { hasOverlappingStay } from './check-in';
import { extendStayCredentials } from './revocation';
import { findStay, requireActive, roomOccupied, staySelect, toStayDto, type StayDto, type StayRow } from './stay-dto';
import { scheduleStayJobs } from './stay-schedule';

/** Extends a stay: at the price of the nights it adds (the pricing function) or at a set price. */
export async function renewStay(ctx: AuthedContext, raw: TRenewInput): Promise<StayDto & { addedPrice: number; replacedPasswords: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZRenewInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, input.stayId);
  const state = requireActive(stay, now);
  if (input.expectedCheckOutAt <= stay.expectedCheckOutAt || input.expectedCheckOutAt <= now) {
    throw new AppError('VALIDATION', { messageKey: 'validation.renewAfterCurrent', fields: { expectedCheckOutAt: 'validation.renewAfterCurrent' } });
  }
  const added = input.priceMode === 'fixed' ? input.fixedPrice! : (await quoteRenewal(deps.prisma, stay.roomId, actor.timeZone, stay.expectedCheckOutAt, input.expectedCheckOutAt)).total;
  if (input.priceMode === 'fixed' && added < minPriceMinor(actor.currency)) throw new AppError('VALIDATION', { messageKey: 'validation.priceMin', fields: { fixedPrice: 'validation.priceMin' } });
  let renewed: StayRow;
  let replacedPasswords = 0;
  try {
    renewed = await transaction(deps, async (tx) => {
      await lockRooms(tx, actor.hotelId, [stay.roomId]);
      if (await hasOverlappingStay(tx, actor.hotelId, stay.roomId, stay.checkInAt, input.expectedCheckOutAt, stay.id)) throw roomOccupied();
      const updated = await tx.stay.updateMany({
        where: { id: stay.id, version: stay.version, status: { in: ['reserved', 'in_house', 'expired'] } },
        data: { expectedCheckOutAt: input.expectedCheckOutAt, priceAmount: { increment: added }, version: { increment: 1 }, ...(stay.status === 'expired' ? { status: 'in_house' } : {}) },
      });
      if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.changedMeanwhile' });
      // The stay's passwords and faces keep working to the new check-out.
      // A generated code on its lock is replaced by a new one: the guest's code changes (said in the answer).
      replacedPasswords = (await extendStayCredentials(tx, actor.hotelId, stay.id, stay.expectedCheckOutAt, input.expectedCheckOutAt, actor.timeZone)).replaced;
      await recordAudit(tx, ctx, {
        action: 'stay.renew',
        entityType: 'Stay',
        entityId: stay.id,
        before: { state, expectedCheckOutAt: stay.expectedCheckOutAt.toISOString(), priceAmount: stay.priceAmount },
        after: { expectedCheckOutAt: input.expectedCheckOutAt.toISOString(), addedPrice: added, priceMode: input.priceMode, replacedPasswords },
      });
      return tx.stay.findUniqueOrThrow({ where: { id: stay.id }, select: staySelect });
    });
  } catch (error) {
    if (isConstraint(error, 'Stay_no_overlap')) throw roomOccupied(error);
    throw error;
  }
  await scheduleStayJobs(deps, renewed);
  await afterCredentialChange(deps, actor.hotelId, { stayId: stay.id });
  return { ...toStayDto(renewed, now), addedPrice: added, replacedPasswords };
}
