import { z } from 'zod';
import { isTooSimple } from './code-policy';
import { LIMITS } from './limits';
import { ZId, ZInstant, ZPageInput, whenValid } from './primitives';
import { ceilToZoneHour, floorToZoneHour, HOUR_MS } from './time';

/** Where a credential stands with its lock (docs/credential-delivery.md). */
export const DELIVERY_STATES = ['pending', 'on_lock', 'failed', 'removing', 'removed', 'remove_failed', 'unknown'] as const;
export type TDeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * Our own codes for what a lock cloud refused (the TTLock adapter maps its errcodes to them, one
 * catalogue: apps/server/src/infra/locks/ttlock-errors.ts; the Seam adapter its error types:
 * infra/locks/seam/errors.ts); translated under `credentials.errors.*`.
 * What the delivery engine does with each is LOCK_ERROR_KIND.
 */
export const LOCK_ERROR_CODES = [
  'no_gateway',
  'gateway_offline',
  'gateway_busy',
  'lock_offline',
  'lock_busy',
  'duplicate_code',
  'code_too_simple',
  /** A code with a 0 for a keypad without a 0 key (a Nuki Keypad). */
  'no_zero_key',
  'code_length',
  'storage_full',
  'not_supported',
  'rate_limited',
  /** The lock cloud's monthly call limit (TTLock 30007): calls wait for the next month. */
  'monthly_limit',
  'lock_not_found',
  'lock_frozen',
  'credential_not_found',
  /** The lock cloud would not make a face's feature data from its photo (no clear face, size, format). */
  'photo_rejected',
  /** A generated code the guest has not used yet cannot be changed (TTLock -3008). */
  'not_changeable',
  /**
   * An offline code the lock's platform cannot take off (Seam offline codes cannot be deleted): it
   * keeps working until its validity ends, and is not tried again.
   */
  'offline_kept',
  /** A generated code for these hours was issued and deleted before (TTLock -1026). */
  'period_used',
  /** The lock has no generated-code data: reset its passcodes in the TTLock app (TTLock -1007). */
  'no_passcode_data',
  /** The lock cloud refused a parameter (TTLock -3). */
  'invalid_parameter',
  /** The account is not the lock's administrator (TTLock -2018, 20002). */
  'permission_denied',
  'gateway_not_found',
  /** A WiFi lock without its network set up, or in power-saving mode (TTLock -3034, -3035). */
  'wifi_not_configured',
  'wifi_power_saving',
  /** This server's clock is more than 5 minutes away from the lock cloud's (TTLock 80000). */
  'clock_skew',
  /** The lock account's tokens were refused: its password is needed again (TTLock 10003, 10004, 10007, 10011). */
  'auth_failed',
  /** The account belongs to the other TTLock region (TTLock 30008). */
  'wrong_region',
  /** The lock cloud refused this install's developer application (TTLock 10000, 10001, 10006). */
  'app_refused',
  /** The lock's lock account was disconnected, or the lock was never imported from one. */
  'account_disconnected',
  /** The lock cloud failed on its side (TTLock 90000, and codes it does not publish). */
  'cloud_error',
  /**
   * The lock cloud accepted the credential but the lock did not take it (Seam's access code error
   * `failed_to_set_on_device`, seen after the create answered): sent again, or a backup code.
   */
  'failed_on_lock',
  /** A card system's encoder found no card on it (Seam `no_credential_on_encoder`): place one and encode again. */
  'no_card_on_encoder',
  /** The card on the encoder is not of the card system's kind (Seam `incompatible_card_format`). */
  'card_not_encodable',
  /** The card was taken off the encoder before it was written (Seam `encoding_interrupted`). */
  'encoding_interrupted',
  /** The card system cannot be reached: its bridge or server at the hotel is down (Seam `bridge_disconnected`). */
  'card_system_offline',
  'network',
  'provider_error',
] as const;
export type TLockErrorCode = (typeof LOCK_ERROR_CODES)[number];

/**
 * What a refusal means for the work that met it:
 * - `retry`: it may pass later by itself (a gateway busy or offline, the network): tried again with backoff;
 * - `permanent`: retrying cannot fix it (the code, the lock, a setting): fails at once with the reason;
 * - `account`: the hotel's lock account must be fixed (password, region): the work waits, spends no
 *   attempt, and goes on when the account is connected again;
 * - `limit`: the lock cloud's call limit: the work waits until the limit lifts.
 */
