import { randomUUID } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import type { Deps } from '../../context';
import { afterCommit } from '../../db/events';
import type { Tx } from '../../db/transaction';
import { LockProviderError, type LockProvider } from '../../infra/locks/provider';
import { providerForLock } from '../lock-cloud/account-provider';
import type { DeliveryJobData } from '../../jobs/payloads';
import { afterCredentialOnLock } from '../messages/on-lock';
import { reconcileDoorCopiesNow } from './door-copies';
import { CREDENTIAL_KINDS, credentialKind, DeliveryFailure, type CredentialKind, type DeliveryRow } from './delivery-kinds';
import { confirmOnLock, fail, finish, isWork, step, type DeliveryOutcome } from './delivery-step';
import { takeCredentialEvent } from './platform-events';

export { DeliveryRetry, type DeliveryOutcome } from './delivery-step';
export { credentialEventKey, markCredentialEvent, markRefEvent } from './platform-events';

/**
 * The delivery engine (docs/credential-delivery.md): a credential row holds what the lock should
 * hold (`pending`: put it there; `removing`: take it off); a job per credential version makes the
 * lock agree, one write per lock at a time, and records only what the lock confirmed. The lock is
 * the room's Lock row of its own hotel, spoken to through the lock account it was imported from;
 * what a refusal means (LOCK_ERROR_KIND) decides: retried with backoff, failed at once, or waiting
 * (for the account to be connected again, or for the cloud's call limit to lift) without spending
 * an attempt.
 */

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
      opts: {
        jobId: deliveryJobId(data.kind, data.id, data.version),
        attempts,
        backoff: { type: 'exponential', delay: backoffMs },
        removeOnComplete: true,
        removeOnFail: true,
      },
    })),
  );
}

/** Queues whatever delivery work a hotel's credentials have in a scope (a stay, a room, a customer). */
export async function kickDeliveries(deps: Deps, hotelId: number, scope: CredentialScope = {}): Promise<number> {
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
  // The shared doors' copies first (docs/shared-doors.md): a reconciliation lost with a restart is made again.
  const doorHotels = await deps.prisma.sharedDoorServe.findMany({ where: scope, distinct: ['hotelId'], select: { hotelId: true } });
  for (const { hotelId } of doorHotels) {
    try {
      await reconcileDoorCopiesNow(deps, hotelId);
    } catch (error) {
      deps.log.warn({ err: error, hotelId }, 'could not reconcile shared-door copies');
    }
  }
  const rows: DeliveryJobData[] = [];
  for (const kind of CREDENTIAL_KINDS) rows.push(...(await credentialKind(kind).findWork(deps.prisma, scope)));
  await enqueueDeliveries(deps, rows);
  return rows.length;
}

const MUTEX_TTL_MS = 60_000;
/** Releases a Redis mutex only when it is still the holder's (`owner`): one that expired and was taken by another stays theirs. */
export const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * What a write to this lock must wait for: its gateway, when the lock's status named one (a gateway
 * carries one command at a time for all its locks and answers "busy" to a second), else the lock
 * itself. Order per lock is kept either way.
 */
function mutexNameOf(lock: { provider: string; providerLockId: string; gatewayId: string | null }): string {
  return lock.gatewayId ? `gateway:${lock.provider}:${lock.gatewayId}` : `lock:${lock.provider}:${lock.providerLockId}`;
}

