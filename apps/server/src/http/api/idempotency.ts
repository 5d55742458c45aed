import { createHash } from 'node:crypto';
import type { Deps } from '../../context';
import { AppError } from '../../errors';

/** How long a write's answer is kept for its replays. */
export const REPLAY_SECONDS = 24 * 3600;
/** How long a write may hold its key while it runs (a crashed server's key frees itself then). */
const RUNNING_SECONDS = 120;
const WAIT_STEP_MS = 25;

interface Stored {
  fingerprint: string;
  state: 'running' | 'done';
  status?: number;
  body?: string;
}

export interface Replayable {
  status: number;
  body: string;
}

/** What makes two writes "the same request": the method, the path and the body. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * `Idempotency-Key` of the JSON API's writes, per API key, in Redis: the first request with a key
 * runs and its answer (a success) is kept for a day; a replay answers it again without running;
 * a copy sent while the first still runs waits for its answer (two identical requests at once, one
 * effect). The same key with another request is a conflict. A write that failed keeps nothing: it
 * may be sent again. (A reservation also keeps its key in the database, for good: reservation.ts.)
 */
export async function withIdempotency(
  deps: Deps,
  apiKeyId: number,
  key: string,
  fingerprint: string,
  run: () => Promise<Replayable>,
): Promise<Replayable & { replayed: boolean }> {
  const redisKey = deps.key('api', 'idem', apiKeyId, key);
  const mine: Stored = { fingerprint, state: 'running' };
  const deadline = Date.now() + RUNNING_SECONDS * 1000;
  for (;;) {
    const taken = await deps.redis.set(redisKey, JSON.stringify(mine), 'EX', RUNNING_SECONDS, 'NX');
    if (taken === 'OK') break;
    const raw = await deps.redis.get(redisKey);
    if (raw === null) continue; // the first one failed and let go: this one runs
    const stored = JSON.parse(raw) as Stored;
    if (stored.fingerprint !== fingerprint) throw new AppError('CONFLICT', { details: { idempotencyKey: 'used_for_another_request' } });
    if (stored.state === 'done') return { status: stored.status!, body: stored.body!, replayed: true };
    if (Date.now() > deadline) throw new AppError('DUPLICATE_REQUEST');
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  let result: Replayable;
  try {
    result = await run();
  } catch (error) {
    await deps.redis.del(redisKey);
    throw error;
  }
  const done: Stored = { fingerprint, state: 'done', status: result.status, body: result.body };
  await deps.redis.set(redisKey, JSON.stringify(done), 'EX', REPLAY_SECONDS);
  return { ...result, replayed: false };
}
