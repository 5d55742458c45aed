import { ZStayMoneyInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findStay } from '../base/stay-dto';
import { appendEntry, closeBalancedFolio, formatMoney, loadVisit, openFolio } from './folio';
import { owedOn, recordOnce, type EntryResult } from './ledger-entry';
import { balancePayer, lockCoveringBalance } from './balances';

/** Money received for a stay at the desk: deposits and payments, in cash or the like or from a customer's balance. */

async function recordStayMoney(ctx: AuthedContext, kind: 'deposit' | 'payment', raw: z.input<typeof ZStayMoneyInput>): Promise<EntryResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZStayMoneyInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  const payer = input.method === 'balance' ? await balancePayer(ctx, input) : null;
  return recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === kind && e.amount === input.amount && e.stayId === stay.id && e.customerId === (payer?.id ?? null),
    () =>
      transaction(deps, async (tx) => {
        const visit = await loadVisit(tx, actor.hotelId, stay.id);
        // A bill left owing at check-out takes payments of what is owed, and the last one settles it.
        const folio = await openFolio(tx, actor, visit.first.id, kind === 'payment' ? 'payment' : 'any');
        const owedBefore = folio.owedAt ? await owedOn(tx, actor.hotelId, folio.id) : null;
        if (owedBefore !== null && input.amount > owedBefore) {
          throw new AppError('CONFLICT', {
            messageKey: 'orders.errors.paymentAboveOwed',
            params: { amount: formatMoney(owedBefore, actor.currency, ctx.meta.lang) },
            money: { currency: actor.currency, amounts: { owed: owedBefore } },
          });
        }
        const balance = payer ? await lockCoveringBalance(tx, ctx, payer.id, input.amount) : null;
        const id = await appendEntry(tx, ctx.actor, {
          kind,
          amount: input.amount,
          method: input.method,
          note: input.note,
          stayId: visit.current.id,
          roomId: visit.current.roomId,
          customerId: payer?.id ?? null,
          folioId: folio.id,
          idempotencyKey: input.requestId,
        });
        await recordAudit(tx, ctx, {
          action: `order.${kind}`,
          entityType: 'OrderEntry',
          entityId: id,
          ...(balance !== null ? { before: { customerId: payer!.id, balance } } : {}),
          after: {
            stayId: visit.current.id,
            folioId: folio.id,
            amount: input.amount,
            method: input.method,
            note: input.note,
            ...(balance !== null ? { customerId: payer!.id, balance: balance - input.amount } : {}),
          },
        });
        if (owedBefore !== null && owedBefore === input.amount)
          await closeBalancedFolio(tx, ctx, folio.id, { collectedAfterCheckOut: true, paid: input.amount, entryIds: [id] });
        return id;
      }),
  );
}

/** A deposit received for a stay (kept on its folio until check-out refunds or keeps it). */
export async function recordDeposit(ctx: AuthedContext, raw: z.input<typeof ZStayMoneyInput>): Promise<EntryResult> {
  return recordStayMoney(ctx, 'deposit', raw);
}

/** A payment received for a stay. */
export async function recordPayment(ctx: AuthedContext, raw: z.input<typeof ZStayMoneyInput>): Promise<EntryResult> {
  return recordStayMoney(ctx, 'payment', raw);
}
