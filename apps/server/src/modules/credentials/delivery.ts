import { randomUUID } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import type { Deps } from '../../context';
import type { TDeliveryError } from '@console/shared';
import { LockProviderError, type LockProvider } from '../../infra/locks/provider';
import { CREDENTIAL_KINDS, credentialKind, DeliveryFailure, type CredentialKind, type DeliveryRow } from './delivery-kinds';

/**
 * The delivery engine (docs/credential-delivery.md): a credential row holds what the lock should
 * hold (`pending`: put it there; `removing`: take it off); a job per credential version makes the
 * lock agree, one write per lock at a time, and records only what the lock confirmed.
 */

export interface DeliveryJobData {
  kind: CredentialKind;
  id: number;
  version: number;
}

/** The job of one version of one credential: adding it twice is a no-op (BullMQ ids are unique). */
export function deliveryJobId(kind: CredentialKind, id: number, version: number): string {
  return `${kind}-${id}-v${version}`;
}

/** Queues the delivery of these credential versions. Safe to call any number of times. */
export async function enqueueDeliveries(deps: Deps, rows: readonly DeliveryJobData[]): Promise<void> {
  if (!rows.length) return;
  const { attempts, backoffMs } = deps.config.locks.delivery;
  await deps.queues.credential.addBulk(
    rows.map((data) => ({
      name: 'deliver',
      data,
      opts: { jobId: deliveryJobId(data.kind, data.id, data.version), attempts, backoff: { type: 'exponential', delay: backoffMs }, removeOnComplete: true, removeOnFail: true },
    })),
  );
}

/** Queues whatever delivery work a hotel's credentials have in a scope (a stay, a room, a customer). */
export async function kickDeliveries(deps: Deps, hotelId: number, scope: { stayId?: number; roomId?: number; guestId?: number; customerId?: number } = {}): Promise<number> {
  const rows: DeliveryJobData[] = [];
  for (const kind of CREDENTIAL_KINDS) rows.push(...(await credentialKind(kind).findWork(deps.prisma, { hotelId, ...scope })));
  await enqueueDeliveries(deps, rows);
  return rows.length;
}

/**
 * Queues every credential with work to do, in every hotel: at start-up and periodically, so a job
 * lost with a Redis restart, or never queued because the server stopped between a commit and its
 * queueing, is made again from the database.
 */
export async function sweepDeliveries(deps: Deps, scope: { hotelId?: number } = {}): Promise<number> {
  const rows: DeliveryJobData[] = [];
  for (const kind of CREDENTIAL_KINDS) rows.push(...(await credentialKind(kind).findWork(deps.prisma, scope)));
  await enqueueDeliveries(deps, rows);
  return rows.length;
}

const MUTEX_TTL_MS = 60_000;
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * What a write to this lock must wait for: its gateway, when the lock's status named one (a gateway
 * carries one command at a time for all its locks and answers "busy" to a second), else the lock
 * itself. Order per lock is kept either way.
 */
async function mutexName(deps: Deps, hotelId: number, lockId: string): Promise<string> {
  const lock = await deps.prisma.lock.findFirst({ where: { hotelId, providerLockId: lockId, gatewayId: { not: null } }, select: { provider: true, gatewayId: true } });
  return lock ? `gateway:${lock.provider}:${lock.gatewayId}` : `lock:${lockId}`;
}

/** One write per gateway (or lock) at a time: the gateway answers "busy" to a second, and order matters. */
async function withLockMutex<T>(deps: Deps, name: string, job: Job, token: string | undefined, fn: () => Promise<T>): Promise<T> {
  const key = deps.key('lock-mutex', name);
  const owner = randomUUID();
  const acquired = await deps.redis.set(key, owner, 'PX', MUTEX_TTL_MS, 'NX');
  if (!acquired) {
    // Another write to this lock is running: wait a moment without spending an attempt.
    await job.moveToDelayed(Date.now() + 50 + Math.floor(Math.random() * 150), token);
    throw new DelayedError();
  }
  try {
    return await fn();
  } finally {
    await deps.redis.eval(RELEASE_SCRIPT, 1, key, owner);
  }
}

