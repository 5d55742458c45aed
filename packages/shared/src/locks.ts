import { z } from 'zod';
import { ZId, ZPageInput } from './primitives';

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
