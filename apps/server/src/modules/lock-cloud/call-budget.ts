import { LOCK_CALL_BUDGET } from '@console/shared';
import type { Deps } from '../../context';

/**
 * The calls each lock account makes to the lock cloud, counted per day and per month in Redis
 * (every process of the install counts into the same keys), in TTLock's calendar: its monthly
 * quota turns over on the first of the month, Beijing time (UTC+8, no daylight saving).
 */

const BEIJING_OFFSET_MS = 8 * 3_600_000;

function beijing(now: number): { day: string; month: string } {
  const iso = new Date(now + BEIJING_OFFSET_MS).toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7) };
}

/** The first instant of the next month, Beijing time: when TTLock's monthly limit lifts. */
export function nextQuotaMonth(now: number): Date {
  const b = new Date(now + BEIJING_OFFSET_MS);
  return new Date(Date.UTC(b.getUTCFullYear(), b.getUTCMonth() + 1, 1) - BEIJING_OFFSET_MS);
}

const keys = (deps: Deps, accountId: number, now: number) => {
  const { day, month } = beijing(now);
  return { day: deps.key('lock-calls', accountId, 'd', day), month: deps.key('lock-calls', accountId, 'm', month) };
};

/** Counts calls of an account (fire and forget: a count lost to a Redis hiccup loses nothing else). */
export function countLockCall(deps: Deps, accountId: number, now = Date.now(), calls = 1): Promise<unknown> {
  const k = keys(deps, accountId, now);
  return deps.redis
    .multi()
    .incrby(k.day, calls)
    .expire(k.day, 3 * 24 * 3600)
    .incrby(k.month, calls)
    .expire(k.month, 40 * 24 * 3600)
    .exec()
    .catch((error: unknown) => deps.log.warn({ err: error, accountId }, 'could not count a lock-cloud call'));
}

/**
 * Calls counted in this process and not yet written: a lock-cloud call adds to them, and they are
 * written to Redis within COUNT_FLUSH_MS (one round trip for all calls of that moment instead of
 * one per call), and at once before counts are read here. A process that dies loses at most that
 * moment's counts: the budget is a guide, TTLock's own limits stay enforced by its answers.
 */
const COUNT_FLUSH_MS = 1_000;
const unwritten = new WeakMap<Deps, { counts: Map<number, number>; timer: NodeJS.Timeout | null }>();

export function noteLockCall(deps: Deps, accountId: number): void {
  let acc = unwritten.get(deps);
  if (!acc) unwritten.set(deps, (acc = { counts: new Map(), timer: null }));
  acc.counts.set(accountId, (acc.counts.get(accountId) ?? 0) + 1);
  if (!acc.timer) {
    acc.timer = setTimeout(() => void flushLockCalls(deps), COUNT_FLUSH_MS);
    acc.timer.unref();
  }
}

/** Writes the calls this process counted and has not written yet. */
export async function flushLockCalls(deps: Deps, now = Date.now()): Promise<void> {
  const acc = unwritten.get(deps);
  if (!acc || acc.counts.size === 0) return;
  if (acc.timer) clearTimeout(acc.timer);
  acc.timer = null;
  const counts = [...acc.counts];
  acc.counts.clear();
  const multi = deps.redis.multi();
  for (const [accountId, calls] of counts) {
    const k = keys(deps, accountId, now);
    multi
      .incrby(k.day, calls)
      .expire(k.day, 3 * 24 * 3600)
      .incrby(k.month, calls)
      .expire(k.month, 40 * 24 * 3600);
  }
  await multi.exec().catch((error: unknown) => deps.log.warn({ err: error }, 'could not count lock-cloud calls'));
}

export interface CallCounts {
  today: number;
  month: number;
}

export async function lockCallCounts(deps: Deps, accountIds: number[], now = Date.now()): Promise<Map<number, CallCounts>> {
  const result = new Map<number, CallCounts>();
  if (accountIds.length === 0) return result;
  await flushLockCalls(deps);
  const all = accountIds.flatMap((id) => {
    const k = keys(deps, id, now);
    return [k.day, k.month];
  });
  const values = await deps.redis.mget(...all);
  accountIds.forEach((id, i) => result.set(id, { today: Number(values[2 * i] ?? 0), month: Number(values[2 * i + 1] ?? 0) }));
  return result;
}

export type TBudgetState = 'ok' | 'warning' | 'over';

/** `warning` from LOCK_CALL_BUDGET.warnAtPercent of the budget, `over` at it. */
export function budgetState(month: number, budget: number): TBudgetState {
  if (month >= budget) return 'over';
  return month * 100 >= budget * LOCK_CALL_BUDGET.warnAtPercent ? 'warning' : 'ok';
}

/**
 * Whether the account's background reads (status, record polling, reconciliation) still run this
 * month: not once its calls reached its budget. Deliveries, unlocks and what people ask for go on.
 */
export async function withinBudget(deps: Deps, account: { id: number; monthlyBudget: number }, now = Date.now()): Promise<boolean> {
  const counts = (await lockCallCounts(deps, [account.id], now)).get(account.id);
  return (counts?.month ?? 0) < account.monthlyBudget;
}
