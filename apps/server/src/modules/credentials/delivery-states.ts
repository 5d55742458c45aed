/**
 * A credential's delivery states and the changes of state every module writes (dependency-free:
 * any module may import it).
 */

/** Delivery states of a credential that is on a lock, on its way to it, or may be there. */
export const LIVE_DELIVERY_STATES = ['pending', 'on_lock', 'failed', 'unknown'] as const;

/** Why a credential was taken off its lock (translated by the console: `credentials.revokeReasons.*`). */
export const REVOKE_REASONS = [
  'check_out',
  'cancelled',
  'no_show',
  'expired',
  'room_change',
  'guest_removed',
  'customer_frozen',
  'old_cards_disabled',
  'manual',
  'called_back',
  'limited',
  'replaced',
  'rewritten',
  'returned',
  'lost',
  'door_unserved',
  'reassigned',
  'shift_ended',
  /** An attendant's card valid beyond a shift cut short (docs/housekeeping-keys.md "Cards"). */
  'shift_changed',
] as const;
export type TRevokeReason = (typeof REVOKE_REASONS)[number];

/** The change that asks the delivery engine to take a credential off its lock (a new version). */
export function revoke(reason: TRevokeReason) {
  return { deliveryState: 'removing' as const, version: { increment: 1 }, revokeReason: reason, attempts: 0, lastError: null };
}

/** States a credential is revoked from by hand: live ones, and one whose removal failed (tried again). */
export const REVOCABLE_STATES = [...LIVE_DELIVERY_STATES, 'remove_failed'] as const;

/**
 * What a retry by hand makes of a credential's state: a failed delivery is sent again, a failed
 * removal removed again (each a new version); null when there is nothing to retry.
 */
export function retryState(state: string): 'pending' | 'removing' | null {
  return state === 'failed' ? 'pending' : state === 'remove_failed' ? 'removing' : null;
}
