import type { TMoneyMethod } from '@console/shared';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { systemText } from '../../infra/system-text';
import { appendEntry, closeBalancedFolio, folioFigures, loadVisit, openFolio, roomChargeDue } from './folio';
import { toLine } from './entries';
import { syncRoomCharge } from './room-charge';
import { checkOut, folioOf, leaveFolioOwing, lineSelect, repriceStay } from './settlement.service';

export interface LegacyCheckOutBill {
  /** settled: nothing left; owing: left owing `owed` (collectable later); open: money is due back to the guest (the desk settles it). */
  state: 'settled' | 'owing' | 'open';
  owed: number;
  dueBack: number;
  paid: number;
}

/**
 * The bill of a legacy `room/checkOut` (legacy clients keep working unchanged, but the money is
 * never left silently): the room charge is brought to what the stay owes at its departure; a bill
 * that balances is settled; what is owed is paid when the client said how (`method`), else the bill
 * is left owing (`legacy_check_out`, audited, listed as an unpaid departure and collectable); money
 * due back is left for the desk to return (the bill stays open, saying so).
 */
async function settleLegacyCheckOut(ctx: AuthedContext, stayId: number, method: TMoneyMethod | undefined): Promise<LegacyCheckOutBill> {
  const { deps, actor } = ctx;
  return transaction(deps, async (tx) => {
    const visit = await loadVisit(tx, actor.hotelId, stayId);
    const existing = await folioOf(tx, actor.hotelId, visit.first.id);
    if (existing?.settledAt) return { state: 'settled', owed: 0, dueBack: 0, paid: 0 };
    if (existing?.owedAt) return { state: 'owing', owed: existing.owedAmount ?? 0, dueBack: 0, paid: 0 };
    const due = await roomChargeDue(tx, actor.timeZone, visit, new Date());
    if (!existing && due.due === 0) return { state: 'settled', owed: 0, dueBack: 0, paid: 0 };
    const sync = await syncRoomCharge(tx, actor, visit, systemText('orders.notes.roomChargeRecomputed'), due.due);
    await repriceStay(tx, visit, due.due);
    const folio = await openFolio(tx, actor, visit.first.id);
    const lines = (await tx.orderEntry.findMany({ where: { hotelId: actor.hotelId, folioId: folio.id }, select: lineSelect, orderBy: { id: 'asc' } })).map(
      toLine,
    );
    const figures = folioFigures(lines);
    const entryIds = sync?.entryIds ?? [];
    const facts = {
      legacy: true,
      departureAt: due.departureAt.toISOString(),
      early: due.early,
      roomCharge: { full: due.full, due: due.due, posted: sync?.before ?? figures.roomChargePosted },
    };
    if (figures.owed > 0 && method) {
      const on = { stayId: visit.current.id, roomId: visit.current.roomId, folioId: folio.id };
      entryIds.push(await appendEntry(tx, actor, { kind: 'payment', amount: figures.owed, method, note: systemText('orders.notes.settlementPayment'), ...on }));
      await closeBalancedFolio(tx, ctx, folio.id, { ...facts, paid: figures.owed, refunded: 0, entryIds });
      return { state: 'settled', owed: 0, dueBack: 0, paid: figures.owed };
    }
    if (figures.owed > 0) {
      await leaveFolioOwing(tx, ctx, folio.id, figures.owed, 'legacy_check_out', '', { ...facts, entryIds });
      return { state: 'owing', owed: figures.owed, dueBack: 0, paid: 0 };
    }
    if (figures.dueBack > 0) return { state: 'open', owed: 0, dueBack: figures.dueBack, paid: 0 };
    await closeBalancedFolio(tx, ctx, folio.id, { ...facts, paid: 0, refunded: 0, entryIds });
    return { state: 'settled', owed: 0, dueBack: 0, paid: 0 };
  });
}

/**
 * Checks a stay out the way a legacy client asks (`room/checkOut`): the check-out, then its bill
 * (`settleLegacyCheckOut`). `method`, when the client sends one, is how what is owed was paid.
 */
export async function checkOutWithBill(
  ctx: AuthedContext,
  input: { stayId: number; method?: TMoneyMethod },
): Promise<Awaited<ReturnType<typeof checkOut>> & { bill: LegacyCheckOutBill }> {
  const stay = await checkOut(ctx, { stayId: input.stayId });
  return { ...stay, bill: await settleLegacyCheckOut(ctx, stay.id, input.method) };
}