export type TLockErrorKind = 'retry' | 'permanent' | 'account' | 'limit';
export const LOCK_ERROR_KIND: Record<TLockErrorCode, TLockErrorKind> = {
  no_gateway: 'retry',
  gateway_offline: 'retry',
  gateway_busy: 'retry',
  lock_offline: 'retry',
  lock_busy: 'retry',
  duplicate_code: 'permanent',
  code_too_simple: 'permanent',
  no_zero_key: 'permanent',
  code_length: 'permanent',
  storage_full: 'permanent',
  not_supported: 'permanent',
  rate_limited: 'limit',
  monthly_limit: 'limit',
  lock_not_found: 'permanent',
  lock_frozen: 'permanent',
  credential_not_found: 'permanent',
  photo_rejected: 'permanent',
  not_changeable: 'permanent',
  offline_kept: 'permanent',
  period_used: 'permanent',
  no_passcode_data: 'permanent',
  invalid_parameter: 'permanent',
  permission_denied: 'permanent',
  gateway_not_found: 'permanent',
  wifi_not_configured: 'permanent',
  wifi_power_saving: 'permanent',
  clock_skew: 'permanent',
  auth_failed: 'account',
  wrong_region: 'account',
  app_refused: 'account',
  account_disconnected: 'account',
  cloud_error: 'retry',
  failed_on_lock: 'retry',
  no_card_on_encoder: 'permanent',
  card_not_encodable: 'permanent',
  encoding_interrupted: 'permanent',
  card_system_offline: 'retry',
  network: 'retry',
  provider_error: 'retry',
};

/**
 * Why the last delivery attempt failed: a lock cloud's refusal, a room without a lock, or a face
 * whose photo is no longer in the upload store (`photo_missing`).
 */
export const DELIVERY_ERRORS = ['no_lock', 'photo_missing', ...LOCK_ERROR_CODES] as const;
export type TDeliveryError = (typeof DELIVERY_ERRORS)[number];

/** Spec: air (over the air), custom, one-time valid; validity can be permanent. */
export const PASSWORD_KINDS = ['air', 'custom', 'one_time'] as const;
export type TPasswordKind = (typeof PASSWORD_KINDS)[number];

/** Who a password is for: a stay's guest, a staff member or manager, or anyone named (standalone). */
export const PASSWORD_HOLDERS = ['stay', 'staff', 'standalone'] as const;

/** The lock cloud's rules for generated passwords. */
export const AIR_PASSWORD_RULES = {
  /** A one-time password must be used within this many hours of its start. */
  oneTimeUseWithinHours: 6,
  /** A period or permanent generated password must be used once within this many hours of its start. */
  firstUseWithinHours: 24,
  /** A period spans at most this many days. */
  maxPeriodDays: 366,
} as const;

const MINUTE_MS = 60_000;

/**
 * The validity a lock really applies to a password: generated ones (over the air, one-time) are
 * whole hours of the hotel's clock (start rounded down, end up; half-hour time zones included) and
 * a one-time password is usable for `oneTimeUseWithinHours` from its start; custom ones have minute
 * precision. `until` null: permanent. The server stores this; the console shows it before the
 * password is issued.
 */
export function passwordValidity(kind: TPasswordKind, from: Date, until: Date | null, timeZone: string): { validFrom: Date; validUntil: Date | null } {
  const floor = (d: Date, step: number) => new Date(Math.floor(d.getTime() / step) * step);
  if (kind === 'custom') return { validFrom: floor(from, MINUTE_MS), validUntil: until ? floor(until, MINUTE_MS) : null };
  const start = floorToZoneHour(from, timeZone);
  if (kind === 'one_time') return { validFrom: start, validUntil: new Date(start.getTime() + AIR_PASSWORD_RULES.oneTimeUseWithinHours * HOUR_MS) };
  return { validFrom: start, validUntil: until ? ceilToZoneHour(until, timeZone) : null };
}

/** A custom code the desk types: six digits that the lock's code policy takes (code-policy.ts: never too simple). */
export const ZCustomPasswordCode = z
  .string({ error: 'validation.customPasswordFormat' })
  .regex(new RegExp(`^\\d{${LIMITS.customPasswordLength}}$`), { error: 'validation.customPasswordFormat' })
  .refine((code) => !isTooSimple(code), { error: 'credentials.errors.code_too_simple' });

