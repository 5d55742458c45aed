import type { Job } from 'bullmq';
import type { Deps } from '../../context';
import { isConstraint } from '../../db/errors';
import { recordEvent } from '../../db/events';
import { transaction } from '../../db/transaction';
import type { TDeliveryError } from '@console/shared';
import { LockProviderError, type LockProvider, type PasscodeState } from '../../infra/locks/provider';
import type { DeliveryJobData } from '../../jobs/payloads';
import { type credentialKind, type CredentialKind, type DeliveryRow, type Pushed } from './delivery-kinds';
import { takeRefEvent } from './platform-events';

/**
 * One delivery job's work on its lock (docs/credential-delivery.md), run by the engine (delivery.ts)
 * under the lock's mutex: put the credential there, change its validity, take it off; for a
 * platform that answers a write before the lock has it (Seam, `LockProvider.confirmsWrites` false),
 * ask where the lock's copy stands until the lock has it. The ends are saved with their domain
 * events, in one transaction each.
 */

/** `awaiting`: the platform accepted the write; the job asks again later where the lock's copy stands. */
export type DeliveryOutcome = 'stale' | 'on_lock' | 'removed' | 'failed' | 'remove_failed' | 'retrying' | 'waiting' | 'awaiting';

type Handler = ReturnType<typeof credentialKind>;

/** The domain event of a delivery's end (docs/events.md): on the lock, failed for good, taken off. */
const END_EVENTS = { on_lock: 'credential.onLock', failed: 'credential.failed', remove_failed: 'credential.failed', removed: 'credential.removed' } as const;

/**
 * Saves the end of a delivery (on the lock, failed for good, taken off) if the credential is still
 * at this version, and records its domain event in the same transaction: a crash between the two
 * can neither lose the event nor send one for a state that was not saved. A card's keys on a lock
 * are the lock's, not a guest's credential: no event. False when the credential moved on.
 */
async function saveEnd(
  deps: Deps,
  handler: Handler,
  kind: CredentialKind,
  row: DeliveryRow,
  state: keyof typeof END_EVENTS,
  patch: Parameters<Handler['saveIfVersion']>[3],
  whileAccepted = false,
): Promise<boolean> {
  return transaction(deps, async (tx) => {
    if (!(await handler.saveIfVersion(tx, row.id, row.version, patch, whileAccepted))) return false;
    if (kind !== 'card_keys')
      await recordEvent(tx, { hotelId: row.hotelId, kind: END_EVENTS[state], roomIds: [row.roomId], credentialId: row.id, credential: kind });
    return true;
  });
}

export function isWork(row: DeliveryRow): boolean {
  return row.deliveryState === 'pending' || row.deliveryState === 'removing';
}