async function mutexName(deps: Deps, lockRowId: number): Promise<string> {
  const lock = await deps.prisma.lock.findUnique({ where: { id: lockRowId }, select: { provider: true, providerLockId: true, gatewayId: true } });
  return lock ? mutexNameOf(lock) : `lock-row:${lockRowId}`;
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
export async function withGatewayMutex<T>(deps: Deps, lockRowId: number, fn: () => Promise<T>, waitMs = 30_000): Promise<T | null> {
  const key = deps.key('lock-mutex', await mutexName(deps, lockRowId));
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

/**
 * Processes one delivery job. Throws to have BullMQ retry it with backoff. A delivery that ended
 * (on the lock, failed, removed) is a domain event, which webhooks send (`credential.on_lock`...):
 * recorded in the transaction that saves the end (`saveEnd`), so the event exists if and only if
 * the state it tells of was committed.
 */
export async function deliver(deps: Deps, job: Job<DeliveryJobData>, token: string | undefined): Promise<DeliveryOutcome> {
  return deliverOnce(deps, job, token);
}

async function deliverOnce(deps: Deps, job: Job<DeliveryJobData>, token: string | undefined): Promise<DeliveryOutcome> {
  const handler = credentialKind(job.data.kind);
  const first = await handler.load(deps.prisma, job.data.id);
  if (!first || first.version !== job.data.version || !isWork(first)) return 'stale';
  const lock = first.lock;
  if (!lock || !deps.locks) {
    // No lock to speak to: a removal has nothing to take off; a push waits for a lock.
    if (first.deliveryState === 'removing' && !first.providerRef) return finish(deps, handler, job.data.kind, first, 'removed', null);
    return fail(deps, handler, first, job, lock ? 'provider_error' : 'no_lock', true);
  }
  let provider: LockProvider;
  try {
    provider = await providerForLock(deps, lock);
  } catch (error) {
    if (!(error instanceof LockProviderError)) throw error;
    return refused(deps, handler, first, job, token, error);
  }
  // The lock as just loaded names its gateway: no second read.
  const outcome = await withLockMutex(deps, mutexNameOf(lock), job, token, async () => {
    // Read again under the lock's mutex: the previous writer may have changed it.
    const row = await handler.load(deps.prisma, job.data.id);
    if (!row || row.version !== job.data.version || !isWork(row) || row.lock?.id !== lock.id) return 'stale';
    try {
      const done = await step(deps, provider, handler, job.data.kind, row, lock.providerLockId);
      if (done !== 'awaiting' || !(await takeCredentialEvent(deps, job.data.kind, job.data.id))) return done;
      // The platform told of it while this job ran (Seam set the code at once, bench/README §21):
      // asked now, in this run, rather than behind every write still queued.
      const again = await handler.load(deps.prisma, job.data.id);
      if (!again || again.version !== job.data.version || !isWork(again) || again.lock?.id !== lock.id) return 'stale';
      return await step(deps, provider, handler, job.data.kind, again, lock.providerLockId);
    } catch (error) {
      // Ours (a face photo gone): retrying cannot bring it back.
      if (error instanceof DeliveryFailure) return fail(deps, handler, row, job, error.code, true);
      if (!(error instanceof LockProviderError)) throw error;
      return refused(deps, handler, row, job, token, error);
    }
  });
  if (outcome === 'awaiting') {
    // Accepted by a platform that sets it later (Seam): asked again after a while, sooner at first,
    // spending no attempt (docs/credential-delivery.md "Accepted, not yet on the lock"); at once when
    // the platform's event about it came while this job ran (`markCredentialEvent`).
    const polls = job.data.polls ?? 0;
    const eventCame = await takeCredentialEvent(deps, job.data.kind, job.data.id);
    await job.updateData({ ...job.data, polls: polls + 1 });
    await job.moveToDelayed(Date.now() + (eventCame ? 0 : awaitDelay(deps, polls)), token);
    throw new DelayedError();
  }
  if (outcome === 'on_lock') await afterOnLock(deps, job.data, first);
  return outcome;
}

/**
 * What follows a credential's confirmation on its lock, whoever saw it (its job, a platform's
 * webhook): the guest told (issue 20 §3, once per code); a generated code, known only now, given to
 * the shared doors serving its room.
 */
async function afterOnLock(deps: Deps, data: DeliveryJobData, row: DeliveryRow): Promise<void> {
  await afterCredentialOnLock(deps, data);
  if (data.kind === 'password' && row.code === null) await afterCredentialChange(deps, row.hotelId, { roomId: row.roomId });
}

/**
 * A platform's word that an accepted write is set (Seam's `access_code.set_on_device` webhook): the
 * credential's question asked here and now (one read, no write to the lock, so no mutex), not by its
 * delayed job behind every delivery queued (bench/README §21). The platform's answer, not the event,
 * is what is believed (decision 066). True when the platform has it on the lock (saved once with its
 * event, by this or the job's own question; the job's delayed question taken off); false when the
 * credential was not waiting on that write, is not set yet, or the platform could not be asked: its
 * job asks in its time.
 */
export async function askAcceptedNow(deps: Deps, kind: CredentialKind, id: number): Promise<boolean> {
  const handler = credentialKind(kind);
  const row = await handler.load(deps.prisma, id);
  const lock = row?.lock;
  if (!row || !lock || !deps.locks || !handler.state || row.deliveryState !== 'pending' || !row.providerRef || row.acceptedVersion !== row.version)
    return false;
  try {
    const provider = await providerForLock(deps, lock);
    if ((await handler.state(provider, lock.providerLockId, row)).state !== 'on_lock') return false;
    if (!(await confirmOnLock(deps, handler, kind, row))) return true;
  } catch (error) {
    if (error instanceof LockProviderError) return false;
    throw error;
  }
  const data = { kind, id, version: row.version };
  // Its delayed question has nothing left to ask (one still running finds it on the lock: stale).
  await deps.queues.credential.remove(deliveryJobId(kind, id, row.version)).catch(() => 0);
  await afterOnLock(deps, data, row);
  return true;
}

/** The longest wait between two questions about an accepted write (Seam's own retries take minutes). */
const AWAIT_MAX_MS = 120_000;

/** The wait before asking again: the delivery backoff, doubled at each question, up to AWAIT_MAX_MS. */
function awaitDelay(deps: Deps, polls: number): number {
  return Math.min(AWAIT_MAX_MS, deps.config.locks.delivery.backoffMs * 2 ** Math.min(polls, 16));
}

/**
 * A refusal, by what it means: the account must be fixed (the work waits, with the reason, and
 * goes on when the account is connected again: no attempt spent), the call limit (the job waits
 * until it lifts), for good (failed now), or for now (retried with backoff).
 */
async function refused(
  deps: Deps,
  handler: ReturnType<typeof credentialKind>,
  row: DeliveryRow,
  job: Job,
  token: string | undefined,
  error: LockProviderError,
): Promise<DeliveryOutcome> {
  if (error.kind === 'account') {
    await handler.saveIfVersion(deps.prisma, row.id, row.version, { lastError: error.code, lastAttemptAt: new Date() });
    return 'waiting';
  }
  if (error.kind === 'limit') {
    await handler.saveIfVersion(deps.prisma, row.id, row.version, { lastError: error.code, lastAttemptAt: new Date() });
    const until = Math.max(error.retryAt?.getTime() ?? Date.now() + 60_000, Date.now() + 1_000);
    await job.moveToDelayed(until, token);
    throw new DelayedError();
  }
  return fail(deps, handler, row, job, error.code, !error.retryable);
}

/** Which credentials a change moved: a stay's, a room's (its stays'), a guest's, a customer's, or the hotel's. */
/** Whose credentials: a stay's, a room's (or several rooms', `{ in: [...] }`), a guest's, a customer's; none: the hotel's. */
export type CredentialScope = { stayId?: number; roomId?: number | { in: number[] }; guestId?: number; customerId?: number };

/**
 * Asks, inside the change's transaction, that the credentials it moved be carried to the locks once
 * it is committed (`afterCommit`, db/events.ts): the copies on the shared doors reconciled, the
 * deliveries queued. Never for a rolled-back attempt; once per scope and transaction. This is how a
 * write says what follows it (issue 26 §1), instead of a call after its transaction returned.
 */
export function followCredentials(tx: Tx, deps: Deps, hotelId: number, scope: CredentialScope = {}): void {
  const key = ['credentials', hotelId, scope.stayId ?? '', JSON.stringify(scope.roomId ?? ''), scope.guestId ?? '', scope.customerId ?? ''].join(':');
  afterCommit(tx, key, () => afterCredentialChange(deps, hotelId, scope));
}

/**
 * After a committed change that gave credentials lock work: queue it now. A failure here (Redis
 * away) loses nothing: the delivery sweep finds the work in the database.
 */
export async function afterCredentialChange(deps: Deps, hotelId: number, scope: CredentialScope = {}): Promise<void> {
  if (!deps.locks) return;
  try {
    // A stay's credentials on the shared doors its room is served by follow the room's (docs/shared-doors.md).
    await reconcileDoorCopiesNow(deps, hotelId, scope);
  } catch (error) {
    deps.log.warn({ err: error, hotelId, scope }, 'could not reconcile shared-door copies now; the sweep will');
  }
  try {
    await kickDeliveries(deps, hotelId, scope);
  } catch (error) {
    deps.log.warn({ err: error, hotelId, scope }, 'could not queue credential deliveries now; the sweep will');
  }
}
