import { type TPaymentMethod, type TOrderEntryKind } from '@console/shared';
import type { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { type TextReader } from '../../infra/system-text';
import { ledgerFacts, type LedgerLine } from './ledger-facts';

/**
 * A ledger entry as every face shows it (its refunds and corrections, what is left of it, who
 * recorded it), the entries an actor may see, and the locks and reads of one entry.
 */

type Db = TPrisma | Tx;

export const entrySelect = {
  id: true,
  kind: true,
  amount: true,
  currency: true,
  method: true,
  note: true,
  noteKey: true,
  noteParams: true,
  stayId: true,
  roomId: true,
  customerId: true,
  folioId: true,
  linkedEntryId: true,
  createdByAccountId: true,
  idempotencyKey: true,
  taxRuleId: true,
  taxedEntryId: true,
  createdAt: true,
  room: { select: { name: true } },
  customer: { select: { nickname: true, mobile: true } },
  folio: { select: { settledAt: true, owedAt: true } },
  linkedBy: {
    select: {
      id: true,
      kind: true,
      amount: true,
      method: true,
      linkedEntryId: true,
      linkedBy: { select: { id: true, kind: true, amount: true, method: true, linkedEntryId: true } },
    },
  },
} satisfies Prisma.OrderEntrySelect;
export type EntryRow = Prisma.OrderEntryGetPayload<{ select: typeof entrySelect }>;

export interface OrderEntryDto {
  id: number;
  kind: TOrderEntryKind;
  /** Signed, in minor units: money received positive, charges and money given back negative. */
  amount: number;
  currency: string;
  method: TPaymentMethod | null;
  note: string;
  stayId: number | null;
  roomId: number | null;
  roomName: string | null;
  customerId: number | null;
  customerName: string | null;
  folioId: number | null;
  /** A refund: the payment it gives back; a correction: the entry it reverses. */
  linkedEntryId: number | null;
  operator: { id: number; nickname: string } | null;
  createdAt: string;
  /** A deposit, payment or recharge: what is left to refund of it. Null for other kinds. */
  refundable: number | null;
  /** The correction that reversed this entry, if one did. */
  correctedById: number | null;
  /**
   * What the entry did to its customer's balance (null when it names none): a recharge and what
   * reverses it as they are; money taken from the balance for a stay (and what goes back) the other way round.
   */
  balanceChange: number | null;
  /**
   * The taxes included in a charge's amount (docs/journal.md "Taxes"), as the journal booked them:
   * positive for a charge, negative for a correction of one; null when none was.
   */
  taxIncluded: number | null;
  /** A tax charge (added on top, the city tax): it follows its charge or the stay's nights, never corrected alone. */
  tax: boolean;
}

export const toLine = (r: LedgerLine): LedgerLine => ({
  id: r.id,
  kind: r.kind,
  amount: r.amount,
  method: r.method,
  linkedEntryId: r.linkedEntryId,
  customerId: r.customerId ?? null,
  taxedEntryId: r.taxedEntryId ?? null,
});

/** The entry and what names it (its refunds and corrections, and theirs): enough to know what is left of it. */
function linesAround(row: EntryRow): LedgerLine[] {
  return [toLine(row), ...row.linkedBy.flatMap((l) => [toLine(l), ...l.linkedBy.map(toLine)])];
}

/**
 * Entries as every face shows them, with the operators' names read in one query; a note the system
 * wrote is read in the reader's language (`readerOf(ctx)`, infra/system-text.ts).
 */
export async function toEntryDtos(db: Db, rows: EntryRow[], read: TextReader): Promise<OrderEntryDto[]> {
  const operatorIds = [...new Set(rows.map((r) => r.createdByAccountId).filter((id): id is number => id !== null))];
  const operators = operatorIds.length ? await db.account.findMany({ where: { id: { in: operatorIds } }, select: { id: true, nickname: true } }) : [];
  const names = new Map(operators.map((o) => [o.id, o.nickname]));
  const taxes = await taxesIncluded(
    db,
    rows.filter((r) => r.kind === 'room_charge' || r.kind === 'charge' || r.kind === 'correction').map((r) => r.id),
  );
  return rows.map((row) => {
    const facts = ledgerFacts(linesAround(row));
    return {
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      currency: row.currency.trim(),
      method: row.method,
      note: read(row.note, row.noteKey, row.noteParams),
      stayId: row.stayId,
      roomId: row.roomId,
      roomName: row.room?.name ?? null,
      customerId: row.customerId,
      customerName: row.customer ? row.customer.nickname || row.customer.mobile || null : null,
      folioId: row.folioId,
      linkedEntryId: row.linkedEntryId,
      operator: row.createdByAccountId !== null ? { id: row.createdByAccountId, nickname: names.get(row.createdByAccountId) ?? '' } : null,
      createdAt: row.createdAt.toISOString(),
      // Nothing is refunded from a closed bill (settled, or left owing: it takes payments only).
      refundable: row.folio?.settledAt || row.folio?.owedAt ? (facts.refundable.has(row.id) ? 0 : null) : (facts.refundable.get(row.id) ?? null),
      correctedById: facts.correctedBy.get(row.id) ?? null,
      balanceChange: row.customerId === null ? null : row.folioId === null ? row.amount : -row.amount,
      taxIncluded: taxes.get(row.id) ?? null,
      tax: row.taxRuleId !== null,
    };
  });
}

/** The taxes the journal booked with each of these order entries (tax_payable's lines; none: absent). */
async function taxesIncluded(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ id: number; tax: bigint }[]>`
    SELECT j."orderEntryId" AS "id", -sum(l."amount")::bigint AS "tax"
    FROM "JournalEntry" j JOIN "JournalLine" l ON l."journalEntryId" = j."id"
    JOIN "OrderEntry" o ON o."hotelId" = j."hotelId" AND o."id" = j."orderEntryId"
    LEFT JOIN "OrderEntry" c ON c."hotelId" = o."hotelId" AND c."id" = o."linkedEntryId"
    WHERE j."orderEntryId" = ANY(${ids}::int[]) AND l."account" = 'tax_payable'
      -- A tax charge (added on top, the city tax) is a tax, not a charge that includes one.
      AND o."taxRuleId" IS NULL AND c."taxRuleId" IS NULL
    GROUP BY 1`;
  return new Map(rows.map((r) => [r.id, Number(r.tax)]));
}