/**
 * Runs `fn` holding the gateway's (or lock's) mutex, waiting for it up to `waitMs`, for lock work
 * outside a delivery job (the denylist prune); null when the gateway stayed busy all that time.
 */
export async function withGatewayMutex<T>(deps: Deps, hotelId: number, lockId: string, fn: () => Promise<T>, waitMs = 30_000): Promise<T | null> {
  const key = deps.key('lock-mutex', await mutexName(deps, hotelId, lockId));
  const owner = randomUUID();
  const until = Date.now() + waitMs;
  while (!(await deps.redis.set(key, owner, 'PX', MUTEX_TTL_MS, 'NX'))) {
    if (Date.now() >= until) return null;
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.floor(Math.random() * 150)));
  }
  try {
    return await fn();
  } finally {
    await deps.redis.eval(RELEASE_SCRIPT, 1, key, owner);
  }
}

export type DeliveryOutcome = 'stale' | 'on_lock' | 'removed' | 'failed' | 'remove_failed' | 'retrying';

/** Processes one delivery job. Throws to have BullMQ retry it with backoff. */
export async function deliver(deps: Deps, job: Job<DeliveryJobData>, token: string | undefined): Promise<DeliveryOutcome> {
  const handler = credentialKind(job.data.kind);
  const first = await handler.load(deps.prisma, job.data.id);
  if (!first || first.version !== job.data.version || !isWork(first)) return 'stale';
  const provider = deps.locks;
  const lockId = first.lockId;
  if (!lockId || !provider) {
    // No lock to speak to: a removal has nothing to take off; a push waits for a lock.
    if (first.deliveryState === 'removing' && !first.providerRef) return finish(deps, handler, first, 'removed', null);
    return fail(deps, handler, first, job, lockId ? 'provider_error' : 'no_lock', true);
  }
  return withLockMutex(deps, await mutexName(deps, first.hotelId, lockId), job, token, async () => {
    // Read again under the lock's mutex: the previous writer may have changed it.
    const row = await handler.load(deps.prisma, job.data.id);
    if (!row || row.version !== job.data.version || !isWork(row)) return 'stale';
    try {
      return await step(deps, provider, handler, row, lockId);
    } catch (error) {
      // Ours (a face photo gone): retrying cannot bring it back.
      if (error instanceof DeliveryFailure) return fail(deps, handler, row, job, error.code, true);
      if (!(error instanceof LockProviderError)) throw error;
      return fail(deps, handler, row, job, error.code, !error.retryable);
    }
  });
}

function isWork(row: DeliveryRow): boolean {
  return row.deliveryState === 'pending' || row.deliveryState === 'removing';
}

async function step(deps: Deps, provider: LockProvider, handler: ReturnType<typeof credentialKind>, row: DeliveryRow, lockId: string): Promise<DeliveryOutcome> {
  const now = new Date();
  if (row.deliveryState === 'removing') {
    await takeOff(provider, handler, row, lockId, true);
    return finish(deps, handler, row, 'removed', null);
  }
  if (row.validUntil && row.validUntil.getTime() <= now.getTime()) {
    // Its time is over before this version reached the lock: nothing to put there, and a copy an
    // earlier version left there (with a longer validity) comes off.
    await takeOff(provider, handler, row, lockId, false);
    return finish(deps, handler, { ...row, revokeReason: row.revokeReason ?? 'expired' }, 'removed', null);
  }
  if (row.providerRef) {
    // An earlier version is on the lock: only its validity changed (a limit, a retry of a change).
    try {
      await handler.changeValidity(provider, lockId, row);
      return await finish(deps, handler, row, 'on_lock', null);
    } catch (error) {
      if (!(error instanceof LockProviderError) || error.code !== 'credential_not_found') throw error;
      // The lock lost it meanwhile: put it there again.
    }
  }
  let pushed: { ref: string; code?: string };
  let adopted = false;
  try {
    pushed = await handler.push(provider, lockId, row, { uploadDir: deps.config.uploadDir, prisma: deps.prisma, cardKeySecret: deps.config.cardKeySecret });
  } catch (error) {
    // A push whose answer was lost (a restart, a timeout) is already there: adopt it.
    if (!(error instanceof LockProviderError) || error.code !== 'duplicate_code') throw error;
    const ref = await handler.findOnLock(provider, lockId, row);
    if (!ref) throw error;
    pushed = { ref };
    adopted = true;
  }
  // The lock's id for it is kept even if the credential was revoked meanwhile: the removal needs it.
  await handler.save(deps.prisma, row.id, { providerRef: pushed.ref, ...(pushed.code ? { code: pushed.code } : {}) });
  // The adopted copy may be of an earlier version: give it this version's validity.
  if (adopted) await handler.changeValidity(provider, lockId, { ...row, providerRef: pushed.ref });
  return finish(deps, handler, row, 'on_lock', null);
}

