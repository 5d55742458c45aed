import { ZJournalLinesInput, type TMoneyMethod, type TOrderEntryKind, type TJournalLinesInput } from '@console/shared';
import type { TJournalLine, TJournalLinesOutput } from '@console/shared/dto';
import { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { readerOf } from '../../infra/system-text';
import { requirePermission } from '../../permissions';

const n = (v: bigint | number | null | undefined) => Number(v ?? 0);

interface LineRow {
  id: number;
  entryId: number;
  source: string;
  postedAt: Date;
  amount: bigint;
  method: TMoneyMethod | null;
  shiftId: number | null;
  shiftOpenedAt: Date | null;
  shiftClosedAt: Date | null;
  cashier: string | null;
  serviceDate: string | null;
  folioId: number | null;
  stayId: number | null;
  roomName: string | null;
  guestId: number | null;
  guestName: string | null;
  customerId: number | null;
  customerName: string | null;
  orderId: number | null;
  kind: TOrderEntryKind | null;
  orderMethod: string | null;
  note: string | null;
  noteKey: string | null;
  noteParams: unknown;
  operator: string | null;
}

/**
 * `order.journalLines`, the trial balance's drill-down (docs/journal.md): the journal lines of one
 * business date on one account (for money: of one way of paying and one cashier shift, or of no
 * shift), in the order they were posted, a page at a time, with the sums of them all; each with its
 * entry and what it was for (the order entry, its stay, room and guest, or customer). For managers
 * of the whole hotel (`order.manage`); a shift of another hotel is not found.
 */
export async function journalLines(ctx: AuthedContext, raw: TJournalLinesInput): Promise<TJournalLinesOutput> {
  requirePermission(ctx.actor, 'order.manage', { wholeHotel: true });
  const input = ZJournalLinesInput.parse(raw);
  const { prisma } = ctx.deps;
  const hotelId = ctx.actor.hotelId;
  if (typeof input.shiftId === 'number' && !(await prisma.cashierShift.findFirst({ where: { hotelId, id: input.shiftId }, select: { id: true } }))) {
    throw new AppError('NOT_FOUND', { messageKey: 'shifts.errors.notFound' });
  }
  const where = Prisma.sql`e."hotelId" = ${hotelId} AND e."businessDate" = ${input.date} AND l."hotelId" = ${hotelId}
    AND l."account" = ${input.account}::"LedgerAccount"
    ${input.method ? Prisma.sql`AND l."method" = ${input.method}::"PaymentMethod"` : Prisma.empty}
    ${input.shiftId === null ? Prisma.sql`AND l."shiftId" IS NULL` : input.shiftId !== undefined ? Prisma.sql`AND l."shiftId" = ${input.shiftId}` : Prisma.empty}`;
  const [[sums], rows] = await Promise.all([
    prisma.$queryRaw<{ total: number; debits: bigint | null; credits: bigint | null }[]>`
      SELECT count(*)::int AS "total", sum(l."amount") FILTER (WHERE l."amount" > 0) AS "debits", sum(l."amount") FILTER (WHERE l."amount" < 0) AS "credits"
      FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId" WHERE ${where}`,
    prisma.$queryRaw<LineRow[]>`
      WITH page AS (
        SELECT l."id" FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE ${where} ORDER BY e."postedAt", e."id", l."id" LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize})
      SELECT l."id", l."journalEntryId" AS "entryId", e."source", e."postedAt", l."amount", l."method"::text AS "method",
        l."shiftId", sh."openedAt" AS "shiftOpenedAt", sh."closedAt" AS "shiftClosedAt",
        coalesce(nullif(ca."nickname", ''), ca."mobile", ca."email") AS "cashier", l."serviceDate",
        coalesce(l."folioId", e."folioId") AS "folioId", s."id" AS "stayId", r."name" AS "roomName", g."id" AS "guestId", g."name" AS "guestName",
        c."id" AS "customerId", coalesce(nullif(c."nickname", ''), c."mobile", c."email") AS "customerName",
        oe."id" AS "orderId", oe."kind"::text AS "kind", oe."method"::text AS "orderMethod", oe."note", oe."noteKey", oe."noteParams",
        coalesce(nullif(op."nickname", ''), op."mobile", op."email") AS "operator"
      FROM page JOIN "JournalLine" l ON l."id" = page."id" JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
      LEFT JOIN "OrderEntry" oe ON oe."id" = e."orderEntryId" AND oe."hotelId" = e."hotelId"
      LEFT JOIN "Folio" f ON f."id" = coalesce(l."folioId", e."folioId") AND f."hotelId" = e."hotelId"
      LEFT JOIN "Stay" s ON s."id" = coalesce(oe."stayId", f."stayId") AND s."hotelId" = e."hotelId"
      LEFT JOIN "Room" r ON r."id" = s."roomId" AND r."hotelId" = e."hotelId"
      LEFT JOIN LATERAL (
        SELECT sg."id", sg."name" FROM "StayGuest" sg WHERE sg."hotelId" = e."hotelId" AND sg."stayId" = s."id" ORDER BY sg."isPrimary" DESC, sg."id" LIMIT 1
      ) g ON true
      LEFT JOIN "Customer" c ON c."id" = coalesce(l."customerId", oe."customerId") AND c."hotelId" = e."hotelId"
      LEFT JOIN "CashierShift" sh ON sh."id" = l."shiftId" AND sh."hotelId" = e."hotelId"
      LEFT JOIN "Account" ca ON ca."id" = sh."accountId"
      LEFT JOIN "Account" op ON op."id" = oe."createdByAccountId"
      ORDER BY e."postedAt", e."id", l."id"`,
  ]);
  const read = readerOf(ctx);
  return {
    items: rows.map((r) => toLine(r, read)),
    total: sums?.total ?? 0,
    page: input.page,
    pageSize: input.pageSize,
    debits: n(sums?.debits),
    credits: n(sums?.credits),
  };
}

function toLine(r: LineRow, read: ReturnType<typeof readerOf>): TJournalLine {
  return {
    id: r.id,
    entryId: r.entryId,
    source: r.source,
    postedAt: r.postedAt.toISOString(),
    amount: n(r.amount),
    method: r.method,
    shift:
      r.shiftId !== null && r.shiftOpenedAt
        ? { id: r.shiftId, cashier: r.cashier ?? '', openedAt: r.shiftOpenedAt.toISOString(), closedAt: r.shiftClosedAt?.toISOString() ?? null }
        : null,
    serviceDate: r.serviceDate,
    folioId: r.folioId,
    stayId: r.stayId,
    roomName: r.roomName,
    guestId: r.guestId,
    guestName: r.guestName,
    customerId: r.customerId,
    customerName: r.customerName,
    order:
      r.orderId !== null && r.kind
        ? { id: r.orderId, kind: r.kind, method: r.orderMethod, note: read(r.note ?? '', r.noteKey, r.noteParams), operator: r.operator }
        : null,
  };
}