/**
 * The entries an actor may see: the hotel's, and for a membership limited to some rooms, those of
 * its rooms and those of no room (a customer's recharges). Deleted rooms keep their entries.
 */
export function entryScope(actor: Actor): Prisma.OrderEntryWhereInput {
  return {
    hotelId: actor.hotelId,
    ...(actor.allRooms ? {} : { OR: [{ roomId: null }, { room: { memberships: { some: { membershipId: actor.membershipId } } } }] }),
  };
}

/** An entry in the actor's scope, or NOT_FOUND (another hotel's entry is "not found" too). */
export async function findEntry(ctx: AuthedContext, entryId: number, db: Db = ctx.deps.prisma): Promise<EntryRow> {
  const row = await db.orderEntry.findFirst({ where: { AND: [{ id: entryId }, entryScope(ctx.actor)] }, select: entrySelect });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.entryNotFound' });
  return row;
}

/** What is left to refund of a payment, deposit or recharge, as the database's rule computes it. */
export async function refundableNow(db: Tx | TPrisma, hotelId: number, entryId: number): Promise<number> {
  const [row] = await db.$queryRaw<{ left: bigint | null }[]>`SELECT "OrderEntry_refundable"(${hotelId}::int, ${entryId}::int) AS "left"`;
  return Number(row?.left ?? 0);
}

/** Locks an entry (the payment refunded, the entry corrected) for the rest of the transaction. */
export async function lockEntry(tx: Tx, hotelId: number, entryId: number): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "OrderEntry" WHERE "hotelId" = ${hotelId} AND "id" = ${entryId} FOR NO KEY UPDATE`;
}
