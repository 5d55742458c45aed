import { z } from 'zod';
import { LIMITS } from './limits';
import { ZId, ZInstant, ZPageInput, whenValid } from './primitives';

/** Where a credential stands with its lock (docs/credential-delivery.md). */
export const DELIVERY_STATES = ['pending', 'on_lock', 'failed', 'removing', 'removed', 'remove_failed', 'unknown'] as const;
export type TDeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * Our own codes for what a lock cloud refused (the TTLock adapter maps its errcodes to them);
 * translated under `credentials.errors.*`.
 */
export const LOCK_ERROR_CODES = [
  'no_gateway',
  'gateway_offline',
  'gateway_busy',
  'lock_offline',
  'lock_busy',
  'duplicate_code',
  'code_too_simple',
  'code_length',
  'storage_full',
  'not_supported',
  'rate_limited',
  'lock_not_found',
  'lock_frozen',
  'credential_not_found',
  /** The lock cloud would not make a face's feature data from its photo (no clear face, size, format). */
  'photo_rejected',
  'auth_failed',
  'network',
  'provider_error',
] as const;
export type TLockErrorCode = (typeof LOCK_ERROR_CODES)[number];

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

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The validity a lock really applies to a password: generated ones (over the air, one-time) have
 * hour precision (start rounded down, end up) and a one-time password is usable for
 * `oneTimeUseWithinHours` from its start; custom ones have minute precision. `until` null: permanent.
 * The server stores this; the console shows it before the password is issued.
 */
export function passwordValidity(kind: TPasswordKind, from: Date, until: Date | null): { validFrom: Date; validUntil: Date | null } {
  const floor = (d: Date, step: number) => new Date(Math.floor(d.getTime() / step) * step);
  if (kind === 'custom') return { validFrom: floor(from, MINUTE_MS), validUntil: until ? floor(until, MINUTE_MS) : null };
  const start = floor(from, HOUR_MS);
  if (kind === 'one_time') return { validFrom: start, validUntil: new Date(start.getTime() + AIR_PASSWORD_RULES.oneTimeUseWithinHours * HOUR_MS) };
  return { validFrom: start, validUntil: until ? new Date(Math.ceil(until.getTime() / HOUR_MS) * HOUR_MS) : null };
}

export const ZCustomPasswordCode = z
  .string({ error: 'validation.customPasswordFormat' })
  .regex(new RegExp(`^\\d{${LIMITS.customPasswordLength}}$`), { error: 'validation.customPasswordFormat' });

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
  .refine((v) => v.stayId !== undefined || v.accountId !== undefined || v.holderName !== '', { error: 'validation.holderRequired', path: ['holderName'], ...whenValid('stayId', 'accountId', 'holderName') })
  .refine((v) => !v.validFrom || !v.validUntil || v.validUntil.getTime() > v.validFrom.getTime(), { error: 'validation.endAfterStart', path: ['validUntil'], ...whenValid('validFrom', 'validUntil') });
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