export async function step(
  deps: Deps,
  provider: LockProvider,
  handler: Handler,
  kind: CredentialKind,
  row: DeliveryRow,
  lockId: string,
): Promise<DeliveryOutcome> {
  const now = new Date();
  // Whether an answered write is on the lock: else the platform is asked where the copy stands.
  const confirms = provider.confirmsWrites || !handler.state;
  if (row.deliveryState === 'removing') {
    if (!confirms && row.providerRef) return takeOffAccepted(deps, provider, handler, kind, row, lockId);
    await takeOff(provider, handler, row, lockId, true);
    return finish(deps, handler, kind, row, 'removed', null);
  }
  if (row.validUntil && row.validUntil.getTime() <= now.getTime()) {
    // Its time is over before this version reached the lock: nothing to put there, and a copy an
    // earlier version left there (with a longer validity) comes off.
    await takeOff(provider, handler, row, lockId, false);
    return finish(deps, handler, kind, { ...row, revokeReason: row.revokeReason ?? 'expired' }, 'removed', null);
  }
  if (!confirms && row.providerRef && row.acceptedVersion === row.version) {
    // This version was accepted: ask where it stands rather than send it again.
    const settled = await settle(deps, provider, handler, kind, row, lockId);
    if (settled !== 'gone') return settled;
    // The platform no longer has it: sent again below.
    row = { ...row, providerRef: null, acceptedVersion: null };
  }
  if (row.providerRef) {
    // An earlier version is on the lock: only its validity changed (a limit, a retry of a change).
    try {
      await handler.changeValidity(provider, lockId, row);
      if (!confirms) return accepted(deps, handler, kind, row, { providerRef: row.providerRef });
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
    // Accepted, not yet on the lock (Seam): its id kept, its confirmation asked for later.
    if (pushed.settled === false) return accepted(deps, handler, kind, row, onLock);
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
  if (!confirms) return accepted(deps, handler, kind, row, { providerRef: pushed.ref });
  return finish(deps, handler, kind, row, 'on_lock', null);
}

/**
 * The platform accepted this version (Seam: an access code `unset` or `setting`): its id and the
 * accepted version saved, with a `credential.changed` event, while the credential is at this
 * version; still `pending`, since only the lock's confirmation makes it `on_lock`.
 */
async function accepted(
  deps: Deps,
  handler: Handler,
  kind: CredentialKind,
  row: DeliveryRow,
  patch: Parameters<Handler['save']>[2] & { providerRef: string },
): Promise<DeliveryOutcome> {
  const saved = await transaction(deps, async (tx) => {
    const written = await handler.saveIfVersion(tx, row.id, row.version, {
      ...patch,
      acceptedVersion: row.version,
      lastError: null,
      lastAttemptAt: new Date(),
    });
    if (written) await recordEvent(tx, { hotelId: row.hotelId, kind: 'credential.changed', roomIds: [row.roomId], credentialId: row.id, credential: kind });
    return written;
  });
  if (saved) {
    // Seam may have set it and told so before its id was stored here: that event is this write's now.
    await takeRefEvent(deps, row.hotelId, patch.providerRef, kind, row.id);
    return 'awaiting';
  }
  // Revoked or changed meanwhile: the lock's id for it is kept all the same, the removal needs it.
  await handler.save(deps.prisma, row.id, patch);
  return 'stale';
}

/** A platform's trouble with a copy as our refusal: what it means decides (delivery.ts `refused`). */
function refusal(where: PasscodeState): LockProviderError {
  const issue = where.error ?? where.warnings[0];
  return new LockProviderError(issue?.code ?? 'failed_on_lock', issue?.vendorCode ?? where.vendorStatus ?? undefined, issue?.vendorMessage);
}

/**
 * Where an accepted version stands on the lock: there (the end saved with its event), still being
 * set (`awaiting`, the trouble the platform is working through kept as the last error, no attempt
 * spent), given up (its copy taken off so that nothing half-set stays, then refused as the reason
 * says: sent again or failed for good), or gone (to be sent again).
 */
async function settle(
  deps: Deps,
  provider: LockProvider,
  handler: Handler,
  kind: CredentialKind,
  row: DeliveryRow,
  lockId: string,
): Promise<DeliveryOutcome | 'gone'> {
  const where = await handler.state!(provider, lockId, row);
  if (where.state === 'on_lock') return (await confirmOnLock(deps, handler, kind, row)) ? 'on_lock' : 'stale';
  if (where.state === 'gone') {
    await handler.saveIfVersion(deps.prisma, row.id, row.version, { providerRef: null, acceptedVersion: null });
    return 'gone';
  }
  if (where.state === 'failed') {
    // A backup code the platform keeps on the lock stands in for it (asked before the failed code is taken off).
    const backup = handler.backup ? await handler.backup(provider, lockId, row) : null;
    await takeOff(provider, handler, row, lockId, false).catch((error: unknown) => {
      if (!(error instanceof LockProviderError)) throw error;
    });
    if (backup && (await onBackup(deps, handler, kind, row, backup))) return 'on_lock';
    await handler.saveIfVersion(deps.prisma, row.id, row.version, { providerRef: null, acceptedVersion: null });
    throw refusal(where);
  }
  const trouble = where.error ?? where.warnings[0] ?? null;
  await handler.saveIfVersion(deps.prisma, row.id, row.version, { lastError: trouble?.code ?? null });
  return 'awaiting';
}

/**
 * Saves an accepted version as on the lock, with its event, the platform having said so: once, by
 * whichever asked first (the job's question or a webhook's, `askAcceptedNow`); false when another
 * confirmed it already or the credential moved on.
 */
export async function confirmOnLock(deps: Deps, handler: Handler, kind: CredentialKind, row: DeliveryRow): Promise<boolean> {
  const now = new Date();
  const patch = { deliveryState: 'on_lock' as const, acceptedVersion: null, lastError: null, lastAttemptAt: now, deliveredAt: now, attempts: 0 };
  return saveEnd(deps, handler, kind, row, 'on_lock', patch, true);
}

/**
 * Saves a backup code in place of the chosen one the platform failed to set: on the lock, its
 * digits the guest's from now on (`backupCode`, shown as such). False when the credential moved on,
 * or when another live code of the room already has those digits (then it fails as it would have).
 */
async function onBackup(deps: Deps, handler: Handler, kind: CredentialKind, row: DeliveryRow, backup: { ref: string; code: string }): Promise<boolean> {
  const now = new Date();
  try {
    return await saveEnd(deps, handler, kind, row, 'on_lock', {
      deliveryState: 'on_lock',
      providerRef: backup.ref,
      code: backup.code,
      backupCode: true,
      acceptedVersion: null,
      lastError: null,
      lastAttemptAt: now,
      deliveredAt: now,
      attempts: 0,
    });
  } catch (error) {
    if (isConstraint(error, 'LockPassword_live_code_key')) return false;
    throw error;
  }
}

/**
 * Takes an accepted copy off a lock whose platform removes it later (Seam: `removing`): asked
 * first where it stands (a removal already sent is not sent twice), removed when gone.
 */
async function takeOffAccepted(
  deps: Deps,
  provider: LockProvider,
  handler: Handler,
  kind: CredentialKind,
  row: DeliveryRow,
  lockId: string,
): Promise<DeliveryOutcome> {
  let where = await handler.state!(provider, lockId, row);
  if (where.state !== 'gone' && where.state !== 'removing') {
    await takeOff(provider, handler, row, lockId, false);
    where = await handler.state!(provider, lockId, row);
  }
  if (where.state === 'gone') return finish(deps, handler, kind, row, 'removed', null);
  if (where.state !== 'removing') throw refusal(where);
  const trouble = where.error ?? where.warnings[0] ?? null;
  await handler.saveIfVersion(deps.prisma, row.id, row.version, { lastError: trouble?.code ?? null });
  return 'awaiting';
}

/**
 * Takes a credential off its lock: by its `providerRef`, or (`lookUp`) by its tag when a push was
 * cut off before its answer was saved. Already gone is fine.
 */
async function takeOff(provider: LockProvider, handler: Handler, row: DeliveryRow, lockId: string, lookUp: boolean): Promise<void> {
  const ref = row.providerRef ?? (lookUp ? await handler.findOnLock(provider, lockId, row) : null);
  if (!ref) return;
  try {
    await handler.remove(provider, lockId, { ...row, providerRef: ref });
  } catch (error) {
    if (!(error instanceof LockProviderError) || error.code !== 'credential_not_found') throw error;
  }
}

export async function finish(
  deps: Deps,
  handler: Handler,
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

export async function fail(
  deps: Deps,
  handler: Handler,
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
