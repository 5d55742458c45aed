import { ZGeneralLedgerInput, codeOfLine, type TLedgerAccount, type TMoneyMethod, type TOrderEntryKind } from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import type { KeysetCursor } from '../../db/keyset';
import { readerOf } from '../../infra/system-text';
import { requirePermission } from '../../permissions';
import { accountCodeMap } from './account-codes';

/**
 * The general-ledger export's lines (docs/journal.md "The general-ledger export"): every journal
 * line of a range of business dates, entry by entry (by date, then as posted), each under the
 * hotel's code for its account (`code`, null when the hotel gave none: the export writes our
 * account's name and counts the line). Read by the export job (modules/export/lists.ts) as the
 * manager who asked: `order.manage` over the whole hotel, the hotel's own lines only.
 */
export interface GeneralLedgerLine {
  id: number;
  businessDate: string;
  entryId: number;
  postedAt: string;
  account: TLedgerAccount;
  method: TMoneyMethod | null;
  /** The hotel's code of the line's account (its way's for money), or null. */
  code: string | null;
  serviceDate: string | null;
  roomName: string | null;
  customerName: string | null;
  cashier: string | null;
  /** What the entry was: its order entry's kind, or the balance it moved (`deposit_to_guest`, `guest_to_receivable`). */
  kind: TOrderEntryKind | null;
  source: string;
  note: string;
  amount: number;
}

interface Row {
  id: number;
  businessDate: string;
  entryId: number;
  postedAt: Date;
  source: string;
  account: TLedgerAccount;
  method: TMoneyMethod | null;
  serviceDate: string | null;
  amount: bigint;
  roomName: string | null;
  customerName: string | null;
  cashier: string | null;
  kind: TOrderEntryKind | null;
  note: string | null;
  noteKey: string | null;
  noteParams: unknown;
}

function rangeOf(ctx: AuthedContext, filters: Record<string, unknown>) {
  requirePermission(ctx.actor, 'order.manage', { wholeHotel: true });
  return ZGeneralLedgerInput.parse(filters);
}

/** The lines of the entries `entries` names (a query of entry ids), in the export's order. */
function linesOf(hotelId: number, entries: Prisma.Sql, page: Prisma.Sql = Prisma.empty) {
  return Prisma.sql`
    SELECT l."id", e."businessDate", e."id" AS "entryId", e."postedAt", e."source", l."account"::text AS "account", l."method"::text AS "method",
      l."serviceDate", l."amount", r."name" AS "roomName", coalesce(nullif(c."nickname", ''), c."mobile", c."email") AS "customerName",
      coalesce(nullif(ca."nickname", ''), ca."mobile", ca."email") AS "cashier", oe."kind"::text AS "kind", oe."note", oe."noteKey", oe."noteParams"
    FROM (${entries}) chunk JOIN "JournalEntry" e ON e."id" = chunk."id" JOIN "JournalLine" l ON l."journalEntryId" = e."id" AND l."hotelId" = ${hotelId}
    LEFT JOIN "OrderEntry" oe ON oe."id" = e."orderEntryId" AND oe."hotelId" = e."hotelId"
    LEFT JOIN "Folio" f ON f."id" = coalesce(l."folioId", e."folioId") AND f."hotelId" = e."hotelId"
    LEFT JOIN "Stay" s ON s."id" = coalesce(oe."stayId", f."stayId") AND s."hotelId" = e."hotelId"
    LEFT JOIN "Room" r ON r."id" = s."roomId" AND r."hotelId" = e."hotelId"
    LEFT JOIN "Customer" c ON c."id" = coalesce(l."customerId", oe."customerId") AND c."hotelId" = e."hotelId"
    LEFT JOIN "CashierShift" sh ON sh."id" = l."shiftId" AND sh."hotelId" = e."hotelId"
    LEFT JOIN "Account" ca ON ca."id" = sh."accountId"
    ORDER BY e."businessDate", e."id", l."id"${page}`;
}

async function toLines(ctx: AuthedContext, rows: Row[]): Promise<GeneralLedgerLine[]> {
  const codes = await accountCodeMap(ctx.deps.prisma, ctx.actor.hotelId);
  const read = readerOf(ctx);
  return rows.map((r) => ({
    id: r.id,
    businessDate: r.businessDate,
    entryId: r.entryId,
    postedAt: r.postedAt.toISOString(),
    account: r.account,
    method: r.method,
    code: codeOfLine(codes, r.account, r.method),
    serviceDate: r.serviceDate,
    roomName: r.roomName,
    customerName: r.customerName,
    cashier: r.cashier,
    kind: r.kind,
    source: r.source,
    note: r.note === null ? '' : read(r.note, r.noteKey, r.noteParams),
    amount: Number(r.amount),
  }));
}

/** A page of the lines (the export of one page, and the export's check before it is queued). */
export async function generalLedgerPage(ctx: AuthedContext, filters: Record<string, unknown>, page: number, pageSize: number) {
  const { from, to } = rangeOf(ctx, filters);
  const hotelId = ctx.actor.hotelId;
  const entries = Prisma.sql`SELECT e."id" FROM "JournalEntry" e WHERE e."hotelId" = ${hotelId} AND e."businessDate" BETWEEN ${from} AND ${to}`;
  const [rows, total] = await Promise.all([
    ctx.deps.prisma.$queryRaw<Row[]>(linesOf(hotelId, entries, Prisma.sql` LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`)),
    countGeneralLedger(ctx, filters, 2_147_483_647),
  ]);
  return { items: await toLines(ctx, rows), total };
}

/**
 * The lines of the next `limit` entries after `after` (by business date and entry, from the first
 * when null): a chunk of the export is whole entries, so each one's lines balance in every chunk.
 */
export async function generalLedgerAfter(ctx: AuthedContext, filters: Record<string, unknown>, after: KeysetCursor | null, limit: number) {
  const { from, to } = rangeOf(ctx, filters);
  const hotelId = ctx.actor.hotelId;
  const keyset = after ? Prisma.sql` AND (e."businessDate", e."id") > (${after.at}, ${after.id})` : Prisma.empty;
  const entries = Prisma.sql`
    SELECT e."id" FROM "JournalEntry" e WHERE e."hotelId" = ${hotelId} AND e."businessDate" BETWEEN ${from} AND ${to}${keyset}
    ORDER BY e."businessDate", e."id" LIMIT ${limit}`;
  return toLines(ctx, await ctx.deps.prisma.$queryRaw<Row[]>(linesOf(hotelId, entries)));
}

/** How many lines the range holds, counted up to `cap`. */
export async function countGeneralLedger(ctx: AuthedContext, filters: Record<string, unknown>, cap: number): Promise<number> {
  const { from, to } = rangeOf(ctx, filters);
  const hotelId = ctx.actor.hotelId;
  const [row] = await ctx.deps.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
      WHERE e."hotelId" = ${hotelId} AND l."hotelId" = ${hotelId} AND e."businessDate" BETWEEN ${from} AND ${to} LIMIT ${cap}) x`;
  return row?.n ?? 0;
}
