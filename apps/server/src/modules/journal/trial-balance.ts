import { LEDGER_ACCOUNTS, ZTrialBalanceInput } from '@console/shared';
import type { TTrialBalance } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import type { Tx } from '../../db/transaction';
import { requirePermission } from '../../permissions';
import { moneyRowsOf, offCustomersOf, offFoliosOf } from './trial-balance-details';
import { checkpointBefore, customersOff, foliosOff, ledgerGroups, type LedgerGroup } from './trial-balance-sums';

type Db = AuthedContext['deps']['prisma'] | Tx;
/** The books of a business date and their checks: what the night audit's close reads (the page's details aside). */
export type TrialBalanceBooks = Omit<TTrialBalance, 'currency' | 'money' | 'offFolios' | 'offCustomers' | 'closed'>;
const n = (v: bigint | number | null | undefined) => Number(v ?? 0);

/**
 * The trial balance of a business date (docs/journal.md), with its ledger groups: per account, its
 * balance before the day, the day's debits and credits, and its balance after, from the latest
 * checkpoint before the day and the lines since (trial-balance-sums.ts); and the checks that the
 * books tie: the accounts sum to zero, each folio's ledgers equal its bill's entries, each customer's
 * balance equals the one their entries give (those moved since the checkpoint: the others tied then).
 */
export async function ledgerBooks(db: Db, hotelId: number, date: string): Promise<{ books: TrialBalanceBooks; groups: LedgerGroup[] }> {
  const from = await checkpointBefore(db, hotelId, date);
  const [groups, night, folios, customers] = await Promise.all([
    ledgerGroups(db, hotelId, date, from),
    db.$queryRaw<{ amount: bigint | null }[]>`
      SELECT -sum(l."amount") AS "amount" FROM "JournalLine" l
      WHERE l."hotelId" = ${hotelId} AND l."serviceDate" = ${date} AND l."account" = 'revenue_rooms'`,
    foliosOff(db, hotelId, date, from),
    customersOff(db, hotelId, date, from),
  ]);
  const rows = LEDGER_ACCOUNTS.map((account) => {
    const of = groups.filter((g) => g.account === account);
    const opening = of.reduce((sum, g) => sum + g.opening, 0);
    const debits = of.reduce((sum, g) => sum + g.debits, 0);
    const credits = of.reduce((sum, g) => sum + g.credits, 0);
    return { account, opening, debits, credits, closing: opening + debits + credits };
  });
  const total = (k: 'opening' | 'debits' | 'credits' | 'closing') => rows.reduce((sum, r) => sum + r[k], 0);
  const totals = { opening: total('opening'), debits: total('debits'), credits: total('credits'), closing: total('closing') };
  const checks = { balanced: totals.opening === 0 && totals.closing === 0, foliosOff: folios, customersOff: customers };
  const books = {
    date,
    rows,
    totals,
    roomRevenueOfNight: n(night[0]?.amount),
    checks,
    ties: checks.balanced && checks.foliosOff.length === 0 && checks.customersOff.length === 0,
  };
  return { books, groups };
}

/** The trial balance of a business date and its checks: what the night audit's close reads. */
export async function trialBalanceOf(db: Db, hotelId: number, date: string): Promise<TrialBalanceBooks> {
  return (await ledgerBooks(db, hotelId, date)).books;
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
  const [{ books, groups }, closed] = await Promise.all([
    ledgerBooks(prisma, hotelId, date),
    prisma.dayClose.findUnique({ where: { hotelId_date: { hotelId, date } }, select: { id: true } }),
  ]);
  const money = await moneyRowsOf(prisma, hotelId, groups);
  const [offFolios, offCustomers] = await Promise.all([
    offFoliosOf(prisma, hotelId, date, books.checks.foliosOff),
    offCustomersOf(prisma, hotelId, date, books.checks.customersOff),
  ]);
  return { ...books, currency: ctx.actor.currency, money, offFolios, offCustomers, closed: closed !== null };
}
