import type { Deps } from '../../context';
import { lockLedgerDay } from '../../db/ledger-day-lock';
import { transaction, type Tx } from '../../db/transaction';
import { businessDateOf } from './business-date';
import { groupKey, type LedgerGroup } from './trial-balance-sums';
import { ledgerBooks } from './trial-balance';

/**
 * Checkpoints of the books (docs/journal.md "Checkpoints", decision 067): the end of a business date
 * whose trial balance tied, kept (LedgerCheckpoint) so that a later trial balance reads what came
 * after it instead of every line the hotel ever wrote. Kept by the day close (in its transaction,
 * after the no-shows it charged) and, for the day before, by the install's sweep and before a close.
 */

type Db = Deps['prisma'] | Tx;

/** The greatest journal line and order entry ids now (of every hotel: what is "written since" is read by id). */
async function greatestIds(db: Db): Promise<{ lineId: number; orderEntryId: number }> {
  const [row] = await db.$queryRaw<{ lineId: number | null; orderEntryId: number | null }[]>`
    SELECT (SELECT max("id") FROM "JournalLine") AS "lineId", (SELECT max("id") FROM "OrderEntry") AS "orderEntryId"`;
  return { lineId: row?.lineId ?? 0, orderEntryId: row?.orderEntryId ?? 0 };
}

/**
 * Keeps the end of `date` as a checkpoint: each group's closing balance, those left at zero dropped
 * but one line of each account and way of paying (so the trial balance still lists a way the hotel
 * used), with the ids read before the books were.
 */
async function save(db: Db, hotelId: number, date: string, groups: LedgerGroup[], ids: { lineId: number; orderEntryId: number }) {
  const closing = groups.map((g) => ({ account: g.account, method: g.method, shiftId: g.shiftId, amount: g.opening + g.debits + g.credits }));
  const kept = closing.filter((g) => g.amount !== 0);
  const ways = new Set(kept.map((g) => groupKey({ ...g, shiftId: null })));
  for (const g of closing) {
    const way = groupKey({ ...g, shiftId: null });
    if (ways.has(way)) continue;
    ways.add(way);
    kept.push({ ...g, shiftId: null, amount: 0 });
  }
  await db.ledgerCheckpoint.upsert({
    where: { hotelId_date: { hotelId, date } },
    create: { hotelId, date, ...ids, balances: kept },
    update: { ...ids, balances: kept, createdAt: new Date() },
  });
}

/**
 * In the day close's transaction, which holds the ledger's day lock (nothing is being posted) and
 * has closed `date`: keeps its end if its books tie.
 */
export async function checkpointInClose(tx: Tx, hotelId: number, date: string): Promise<void> {
  const ids = await greatestIds(tx);
  const { books, groups } = await ledgerBooks(tx, hotelId, date);
  if (books.ties) await save(tx, hotelId, date, groups, ids);
}

/**
 * Keeps the end of `date` as a checkpoint, outside any close: once the business date has passed it,
 * if its books tie and it has none. The day lock is taken and let go first, so every entry dated on
 * or before it has been committed (db/ledger-day-lock.ts); the ids are read before the books. The
 * first checkpoint of a hotel reads its whole journal (about a minute at 10,000 rooms and 3 years),
 * which is why the close keeps the day before's before its own transaction. Whether one is kept.
 */
export async function keepCheckpoint(deps: Deps, hotelId: number, date: string): Promise<boolean> {
  const { prisma } = deps;
  if (await prisma.ledgerCheckpoint.findUnique({ where: { hotelId_date: { hotelId, date } }, select: { date: true } })) return true;
  await transaction(deps, (tx) => lockLedgerDay(tx, hotelId));
  if ((await businessDateOf(prisma, hotelId)) <= date) return false;
  const ids = await greatestIds(prisma);
  const { books, groups } = await ledgerBooks(prisma, hotelId, date);
  if (!books.ties) return false;
  await save(prisma, hotelId, date, groups, ids);
  return true;
}
