import { MONEY_METHODS, type TMoneyMethod } from '@console/shared';
import type { TTrialBalance, TTrialBalanceMoneyRow } from '@console/shared/dto';
import { Prisma } from '../../generated/prisma/client';
import type { LedgerGroup } from './trial-balance-sums';
import type { AuthedContext } from '../../context';

type Db = AuthedContext['deps']['prisma'];
const n = (v: bigint | number | null | undefined) => Number(v ?? 0);
/** The folios and customers of a check named on the page, at most (the check's ids are all there). */
export const OFF_SHOWN = 50;

type Figures = { opening: number; debits: number; credits: number; closing: number };
const zero = (): Figures => ({ opening: 0, debits: 0, credits: 0, closing: 0 });
const add = (a: Figures, b: Figures) => {
  a.opening += b.opening;
  a.debits += b.debits;
  a.credits += b.credits;
  a.closing += b.closing;
};

/**
 * The money account of a business date per way of paying, with the day's cashier shifts apart: a
 * shift (or the way's lines of no shift) with a movement that day is a row of its own; what the
 * other shifts hold (those of earlier days) is `others`, so the rows sum to the way's figures.
 */
export async function moneyRowsOf(db: Db, hotelId: number, groups: LedgerGroup[]): Promise<TTrialBalanceMoneyRow[]> {
  const sums = groups.filter((g) => g.account === 'money' && g.method !== null) as (LedgerGroup & { method: TMoneyMethod })[];
  const moved = sums.filter((s) => n(s.debits) !== 0 || n(s.credits) !== 0);
  const shiftIds = [...new Set(moved.map((s) => s.shiftId).filter((id): id is number => id !== null))];
  const shifts = await shiftsOf(db, hotelId, shiftIds);
  return MONEY_METHODS.flatMap((method) => {
    const lines = sums.filter((s) => s.method === method);
    if (lines.length === 0) return [];
    const way = zero();
    const others = zero();
    const rows: TTrialBalanceMoneyRow['shifts'] = [];
    for (const s of lines) {
      const f = { opening: n(s.opening), debits: n(s.debits), credits: n(s.credits), closing: n(s.opening) + n(s.debits) + n(s.credits) };
      add(way, f);
      if (f.debits !== 0 || f.credits !== 0) rows.push({ ...f, shift: s.shiftId === null ? null : (shifts.get(s.shiftId) ?? null) });
      else add(others, f);
    }
    // The way's lines of no shift first, then the shifts as they opened.
    rows.sort((a, b) => (a.shift?.openedAt ?? '').localeCompare(b.shift?.openedAt ?? '') || (a.shift?.id ?? 0) - (b.shift?.id ?? 0));
    return [{ method, ...way, shifts: rows, others }];
  });
}

/** The cashier shifts of these ids in the hotel, named by their cashier. */
export async function shiftsOf(db: Db, hotelId: number, ids: number[]) {
  if (ids.length === 0) return new Map<number, { id: number; cashier: string; openedAt: string; closedAt: string | null }>();
  const rows = await db.cashierShift.findMany({
    where: { hotelId, id: { in: ids } },
    select: { id: true, openedAt: true, closedAt: true, account: { select: { nickname: true, mobile: true, email: true } } },
  });
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        cashier: r.account.nickname || r.account.mobile || r.account.email || '',
        openedAt: r.openedAt.toISOString(),
        closedAt: r.closedAt?.toISOString() ?? null,
      },
    ]),
  );
}

/**
 * What is off in the folios the check names (the first OFF_SHOWN): each one's ledgers in the journal
 * and what its bill's entries say they should hold, and where it is (its visit's stay, room and
 * guest, for the page's link). The sums are the check's own (trial-balance.ts).
 */
