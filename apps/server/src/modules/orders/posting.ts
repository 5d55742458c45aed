import { ZChargeInput, ZFolioInput } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { transaction } from '../../db/transaction';
import { readerOf } from '../../infra/system-text';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findStay } from '../base/stay-dto';
import { appendEntry, loadVisit, openFolio } from './folio';
import { entrySelect, toEntryDtos, type OrderEntryDto } from './entries';
import { roomChargeNote, syncRoomCharge } from './room-charge';
import { folioSummary, recordOnce, type EntryResult, type FolioSummary } from './ledger-entry';

/** What a stay is charged: charges at the desk, and the room charge posted from the stay's price (decision 021). */

/** A charge to a stay other than the room (minibar, damage, a late check-out), with what it is for. */
export async function recordCharge(ctx: AuthedContext, raw: z.input<typeof ZChargeInput>): Promise<EntryResult> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZChargeInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  return recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === 'charge' && e.amount === -input.amount && e.stayId === stay.id,
    () =>
      transaction(deps, async (tx) => {
        const visit = await loadVisit(tx, actor.hotelId, stay.id);
        const folio = await openFolio(tx, actor, visit.first.id);
        const id = await appendEntry(tx, ctx.actor, {
          kind: 'charge',
          amount: -input.amount,
          method: null,
          note: input.note,
          stayId: visit.current.id,
          roomId: visit.current.roomId,
          folioId: folio.id,
          idempotencyKey: input.requestId,
        });
        await recordAudit(tx, ctx, {
          action: 'order.charge',
          entityType: 'OrderEntry',
          entityId: id,
          after: { stayId: visit.current.id, folioId: folio.id, amount: -input.amount, note: input.note },
        });
        return id;
      }),
  );
}

/**
 * Charges the stay's room: brings the room charges standing on the folio to the stay's price (what
 * the pricing function computed at check-in, with renewals and room changes). Nothing is written
 * when they already agree; a price that went down (a cheaper room) reverses the charges and charges
 * the new price. Check-out recomputes it for an early departure (`settleFolio`).
 */
export async function postRoomCharge(ctx: AuthedContext, raw: z.input<typeof ZFolioInput>): Promise<{ entries: OrderEntryDto[]; folio: FolioSummary }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'stay.manage');
  const input = ZFolioInput.parse(raw);
  const stay = await findStay(ctx, input.stayId);
  const note = roomChargeNote();
  const { ids, folioId } = await transaction(deps, async (tx) => {
    const visit = await loadVisit(tx, actor.hotelId, stay.id);
    // Asked for: the stay's price even before it begins (a reservation paid ahead); nothing once it ended unbegun.
    const sync = await syncRoomCharge(tx, actor, visit, note, visit.current.status === 'ended' ? 0 : visit.current.priceAmount);
    const folio = sync ? { id: sync.folioId } : await openFolio(tx, actor, visit.first.id);
    if (sync?.entryIds.length) {
      await recordAudit(tx, ctx, {
        action: 'order.roomCharge',
        entityType: 'Folio',
        entityId: sync.folioId,
        before: { roomChargePosted: sync.before },
        after: { roomCharge: sync.target, entryIds: sync.entryIds },
      });
    }
    return { ids: sync?.entryIds ?? [], folioId: folio.id };
  });
  const rows = await deps.prisma.orderEntry.findMany({ where: { hotelId: actor.hotelId, id: { in: ids } }, select: entrySelect, orderBy: { id: 'asc' } });
  return { entries: await toEntryDtos(deps.prisma, rows, readerOf(ctx)), folio: await folioSummary(deps.prisma, actor.hotelId, folioId) };
}
