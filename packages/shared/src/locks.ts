import { z } from 'zod';
import { LIMITS } from './limits';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput, ZSearch } from './primitives';
import { ZMobile } from './validation';

/** Locks: status, remote unlock, what a lock holds, lock messages (alarms and notices). */

export const ZRoomLockInput = z.object({ roomId: ZId, refresh: z.boolean({ error: 'validation.flagInvalid' }).default(false) });

/** Kinds of item a lock holds that the console reads back. */
export const LOCK_ITEM_KINDS = ['password', 'face', 'card'] as const;
export type TLockItemKind = (typeof LOCK_ITEM_KINDS)[number];

/** What reading a lock back found for an item (docs/credential-delivery.md, reconciliation). */
export const LOCK_DRIFTS = ['ok', 'in_flight', 'missing', 'should_be_removed', 'expired', 'unconfirmed', 'unmanaged'] as const;
export type TLockDrift = (typeof LOCK_DRIFTS)[number];

export const ZRemoveFromLockInput = z.object({
  roomId: ZId,
  kind: z.enum(LOCK_ITEM_KINDS, { error: 'validation.kindInvalid' }),
  /** The provider's id of the item on the lock. */
  ref: z.string({ error: 'validation.idInvalid' }).regex(/^\d{1,18}$/, { error: 'validation.idInvalid' }),
});

/** Kinds of lock message: alarms from the lock and notices about it. */
export const LOCK_MESSAGE_KINDS = ['low_battery', 'lock_offline', 'lock_online', 'tamper', 'wrong_codes', 'blacklisted_card'] as const;
export type TLockMessageKind = (typeof LOCK_MESSAGE_KINDS)[number];

export const ZLockMessageListInput = ZPageInput.extend({
  roomId: ZId.optional(),
  unreadOnly: z.boolean({ error: 'validation.flagInvalid' }).default(false),
});
export const ZLockMessageIdsInput = z.object({ ids: z.array(ZId, { error: 'validation.idInvalid' }).min(1, { error: 'validation.idInvalid' }).max(200, { error: 'validation.idInvalid' }) });

/** Unlock records of the hotel by person: whose credential, or whose name, opened (or tried). */
export const ZRecordsByPersonInput = ZPageInput.extend({
  /** The person's name as the records carry it (searched literally). */
  person: ZSearch.optional(),
  /** One credential of ours: `password:12`, `face:3`, `card:7`. */
  credential: z
    .string({ error: 'validation.invalid' })
    .regex(/^(password|face|card):[1-9]\d{0,9}$/, { error: 'validation.invalid' })
    .optional(),
  roomId: ZId.optional(),
  from: ZLocalDate.optional(),
  to: ZLocalDate.optional(),
}).refine((v) => !v.from || !v.to || v.from <= v.to, { error: 'validation.endAfterStart', path: ['to'], ...WHEN_FIELDS_VALID });

/** People allowed to manage a room's lock: a member of the hotel, or someone named with a phone. */
export const ZLockManagerAddInput = z
  .object({
    roomId: ZId,
    accountId: ZId.optional(),
    name: z.string({ error: 'validation.holderRequired' }).trim().max(LIMITS.guestFieldMax.name, { error: 'validation.textTooLong' }).optional(),
    mobile: ZMobile.optional(),
  })
  .refine((v) => v.accountId !== undefined || (v.name !== undefined && v.name !== ''), { error: 'validation.holderRequired', path: ['name'], ...WHEN_FIELDS_VALID });
export const ZLockManagerIdInput = z.object({ id: ZId });