export async function offFoliosOf(db: Db, hotelId: number, date: string, folioIds: number[]): Promise<TTrialBalance['offFolios']> {
  const ids = folioIds.slice(0, OFF_SHOWN);
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<
    {
      folioId: number;
      journal: bigint | null;
      bill: bigint | null;
      stayId: number | null;
      roomName: string | null;
      guestId: number | null;
      guestName: string | null;
    }[]
  >`
    WITH j AS (
      SELECT l."folioId", sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
      WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" IN ('guest', 'deposit', 'receivable') AND l."folioId" IN (${Prisma.join(ids)})
      GROUP BY l."folioId"),
    o AS (
      SELECT oe."folioId", -sum(oe."amount") AS s FROM "OrderEntry" oe
      LEFT JOIN "JournalEntry" e ON e."orderEntryId" = oe."id" JOIN "Hotel" h ON h."id" = oe."hotelId"
      WHERE oe."hotelId" = ${hotelId} AND oe."folioId" IN (${Prisma.join(ids)})
        AND coalesce(e."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD')) <= ${date}
      GROUP BY oe."folioId")
    SELECT f."id" AS "folioId", j.s AS "journal", o.s AS "bill", s."id" AS "stayId", r."name" AS "roomName", g."id" AS "guestId", g."name" AS "guestName"
    FROM "Folio" f
    LEFT JOIN j ON j."folioId" = f."id" LEFT JOIN o ON o."folioId" = f."id"
    LEFT JOIN LATERAL (
      SELECT st."id", st."roomId" FROM "Stay" st WHERE st."hotelId" = f."hotelId" AND st."visitStayId" = f."stayId" ORDER BY st."checkInAt" DESC, st."id" DESC LIMIT 1
    ) latest ON true
    LEFT JOIN "Stay" s ON s."id" = coalesce(latest."id", f."stayId")
    LEFT JOIN "Room" r ON r."id" = s."roomId" AND r."hotelId" = f."hotelId"
    LEFT JOIN LATERAL (
      SELECT sg."id", sg."name" FROM "StayGuest" sg WHERE sg."hotelId" = f."hotelId" AND sg."stayId" = s."id" ORDER BY sg."isPrimary" DESC, sg."id" LIMIT 1
    ) g ON true
    WHERE f."hotelId" = ${hotelId} AND f."id" IN (${Prisma.join(ids)})
    ORDER BY f."id"`;
  return rows.map((r) => ({
    folioId: r.folioId,
    journal: n(r.journal),
    bill: n(r.bill),
    stayId: r.stayId,
    roomName: r.roomName,
    guestId: r.guestId,
    guestName: r.guestName,
  }));
}

/** What is off in the customers the check names (the first OFF_SHOWN): their balance in the journal and the one their entries give. */
export async function offCustomersOf(db: Db, hotelId: number, date: string, customerIds: number[]): Promise<TTrialBalance['offCustomers']> {
  const ids = customerIds.slice(0, OFF_SHOWN);
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<{ customerId: number; name: string; journal: bigint | null; entries: bigint | null }[]>`
    WITH j AS (
      SELECT l."customerId", -sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
      WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" = 'customer_balance' AND l."customerId" IN (${Prisma.join(ids)})
      GROUP BY l."customerId"),
    o AS (
      SELECT oe."customerId", sum(CASE WHEN oe."folioId" IS NULL THEN oe."amount" ELSE -oe."amount" END) AS s
      FROM "OrderEntry" oe LEFT JOIN "JournalEntry" e ON e."orderEntryId" = oe."id" JOIN "Hotel" h ON h."id" = oe."hotelId"
      WHERE oe."hotelId" = ${hotelId} AND oe."customerId" IN (${Prisma.join(ids)}) AND (oe."folioId" IS NULL OR oe."method" = 'balance')
        AND coalesce(e."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD')) <= ${date}
      GROUP BY oe."customerId")
    SELECT c."id" AS "customerId", coalesce(nullif(c."nickname", ''), c."mobile", c."email", '') AS "name", j.s AS "journal", o.s AS "entries"
    FROM "Customer" c LEFT JOIN j ON j."customerId" = c."id" LEFT JOIN o ON o."customerId" = c."id"
    WHERE c."hotelId" = ${hotelId} AND c."id" IN (${Prisma.join(ids)})
    ORDER BY c."id"`;
  return rows.map((r) => ({ customerId: r.customerId, name: r.name, journal: n(r.journal), entries: n(r.entries) }));
}
