import type { AuthedContext } from '../../context';
import { type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { readerOf } from '../../infra/system-text';
import { folioFigures } from './folio';
import { entrySelect, toEntryDtos, toLine, type OrderEntryDto } from './entries';
import { idempotent } from '../../db/idempotency';

/**
 * The orders ledger's entries (docs/orders.md): room charges, charges, deposits and payments of a
 * stay's folio; refunds of a payment; corrections; recharges of a customer's balance. Every entry is
 * appended (the table refuses updates and deletes), in a transaction that first locks the folio or
 * the entry it refers to, and is audited. Balances are always summed from the entries.
 *
 * Who may do what: the front desk (`stay.manage`) records what happens at the desk on a stay of
 * its rooms; refunds, corrections and recharges need `order.manage`.
 */

export interface FolioSummary {
  folioId: number;
  balance: number;
  owed: number;
  dueBack: number;
  depositHeld: number;
  settled: boolean;
}

export interface EntryResult {
  entry: OrderEntryDto;
  folio: FolioSummary | null;
  /** True when the same request id was sent before: nothing new was recorded. */
  replayed: boolean;
}

/** What a folio left owing still owes (the opposite of its balance). */
export async function owedOn(tx: Tx, hotelId: number, folioId: number): Promise<number> {
  const sum = await tx.orderEntry.aggregate({ where: { hotelId, folioId }, _sum: { amount: true } });
  return Math.max(0, -(sum._sum.amount ?? 0));
}

/** A folio's figures, summed from its entries. */
export async function folioSummary(db: Tx | AuthedContext['deps']['prisma'], hotelId: number, folioId: number): Promise<FolioSummary> {
  const [folio, lines] = await Promise.all([
    db.folio.findFirstOrThrow({ where: { hotelId, id: folioId }, select: { settledAt: true } }),
    db.orderEntry.findMany({
      where: { hotelId, folioId },
      select: { id: true, kind: true, amount: true, method: true, linkedEntryId: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const figures = folioFigures(lines.map(toLine));
  return {
    folioId,
    balance: figures.balance,
    owed: figures.owed,
    dueBack: figures.dueBack,
    depositHeld: figures.depositHeld,
    settled: folio.settledAt !== null,
  };
}

/** An entry just recorded (or recorded before under the same request id), with its folio's figures. */
export async function entryResult(ctx: AuthedContext, entryId: number, replayed: boolean): Promise<EntryResult> {
  const { prisma } = ctx.deps;
  const row = await prisma.orderEntry.findFirstOrThrow({ where: { id: entryId, hotelId: ctx.actor.hotelId }, select: entrySelect });
  const [entry] = await toEntryDtos(prisma, [row], readerOf(ctx));
  return { entry: entry!, folio: row.folioId !== null ? await folioSummary(prisma, ctx.actor.hotelId, row.folioId) : null, replayed };
}

/**
 * A request sent again with the same request id: the entry it recorded, when it is the same
 * kind of entry, for the same thing, by the same amount; CONFLICT when the id was used otherwise.
 */
async function replayOf(
  ctx: AuthedContext,
  requestId: string | undefined,
  same: (e: { kind: string; amount: number; stayId: number | null; linkedEntryId: number | null; customerId: number | null }) => boolean,
): Promise<EntryResult | null> {
  if (!requestId) return null;
  const existing = await ctx.deps.prisma.orderEntry.findFirst({
    where: { hotelId: ctx.actor.hotelId, idempotencyKey: requestId },
    select: { id: true, kind: true, amount: true, stayId: true, linkedEntryId: true, customerId: true },
  });
  if (!existing) return null;
  if (!same(existing)) throw new AppError('CONFLICT', { messageKey: 'orders.errors.requestIdReused' });
  return entryResult(ctx, existing.id, true);
}

/** Runs a write that records one entry; a second request with the same id, at the same moment, gets the first one's entry. */
export async function recordOnce(
  ctx: AuthedContext,
  requestId: string | undefined,
  same: Parameters<typeof replayOf>[2],
  write: () => Promise<number>,
): Promise<EntryResult> {
  return idempotent(
    () => replayOf(ctx, requestId, same),
    async () => entryResult(ctx, await write(), false),
  );
}
