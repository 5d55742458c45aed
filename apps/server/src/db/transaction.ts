import { setTimeout as sleep } from 'node:timers/promises';
import { Prisma } from '../generated/prisma/client';
import type { Deps } from '../context';
import { AppError } from '../errors';
import { databaseConstraint } from './errors';
import { collectEvents, newFollowUps, publishEvents, writeRecorded } from './events';

export type Tx = Prisma.TransactionClient;

/** SQLSTATEs after which the whole transaction can simply run again: serialization failure, deadlock. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
/** Prisma's codes for the same (P2034), and for a transaction that could not start or ran out of time (P2028). */
const RETRYABLE_PRISMA_CODES = new Set(['P2034', 'P2028']);

export function isRetryableTransactionError(error: unknown): boolean {
  if (error instanceof AppError) return false;
  const sqlState = databaseConstraint(error)?.code;
  if (sqlState && RETRYABLE_SQLSTATES.has(sqlState)) return true;
  if (error instanceof Prisma.PrismaClientKnownRequestError) return RETRYABLE_PRISMA_CODES.has(error.code);
  // The driver adapter reports a transaction that expired or closed under it with a plain error.
  return error instanceof Error && /Transaction (already closed|not found|API error)|expired transaction/i.test(error.message);
}

/**
 * Runs `fn` in one database transaction, the one way every write of the domain does
 * (docs/decisions/009-concurrent-writes.md):
 * - rows that decide the outcome are locked first, in a fixed order (`lockRooms`), so racing
 *   writes queue instead of deadlocking;
 * - a serialization failure, a deadlock, or a transaction that could not start in time
 *   (a saturated pool) is retried a bounded number of times with a jittered backoff, since the
 *   failed attempt was rolled back as a whole;
 * - when retrying does not help, the caller gets SERVICE_UNAVAILABLE ("busy, try again"), never
 *   an unexplained server error. AppErrors thrown by `fn` (a conflict, a rule) pass unchanged;
 * - the domain events `fn` records (`recordEvent(tx, ...)`, docs/events.md) are published after
 *   the commit, and only then: a rolled-back write sends none; then the work `fn` asked to follow
 *   the commit (`afterCommit`, e.g. credentials carried to the locks) runs, before this returns.
 */
export async function transaction<T>(deps: Pick<Deps, 'prisma' | 'config' | 'log' | 'redis' | 'key'>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const { attempts, maxWaitMs, timeoutMs } = deps.config.db.transactions;
  for (let attempt = 1; ; attempt += 1) {
    // The domain events this attempt records (`recordEvent`) and the work to follow its commit
    // (`afterCommit`); a failed attempt's are dropped with it.
    const gathered = newFollowUps();
    try {
      const result = await deps.prisma.$transaction(
        async (tx) => {
          collectEvents(tx, gathered);
          const done = await fn(tx);
          // The events and audit rows `fn` recorded, written together before the commit.
          await writeRecorded(tx);
          return done;
        },
        { maxWait: maxWaitMs, timeout: timeoutMs },
      );
      if (gathered.events.length > 0) await publishEvents(deps, gathered.events);
      for (const [key, work] of gathered.afterCommit) {
        try {
          await work();
        } catch (error) {
          deps.log.warn({ err: error, key }, 'work after a commit failed; the sweeps catch up');
        }
      }
      return result;
    } catch (error) {
      if (!isRetryableTransactionError(error)) throw error;
      if (attempt >= attempts) {
        deps.log.warn({ err: error, attempts }, 'transaction kept failing; answering busy');
        throw new AppError('SERVICE_UNAVAILABLE', { messageKey: 'errors.BUSY', cause: error });
      }
      await sleep(Math.round(10 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}

/**
 * Locks rooms of a hotel for the rest of the transaction, in id order (so two writes that need
 * the same rooms never deadlock). Every write that decides by a room's stays (check-in, arrival,
 * renewal, room change, check-out) or rewrites its prices takes this lock first.
 */
export async function lockRooms(tx: Tx, hotelId: number, roomIds: number[]): Promise<void> {
  const ids = [...new Set(roomIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await tx.$queryRaw`SELECT "id" FROM "Room" WHERE "hotelId" = ${hotelId} AND "id" = ANY(${ids}::int[]) ORDER BY "id" FOR NO KEY UPDATE`;
}

/** Locks one row of a hotel-owned table by id for the rest of the transaction. */
export async function lockRow(tx: Tx, table: 'PriceTemplate' | 'Stay' | 'Customer' | 'RoomGroup', hotelId: number, id: number): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT "id" FROM "${table}" WHERE "hotelId" = $1 AND "id" = $2 FOR NO KEY UPDATE`, hotelId, id);
}