/** A password to issue on a room's lock. */
export const ZPasswordCreateInput = z
  .object({
    roomId: ZId,
    kind: z.enum(PASSWORD_KINDS, { error: 'validation.passwordKindInvalid' }),
    /** Custom passwords only: exactly 6 digits. */
    code: ZCustomPasswordCode.optional(),
    /** "Name or phone" of the holder (required unless the password is for a stay or a staff member, who name it). */
    holderName: z.string({ error: 'validation.holderRequired' }).trim().max(LIMITS.guestFieldMax.name, { error: 'validation.textTooLong' }).default(''),
    stayId: ZId.optional(),
    /** A staff member or manager of the hotel (their account). */
    accountId: ZId.optional(),
    validFrom: ZInstant.optional(),
    /** Omitted: permanent (custom and over-the-air), or the stay's check-out for a stay's password. */
    validUntil: ZInstant.optional(),
  })
  .refine((v) => v.kind !== 'custom' || v.code !== undefined, { error: 'validation.customPasswordFormat', path: ['code'], ...whenValid('kind', 'code') })
  // A stay's guest or a staff member's account names the holder; anyone else needs a name or phone.
  .refine((v) => v.stayId !== undefined || v.accountId !== undefined || v.holderName !== '', {
    error: 'validation.holderRequired',
    path: ['holderName'],
    ...whenValid('stayId', 'accountId', 'holderName'),
  })
  .refine((v) => !v.validFrom || !v.validUntil || v.validUntil.getTime() > v.validFrom.getTime(), {
    error: 'validation.endAfterStart',
    path: ['validUntil'],
    ...whenValid('validFrom', 'validUntil'),
  });
export type TPasswordCreateInput = z.input<typeof ZPasswordCreateInput>;

export const ZPasswordListInput = ZPageInput.extend({
  roomId: ZId.optional(),
  stayId: ZId.optional(),
  /** `active`: not yet taken off the lock; `history`: removed or failed. */
  scope: z.enum(['active', 'history', 'all'], { error: 'validation.invalid' }).default('active'),
});
export type TPasswordListInput = z.input<typeof ZPasswordListInput>;

export const ZPasswordIdInput = z.object({ id: ZId });

/**
 * Why a staff member takes a password off its lock: deleted (`manual`) or called back
 * (`called_back`). Both take it off and move it to the history; the reason is what the history shows.
 */
export const PASSWORD_REVOKE_REASONS = ['manual', 'called_back'] as const;
export const ZPasswordRevokeInput = z.object({
  id: ZId,
  reason: z.enum(PASSWORD_REVOKE_REASONS, { error: 'validation.invalid' }).default('manual'),
});
export type TPasswordRevokeInput = z.input<typeof ZPasswordRevokeInput>;

/** Limits the validity of a stay's passwords: none of them works after `validUntil`. */
export const ZPasswordLimitInput = z.object({
  stayId: ZId,
  validUntil: ZInstant,
});
export type TPasswordLimitInput = z.input<typeof ZPasswordLimitInput>;

/**
 * What a room change did with each credential of the old stay (docs/credential-delivery.md,
 * "Room change: the keys follow the guest"):
 * - `same_code`: a custom code issued on the new room's lock with the same digits;
 * - `new_code`: a generated (or one-time) code cannot be chosen: a new one is issued there, and the
 *   guest is given it once the lock cloud made it;
 * - `moved`: a face or a card sent over the air, put on the new room's lock;
 * - `code_taken`: the same custom code is already on the new room's lock (another credential of
 *   ours holds it): nothing is issued in its place, the desk decides;
 * - `already_there`: the face is already authorised on the new room's lock;
 * - `ended`: a card with data written for the old room: it would open the old door, so it ends;
 *   the new room's cards are written at the desk.
 */
export const CREDENTIAL_MOVE_OUTCOMES = ['same_code', 'new_code', 'moved', 'code_taken', 'already_there', 'ended'] as const;
export type TCredentialMoveOutcome = (typeof CREDENTIAL_MOVE_OUTCOMES)[number];

/**
 * Why a credential issued on a room cannot reach its lock, known before any attempt: the room has
 * no paired lock, its lock lacks what the credential needs (a keypad, a card reader, a face
 * module), or the lock left its lock account. The credential is recorded as failed with this
 * reason (`credentials.errors.<reason>`), and can be tried again once the room has a lock.
 */
export const UNDELIVERABLE_REASONS = ['no_lock', 'not_supported', 'lock_not_found'] as const;
export type TUndeliverableReason = (typeof UNDELIVERABLE_REASONS)[number];
