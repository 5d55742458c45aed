import { heldInTransaction } from './events';
import type { Tx } from './transaction';

/**
 * The lock between the ledger's writes and a day close (`pg_advisory_xact_lock`'s two keys: this
 * class and the hotel; modules/reports/day-close.ts, kept-sums.ts): every entry takes it shared before it is
 * dated, the close exclusively, so an entry is either committed before the close computes the day
 * or dated after the close began.
 */
export const LEDGER_DAY_LOCK = 26_002;

export async function lockLedgerDayShared(tx: Tx, hotelId: number): Promise<void> {
  // Held until the transaction ends: a second entry of the same transaction needs no second round trip.
  if (heldInTransaction(tx, `ledger-day:${hotelId}`)) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(${LEDGER_DAY_LOCK}::int, ${hotelId}::int)`;
}

export async function lockLedgerDay(tx: Tx, hotelId: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LEDGER_DAY_LOCK}::int, ${hotelId}::int)`;
}
