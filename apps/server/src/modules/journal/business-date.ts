import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';

/**
 * The business date (docs/journal.md "The business date"): the day a hotel's books are open on at an
 * instant, the database's `Hotel_business_date` (migration 20261214100000_business_date), the same
 * rule that dates every journal entry. The calendar date, except in the night before the audit hour
 * while the day before is not closed.
 */
export async function businessDateOf(db: TPrisma | Tx, hotelId: number, at: Date = new Date()): Promise<string> {
  const [row] = await db.$queryRaw<{ date: string | null }[]>`SELECT "Hotel_business_date"(${hotelId}::int, ${at}::timestamptz)::text AS "date"`;
  if (!row?.date) throw new Error(`no hotel ${hotelId}`);
  return row.date;
}
