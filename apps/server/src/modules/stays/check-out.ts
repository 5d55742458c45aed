import { ACTIVE_STAY_STATES, ZCancelReservationInput, ZStayIdInput, type TCancelReason } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { lockRooms, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { revokeStayCredentials } from '../credentials/revocation';
import { findStay, requireActive, toStayDto, type StayDto, type StayRow } from '../base/stay-dto';
import { recordEvent } from '../../db/events';
import { getFolio, settleFolio } from '../orders/settlement.service';
import { departureClean } from '../housekeeping/task-generation';

/** Ends a stay: checked out (it had begun: the room becomes dirty) or a cancelled reservation (with why, when said). */
async function endStay(
  ctx: AuthedContext,
  stay: StayRow,
  hasBegun: boolean,
  now: Date,
  cancellation?: { reason: TCancelReason; note: string },
): Promise<number> {
  const revoked = await transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, ctx.actor.hotelId, [stay.roomId]);
    const updated = await tx.stay.updateMany({
      where: { id: stay.id, status: { in: [...ACTIVE_STAY_STATES] } },
      data: {
        status: hasBegun ? 'checked_out' : 'ended',
        checkedOutAt: now,
        version: { increment: 1 },
        ...(cancellation ? { cancelReason: cancellation.reason, cancelNote: cancellation.note } : {}),
      },
    });
    if (updated.count === 0) throw new AppError('CONFLICT', { messageKey: 'stay.errors.notActive' });
    if (hasBegun) {
      await tx.room.update({ where: { id: stay.roomId }, data: { cleanStatus: 'dirty' } });
      await departureClean(tx, ctx, ctx.actor.hotelId, stay.roomId, stay.id, now);
    }
    const revoked = await revokeStayCredentials(tx, ctx.actor.hotelId, { stayId: stay.id }, hasBegun ? 'check_out' : 'cancelled');
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: hasBegun ? 'stay.checkedOut' : 'stay.cancelled', roomIds: [stay.roomId], stayId: stay.id });
    followCredentials(tx, ctx.deps, ctx.actor.hotelId, { stayId: stay.id });
    await recordAudit(tx, ctx, {
      action: hasBegun ? 'stay.checkOut' : 'stay.cancel',
      entityType: 'Stay',
      entityId: stay.id,
      before: { status: stay.status },
      after: { revokedCredentials: revoked, ...(cancellation ? { reason: cancellation.reason, note: cancellation.note } : {}) },
    });
    return revoked;
  });
  return revoked;
}

/** A reservation whose guest has not arrived is never checked out: it is cancelled, saying why (issue 39 §4). */
export const notArrived = () => new AppError('CONFLICT', { messageKey: 'stay.errors.checkOutNotArrived' });

/**
 * Checks a stay out: the room becomes dirty and every credential of the stay is queued for
 * removal from the lock. A reservation that has not begun is refused on every face (the console,
 * the JSON API, `room/checkOut`): it is cancelled instead (`cancelReservation`), which asks why and
 * what becomes of its deposit.
 */
export async function checkOut(ctx: AuthedContext, raw: z.input<typeof ZStayIdInput>): Promise<StayDto & { revokedCredentials: number }> {
  requirePermission(ctx.actor, 'stay.manage');
  const { stayId } = ZStayIdInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, stayId);
  if (requireActive(stay, now) === 'reserved') throw notArrived();
  const revoked = await endStay(ctx, stay, true, now);
  return { ...toStayDto(await findStay(ctx, stay.id), now), revokedCredentials: revoked };
}

/**
 * Cancels a reservation whose guest has not arrived, saying why (a code, translated on display, and
 * a note; audited): its room is released and its credentials withdrawn. A stay in progress is
 * checked out instead.
 */
export async function cancelReservation(ctx: AuthedContext, raw: z.input<typeof ZCancelReservationInput>): Promise<StayDto & { revokedCredentials: number }> {
  requirePermission(ctx.actor, 'stay.manage');
  const { stayId, reason, note, deposit, depositReason, refundMethod } = ZCancelReservationInput.parse(raw);
  const now = new Date();
  const stay = await findStay(ctx, stayId);
  if (requireActive(stay, now) !== 'reserved' || stay.status !== 'reserved') throw new AppError('CONFLICT', { messageKey: 'stay.errors.notReservation' });
  // Money the reservation holds (a deposit) is never left silently on its bill (issue 36): refunded in the
  // way the clerk names, or kept as a cancellation fee with the reason; asked before anything changes.
  const folio = await getFolio(ctx, { stayId: stay.id });
  const holds = folio.folioId !== null && folio.state === 'open' && (folio.depositHeld > 0 || folio.dueBack > 0);
  if (holds && deposit === undefined) {
    throw new AppError('VALIDATION', { messageKey: 'validation.depositDecisionInvalid', fields: { deposit: 'validation.depositDecisionInvalid' } });
  }
  // Money paid besides a deposit kept goes back too, in the way the clerk names.
  const handedBack = (deposit === 'keep' ? folio.preview?.ifDepositKept : folio.preview?.ifDepositRefunded)?.handedBack ?? 0;
  if (holds && handedBack > 0 && refundMethod === undefined) {
    throw new AppError('VALIDATION', { messageKey: 'validation.refundMethodRequired', fields: { refundMethod: 'validation.refundMethodRequired' } });
  }
  const revoked = await endStay(ctx, stay, false, now, { reason, note });
  if (holds) await settleFolio(ctx, { stayId: stay.id, deposit, depositReason, refundMethod });
  return { ...toStayDto(await findStay(ctx, stay.id), now), revokedCredentials: revoked };
}
