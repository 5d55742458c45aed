import { ZCorrectInput, ZRefundInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { appendEntry, formatMoney, lockFolio } from './folio';
import { findEntry, lockEntry, refundableNow } from './entries';
import { isRefundableKind, refundMethod } from './ledger-facts';
import { entryResult, recordOnce, type EntryResult } from './ledger-entry';

/** Money given back and entries reversed: refunds of a payment, deposit or recharge; corrections of a mistake. */

/**
 * Refunds part or all of a payment, deposit or recharge, with a reason: never more than what is
 * left of it (checked under a lock on it here, and by the database's rule whatever the path). A
 * refund of a settled folio's payment is refused: the folio is closed.
 */
export async function refundEntry(ctx: AuthedContext, raw: z.input<typeof ZRefundInput>): Promise<EntryResult & { refundableLeft: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZRefundInput.parse(raw);
  const target = await findEntry(ctx, input.entryId);
  if (target.method === 'balance' && input.method !== undefined) throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceRefundsToBalance' });
  const result = await recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === 'refund' && e.linkedEntryId === target.id && e.amount === -input.amount,
    () =>
      transaction(deps, async (tx) => {
        if (target.folioId !== null) await lockFolio(tx, actor.hotelId, target.folioId);
        if (!isRefundableKind(target.kind)) throw new AppError('CONFLICT', { messageKey: 'orders.errors.notRefundable' });
        await lockEntry(tx, actor.hotelId, target.id);
        const left = await refundableNow(tx, actor.hotelId, target.id);
        if (input.amount > left) {
          throw new AppError('CONFLICT', {
            messageKey: left > 0 ? 'orders.errors.refundExceedsPayment' : 'orders.errors.nothingLeftToRefund',
            params: { amount: formatMoney(left, target.currency.trim(), ctx.meta.lang) },
            money: { currency: target.currency.trim(), amounts: { refundable: left } },
          });
        }
        const id = await appendEntry(tx, ctx.actor, {
          kind: 'refund',
          amount: -input.amount,
          method: refundMethod(target, input.method),
          note: input.reason,
          stayId: target.stayId,
          roomId: target.roomId,
          customerId: target.customerId,
          folioId: target.folioId,
          linkedEntryId: target.id,
          idempotencyKey: input.requestId,
        });
        await recordAudit(tx, ctx, {
          action: 'order.refund',
          entityType: 'OrderEntry',
          entityId: id,
          before: { entryId: target.id, refundable: left },
          after: { amount: -input.amount, reason: input.reason, refundable: left - input.amount },
        });
        return id;
      }),
  );
  return { ...result, refundableLeft: await refundableNow(deps.prisma, actor.hotelId, target.id) };
}

/**
 * Reverses an entry recorded by mistake with a correction of the opposite amount, with a reason.
 * An entry is corrected once; a correction is not corrected; a payment with refunds still standing
 * is corrected after them (its refunds first).
 */
export async function correctEntry(ctx: AuthedContext, raw: z.input<typeof ZCorrectInput>): Promise<EntryResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZCorrectInput.parse(raw);
  const target = await findEntry(ctx, input.entryId);
  const id = await transaction(deps, async (tx) => {
    if (target.folioId !== null) await lockFolio(tx, actor.hotelId, target.folioId);
    if (target.kind === 'correction') throw new AppError('CONFLICT', { messageKey: 'orders.errors.cannotCorrectCorrection' });
    // The room charge follows the stay's price (the posting rule, decision 021): the stay is changed, not its charge.
    if (target.kind === 'room_charge') throw new AppError('CONFLICT', { messageKey: 'orders.errors.roomChargeFollowsStay' });
    // A tax follows what it is levied on: the charge (corrected with it), or the stay's nights (the city tax).
    if (target.taxRuleId !== null) throw new AppError('CONFLICT', { messageKey: 'orders.errors.taxFollowsCharge' });
    await lockEntry(tx, actor.hotelId, target.id);
    const corrected = await tx.orderEntry.findFirst({ where: { hotelId: actor.hotelId, linkedEntryId: target.id, kind: 'correction' }, select: { id: true } });
    if (corrected) throw new AppError('CONFLICT', { messageKey: 'orders.errors.alreadyCorrected' });
    if (isRefundableKind(target.kind) && (await refundableNow(tx, actor.hotelId, target.id)) !== target.amount) {
      throw new AppError('CONFLICT', { messageKey: 'orders.errors.correctRefundsFirst' });
    }
    const id = await appendEntry(tx, ctx.actor, {
      kind: 'correction',
      amount: -target.amount,
      method: target.method,
      note: input.reason,
      stayId: target.stayId,
      roomId: target.roomId,
      customerId: target.customerId,
      folioId: target.folioId,
      linkedEntryId: target.id,
    });
    await recordAudit(tx, ctx, {
      action: 'order.correct',
      entityType: 'OrderEntry',
      entityId: id,
      before: { entryId: target.id, kind: target.kind, amount: target.amount },
      after: { amount: -target.amount, reason: input.reason },
    });
    return id;
  });
  return entryResult(ctx, id, false);
}
