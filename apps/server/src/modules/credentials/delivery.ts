import { randomUUID } from 'node:crypto';
import { DelayedError, type Job } from 'bullmq';
import type { Deps } from '../../context';
import { afterCommit, recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import type { TDeliveryError } from '@console/shared';
import { LockProviderError, type LockProvider } from '../../infra/locks/provider';
import { providerForLock } from '../lock-cloud/account-provider';
import type { DeliveryJobData } from '../../jobs/payloads';
import { reconcileDoorCopiesNow } from './door-copies';
import { CREDENTIAL_KINDS, credentialKind, DeliveryFailure, type CredentialKind, type DeliveryRow, type Pushed } from './delivery-kinds';

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
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

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

export type DeliveryOutcome = 'stale' | 'on_lock' | 'removed' | 'failed' | 'remove_failed' | 'retrying' | 'waiting';

/** The domain event of a delivery's end (docs/events.md): on the lock, failed for good, taken off. */
const END_EVENTS = { on_lock: 'credential.onLock', failed: 'credential.failed', remove_failed: 'credential.failed', removed: 'credential.removed' } as const;

/**
 * Processes one delivery job. Throws to have BullMQ retry it with backoff. A delivery that ended
 * (on the lock, failed, removed) is a domain event, which webhooks send (`credential.on_lock`...):
 * recorded in the transaction that saves the end (`saveEnd`), so the event exists if and only if
 * the state it tells of was committed.
 */
export async function deliver(deps: Deps, job: Job<DeliveryJobData>, token: string | undefined): Promise<DeliveryOutcome> {
  return deliverOnce(deps, job, token);
}

/**
 * Saves the end of a delivery (on the lock, failed for good, taken off) if the credential is still
 * at this version, and records its domain event in the same transaction: a crash between the two
 * can neither lose the event nor send one for a state that was not saved. A card's keys on a lock
 * are the lock's, not a guest's credential: no event. False when the credential moved on.
 */
async function saveEnd(
  deps: Deps,
  handler: ReturnType<typeof credentialKind>,
  kind: CredentialKind,
  row: DeliveryRow,
  state: keyof typeof END_EVENTS,
  patch: Parameters<ReturnType<typeof credentialKind>['saveIfVersion']>[3],
): Promise<boolean> {
  return transaction(deps, async (tx) => {
    if (!(await handler.saveIfVersion(tx, row.id, row.version, patch))) return false;
    if (kind !== 'card_keys')
      await recordEvent(tx, { hotelId: row.hotelId, kind: END_EVENTS[state], roomIds: [row.roomId], credentialId: row.id, credential: kind });
    return true;
  });
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
      return await step(deps, provider, handler, job.data.kind, row, lock.providerLockId);
    } catch (error) {
      // Ours (a face photo gone): retrying cannot bring it back.
      if (error instanceof DeliveryFailure) return fail(deps, handler, row, job, error.code, true);
      if (!(error instanceof LockProviderError)) throw error;
      return refused(deps, handler, row, job, token, error);
    }
  });
  // A generated code is known once it is on its room's lock: the shared doors serving the room get it.
  if (outcome === 'on_lock' && job.data.kind === 'password' && first.code === null) await afterCredentialChange(deps, first.hotelId, { roomId: first.roomId });
  return outcome;
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

function isWork(row: DeliveryRow): boolean {
  return row.deliveryState === 'pending' || row.deliveryState === 'removing';
}

async function step(
  deps: Deps,
  provider: LockProvider,
  handler: ReturnType<typeof credentialKind>,
  kind: CredentialKind,
  row: DeliveryRow,
  lockId: string,
): Promise<DeliveryOutcome> {
  const now = new Date();
  if (row.deliveryState === 'removing') {
    await takeOff(provider, handler, row, lockId, true);
    return finish(deps, handler, kind, row, 'removed', null);
  }
  if (row.validUntil && row.validUntil.getTime() <= now.getTime()) {
    // Its time is over before this version reached the lock: nothing to put there, and a copy an
    // earlier version left there (with a longer validity) comes off.
    await takeOff(provider, handler, row, lockId, false);
    return finish(deps, handler, kind, { ...row, revokeReason: row.revokeReason ?? 'expired' }, 'removed', null);
  }
  if (row.providerRef) {
    // An earlier version is on the lock: only its validity changed (a limit, a retry of a change).
    try {
      await handler.changeValidity(provider, lockId, row);
      return await finish(deps, handler, kind, row, 'on_lock', null);
    } catch (error) {
      if (!(error instanceof LockProviderError) || error.code !== 'credential_not_found') throw error;
      // The lock lost it meanwhile: put it there again.
    }
  }
  let pushed: Pushed;
  let adopted = false;
  try {
    pushed = await handler.push(provider, lockId, row, deps);
  } catch (error) {
    // A push whose answer was lost (a restart, a timeout) is already there: adopt it.
    if (!(error instanceof LockProviderError) || error.code !== 'duplicate_code') throw error;
    const ref = await handler.findOnLock(provider, lockId, row);
    if (!ref) throw error;
    pushed = { ref };
    adopted = true;
  }
  const onLock = {
    providerRef: pushed.ref,
    ...(pushed.code ? { code: pushed.code } : {}),
    ...(pushed.validity ? { ...pushed.validity, validityAdjusted: true } : {}),
  };
  if (!adopted) {
    // The lock's id and the state in one write (with its event), while the credential is at this version.
    const now = new Date();
    if (
      await saveEnd(deps, handler, kind, row, 'on_lock', {
        ...onLock,
        deliveryState: 'on_lock',
        lastError: null,
        lastAttemptAt: now,
        deliveredAt: now,
        attempts: 0,
      })
    )
      return 'on_lock';
    // Revoked or changed meanwhile: the lock's id for it is kept all the same, the removal needs it.
    await handler.save(deps.prisma, row.id, onLock);
    return 'stale';
  }
  // The lock's id for it is kept even if the credential was revoked meanwhile: the removal needs it.
  await handler.save(deps.prisma, row.id, onLock);
  // The adopted copy may be of an earlier version: give it this version's validity.
  await handler.changeValidity(provider, lockId, { ...row, providerRef: pushed.ref });
  return finish(deps, handler, kind, row, 'on_lock', null);
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

async function finish(
  deps: Deps,
  handler: ReturnType<typeof credentialKind>,
  kind: CredentialKind,
  row: DeliveryRow,
  state: 'on_lock' | 'removed' | 'failed' | 'remove_failed',
  error: TDeliveryError | null,
  attempts?: number,
): Promise<DeliveryOutcome> {
  const now = new Date();
  const saved = await saveEnd(deps, handler, kind, row, state, {
    deliveryState: state,
    lastError: error,
    lastAttemptAt: now,
    ...(attempts !== undefined ? { attempts } : {}),
    ...(state === 'on_lock' ? { deliveredAt: now, attempts: 0 } : {}),
    ...(state === 'removed' ? { removedAt: now, attempts: 0, revokeReason: row.revokeReason } : {}),
  });
  return saved ? state : 'stale';
}

async function fail(
  deps: Deps,
  handler: ReturnType<typeof credentialKind>,
  row: DeliveryRow,
  job: Job<DeliveryJobData>,
  code: TDeliveryError,
  permanent: boolean,
): Promise<DeliveryOutcome> {
  const last = permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const finalState = row.deliveryState === 'removing' ? 'remove_failed' : 'failed';
  if (last) return finish(deps, handler, job.data.kind, row, finalState, code, job.attemptsMade + 1);
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
