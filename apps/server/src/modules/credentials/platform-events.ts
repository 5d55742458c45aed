import type { Deps } from '../../context';
import type { CredentialKind } from './lock-tags';

/**
 * A lock platform's event about a credential (Seam's webhook: a code set, failed) that came while its
 * delivery job was not waiting to ask. Two marks, read by the job before it waits (delivery.ts), so
 * that it asks at once rather than after its delay (a code set 30 ms after Seam accepted it was
 * confirmed 2 s late: bench/README §21). Each kept 10 minutes.
 */
const KEPT_S = 600;

/** The Redis key of `markCredentialEvent`'s mark. */
export const credentialEventKey = (deps: Deps, kind: CredentialKind, id: number) => deps.key('credential-event', kind, id);

/** The event of a credential the console knows by the platform's id (its job running, or not queued). */
export async function markCredentialEvent(deps: Deps, kind: CredentialKind, id: number): Promise<void> {
  await deps.redis.set(credentialEventKey(deps, kind, id), '1', 'EX', KEPT_S);
}

/** Whether a platform's event about the credential came (`markCredentialEvent`), taking its mark. */
export async function takeCredentialEvent(deps: Deps, kind: CredentialKind, id: number): Promise<boolean> {
  return (await deps.redis.del(credentialEventKey(deps, kind, id))) > 0;
}

/** The Redis key of `markRefEvent`'s mark: the platform's id of the write, in a hotel. */
export const refEventKey = (deps: Deps, hotelId: number, ref: string) => deps.key('credential-ref-event', hotelId, ref);

/**
 * The event of a write whose platform id the console has not saved yet: the platform answered the
 * write and told of it (set on the lock) before the job that wrote it had stored the answer. Kept
 * for the job to find once it stores it (`takeRefEvent`).
 */
export async function markRefEvent(deps: Deps, hotelId: number, ref: string): Promise<void> {
  await deps.redis.set(refEventKey(deps, hotelId, ref), '1', 'EX', KEPT_S);
}

/** Once the job has stored the platform's id of its write: an event about that id that came before becomes the credential's mark. */
export async function takeRefEvent(deps: Deps, hotelId: number, ref: string, kind: CredentialKind, id: number): Promise<void> {
  if ((await deps.redis.del(refEventKey(deps, hotelId, ref))) > 0) await markCredentialEvent(deps, kind, id);
}
