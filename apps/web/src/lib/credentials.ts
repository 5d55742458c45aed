import { randomCode, TTLOCK_CODE_POLICY, type TDeliveryState } from '@console/shared';
import { WAITING_LOCK_ERRORS } from './shared-constants';
import type { RouterOutputs } from './trpc-types';

/**
 * Lock passwords as the console shows them (docs/credential-delivery.md): a row is what we asked
 * of the lock, its delivery state what the lock confirmed. Shared by the room page's Credentials
 * tab, the stay card and the check-in dialog.
 */
export type PasswordDto = RouterOutputs['password']['get'];

/** States with lock work under way: the screen follows them until the lock answers. */
const IN_FLIGHT: readonly TDeliveryState[] = ['pending', 'removing'];

export function isInFlight(state: TDeliveryState): boolean {
  return IN_FLIGHT.includes(state);
}

/** A failed delivery (or removal) that the desk may try again. */
export function canRetry(state: TDeliveryState): boolean {
  return state === 'failed' || state === 'remove_failed';
}

/** What can still be taken off the lock (already going or gone: nothing to revoke). */
export function canRevoke(state: TDeliveryState): boolean {
  return state === 'pending' || state === 'on_lock' || state === 'failed' || state === 'unknown' || state === 'remove_failed';
}

/** How often a list with a password in flight asks again: progress shows without a reload. */
export const IN_FLIGHT_REFETCH_MS = 1500;

/**
 * `refetchInterval` of a credential list query (passwords, face authorisations): every 1.5 s
 * while one of its rows is being written to or taken off a lock, never otherwise.
 */
export function refetchWhileInFlight(query: { state: { data?: { items: readonly { deliveryState: TDeliveryState }[] } } }): number | false {
  return query.state.data?.items.some((p) => isInFlight(p.deliveryState)) ? IN_FLIGHT_REFETCH_MS : false;
}

/**
 * Work on the credential waits, without failing: for its lock account (its password, its region,
 * connected again) or for the lock cloud's call limit to lift. True while the work is still under
 * way and its last refusal was one of those (LOCK_ERROR_KIND `account` or `limit`).
 */
export function isWaitingForAccount(state: TDeliveryState, lastError: string | null | undefined): boolean {
  return isInFlight(state) && lastError != null && (WAITING_LOCK_ERRORS as readonly string[]).includes(lastError);
}

/** The translation key of a delivery failure code (`credentials.errors.<code>`), or null. */
export function deliveryErrorKey(code: string | null | undefined): string | null {
  return code ? `credentials.errors.${code}` : null;
}

/**
 * Six random digits that are not a lock's "too simple" pattern (all the same, or a run up or down),
 * and without a 0 for a keypad that has no 0 key (`noZero`, a Nuki Keypad).
 */
export function randomCustomCode(noZero = false, length = 6): string {
  // The lock's code policy (packages/shared code-policy.ts) decides what is too simple, as it does on the server.
  return randomCode(length, new Set(), (n) => crypto.getRandomValues(new Uint32Array(1))[0]! % n, { ...TTLOCK_CODE_POLICY, withoutZero: noZero });
}

/**
 * How often a list showing face photos asks again: their signed URLs hold 10 to 15 minutes
 * (decision 015), so a page left open keeps showing them.
 */
export const FACE_PHOTO_REFRESH_MS = 5 * 60_000;