/**
 * Takes a credential off its lock: by its `providerRef`, or (`lookUp`) by its tag when a push was
 * cut off before its answer was saved. Already gone is fine.
 */
async function takeOff(provider: LockProvider, handler: ReturnType<typeof credentialKind>, row: DeliveryRow, lockId: string, lookUp: boolean): Promise<void> {
  const ref = row.providerRef ?? (lookUp ? await handler.findOnLock(provider, lockId, row) : null);
  if (!ref) return;
  try {
    await handler.remove(provider, lockId, { ...row, providerRef: ref });
  } catch (error) {
    if (!(error instanceof LockProviderError) || error.code !== 'credential_not_found') throw error;
  }
}

async function finish(deps: Deps, handler: ReturnType<typeof credentialKind>, row: DeliveryRow, state: 'on_lock' | 'removed' | 'failed' | 'remove_failed', error: TDeliveryError | null, attempts?: number): Promise<DeliveryOutcome> {
  const now = new Date();
  const saved = await handler.saveIfVersion(deps.prisma, row.id, row.version, {
    deliveryState: state,
    lastError: error,
    lastAttemptAt: now,
    ...(attempts !== undefined ? { attempts } : {}),
    ...(state === 'on_lock' ? { deliveredAt: now, attempts: 0 } : {}),
    ...(state === 'removed' ? { removedAt: now, attempts: 0, revokeReason: row.revokeReason } : {}),
  });
  return saved ? state : 'stale';
}

async function fail(deps: Deps, handler: ReturnType<typeof credentialKind>, row: DeliveryRow, job: Job, code: TDeliveryError, permanent: boolean): Promise<DeliveryOutcome> {
  const last = permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const finalState = row.deliveryState === 'removing' ? 'remove_failed' : 'failed';
  if (last) return finish(deps, handler, row, finalState, code, job.attemptsMade + 1);
  await handler.saveIfVersion(deps.prisma, row.id, row.version, { lastError: code, lastAttemptAt: new Date(), attempts: job.attemptsMade + 1 });
  throw new DeliveryRetry(code);
}

/** Thrown to have BullMQ try again later; the reason is already saved on the credential. */
export class DeliveryRetry extends Error {
  constructor(readonly code: string) {
    super(`delivery will be retried: ${code}`);
    this.name = 'DeliveryRetry';
  }
}

/**
 * After a committed change that gave credentials lock work: queue it now. A failure here (Redis
 * away) loses nothing: the delivery sweep finds the work in the database.
 */
export async function afterCredentialChange(deps: Deps, hotelId: number, scope: { stayId?: number; roomId?: number; guestId?: number; customerId?: number } = {}): Promise<void> {
  if (!deps.locks) return;
  try {
    await kickDeliveries(deps, hotelId, scope);
  } catch (error) {
    deps.log.warn({ err: error, hotelId, scope }, 'could not queue credential deliveries now; the sweep will');
  }
}
