import { LEDGER_ACCOUNTS, ZTrialBalanceInput, type TLedgerAccount } from '@console/shared';
import type { TTrialBalance } from '@console/shared/dto';
import type { z } from 'zod';
import { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import type { Tx } from '../../db/transaction';
import { requirePermission } from '../../permissions';
import { moneyRowsOf, offCustomersOf, offFoliosOf } from './trial-balance-details';

type Db = AuthedContext['deps']['prisma'] | Tx;
/** The books of a business date and their checks: what the night audit's close reads (the page's details aside). */
export type TrialBalanceBooks = Omit<TTrialBalance, 'currency' | 'money' | 'offFolios' | 'offCustomers' | 'closed'>;
const n = (v: bigint | number | null | undefined) => Number(v ?? 0);

// An order entry's journal entry, if it has one, and its hotel: an entry the journal lacks (written with
// the journal's triggers off: a restore, a bad import) is the documents' by the day it was written, and
// puts its folio or customer off.
const posted = Prisma.sql`LEFT JOIN "JournalEntry" e ON e."orderEntryId" = oe."id" JOIN "Hotel" h ON h."id" = oe."hotelId"`;
const postedBy = (date: string) => Prisma.sql`coalesce(e."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD')) <= ${date}`;

/**
 * The trial balance of a business date (docs/journal.md): per account, its balance before the
 * day, the day's debits and credits, and its balance after, summed from the journal's lines; and
 * the checks that the books tie: the accounts sum to zero, each folio's ledgers equal its bill's
 * entries, each customer's balance equals the one their entries give.
 */
export async function trialBalanceOf(db: Db, hotelId: number, date: string): Promise<TrialBalanceBooks> {
  const [sums, night, folios, customers] = await Promise.all([
    db.$queryRaw<{ account: TLedgerAccount; opening: bigint; debits: bigint; credits: bigint }[]>`
      SELECT l."account",
        coalesce(sum(l."amount") FILTER (WHERE e."businessDate" < ${date}), 0) AS "opening",
        coalesce(sum(l."amount") FILTER (WHERE e."businessDate" = ${date} AND l."amount" > 0), 0) AS "debits",
        coalesce(sum(l."amount") FILTER (WHERE e."businessDate" = ${date} AND l."amount" < 0), 0) AS "credits"
      FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
      WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date}
      GROUP BY l."account"`,
    db.$queryRaw<{ amount: bigint | null }[]>`
      SELECT -sum(l."amount") AS "amount" FROM "JournalLine" l
      WHERE l."hotelId" = ${hotelId} AND l."serviceDate" = ${date} AND l."account" = 'revenue_rooms'`,
    // The journal against the documents: a folio's guest, deposit and receivable ledgers hold the opposite of its bill's balance.
    db.$queryRaw<{ folioId: number }[]>`
      WITH j AS (
        SELECT l."folioId", sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" IN ('guest', 'deposit', 'receivable')
        GROUP BY l."folioId"),
      o AS (
        SELECT oe."folioId", -sum(oe."amount") AS s FROM "OrderEntry" oe ${posted}
        WHERE oe."hotelId" = ${hotelId} AND oe."folioId" IS NOT NULL AND ${postedBy(date)}
        GROUP BY oe."folioId")
      SELECT "folioId" FROM j FULL JOIN o USING ("folioId") WHERE coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`,
    // A customer's balance: recharges and their refunds as they are, money taken for a stay the other way round (docs/orders.md).
    db.$queryRaw<{ customerId: number }[]>`
      WITH j AS (
        SELECT l."customerId", -sum(l."amount") AS s FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
        WHERE e."hotelId" = ${hotelId} AND e."businessDate" <= ${date} AND l."account" = 'customer_balance'
        GROUP BY l."customerId"),
      o AS (
        SELECT oe."customerId", sum(CASE WHEN oe."folioId" IS NULL THEN oe."amount" ELSE -oe."amount" END) AS s
        FROM "OrderEntry" oe ${posted}
        WHERE oe."hotelId" = ${hotelId} AND oe."customerId" IS NOT NULL AND (oe."folioId" IS NULL OR oe."method" = 'balance') AND ${postedBy(date)}
        GROUP BY oe."customerId")
      SELECT "customerId" FROM j FULL JOIN o USING ("customerId") WHERE coalesce(j.s, 0) <> coalesce(o.s, 0) ORDER BY 1`,
  ]);
  const byAccount = new Map(sums.map((s) => [s.account, s]));
  const rows = LEDGER_ACCOUNTS.map((account) => {
    const s = byAccount.get(account);
    const opening = n(s?.opening);
    const debits = n(s?.debits);
    const credits = n(s?.credits);
    return { account, opening, debits, credits, closing: opening + debits + credits };
  });
  const total = (k: 'opening' | 'debits' | 'credits' | 'closing') => rows.reduce((sum, r) => sum + r[k], 0);
  const totals = { opening: total('opening'), debits: total('debits'), credits: total('credits'), closing: total('closing') };
  const checks = {
    balanced: totals.opening === 0 && totals.closing === 0,
    foliosOff: folios.map((f) => f.folioId),
    customersOff: customers.map((c) => c.customerId),
  };
  return {
    date,
    rows,
    totals,
    roomRevenueOfNight: n(night[0]?.amount),
    checks,
    ties: checks.balanced && checks.foliosOff.length === 0 && checks.customersOff.length === 0,
  };
}

/**
 * `order.trialBalance`: a manager's trial balance of one business date, as the page shows it: the
 * books and their checks, the money account per way of paying and cashier shift, what is off in
 * the folios and customers a check names, and whether the day is closed.
 */
export async function trialBalance(ctx: AuthedContext, raw: z.input<typeof ZTrialBalanceInput>): Promise<TTrialBalance> {
  requirePermission(ctx.actor, 'order.manage', { wholeHotel: true });
  const { date } = ZTrialBalanceInput.parse(raw);
  const { prisma } = ctx.deps;
  const hotelId = ctx.actor.hotelId;
  const [books, money, closed] = await Promise.all([
    trialBalanceOf(prisma, hotelId, date),
    moneyRowsOf(prisma, hotelId, date),
    prisma.dayClose.findUnique({ where: { hotelId_date: { hotelId, date } }, select: { id: true } }),
  ]);
  const [offFolios, offCustomers] = await Promise.all([
    offFoliosOf(prisma, hotelId, date, books.checks.foliosOff),
    offCustomersOf(prisma, hotelId, date, books.checks.customersOff),
  ]);
  return { ...books, currency: ctx.actor.currency, money, offFolios, offCustomers, closed: closed !== null };
}
