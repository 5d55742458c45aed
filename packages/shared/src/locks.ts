import { z } from 'zod';
import { LIMITS } from './limits';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput, ZSearch, zInt } from './primitives';
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
export const LOCK_MESSAGE_KINDS = [
  'low_battery',
  'lock_offline',
  'lock_online',
  'tamper',
  'wrong_codes',
  'blacklisted_card',
  /** The lock is no longer in the hotel's lock account (found at an import): its room needs another lock. */
  'lock_gone',
  /** The lock's door sensor: the door opened, closed, or was left open (an alarm). */
  'door_open',
  'door_closed',
  'door_left_open',
] as const;
export type TLockMessageKind = (typeof LOCK_MESSAGE_KINDS)[number];

export const ZLockMessageListInput = ZPageInput.extend({
  roomId: ZId.optional(),
  unreadOnly: z.boolean({ error: 'validation.flagInvalid' }).default(false),
});
export const ZLockMessageIdsInput = z.object({
  ids: z.array(ZId, { error: 'validation.idInvalid' }).min(1, { error: 'validation.idInvalid' }).max(200, { error: 'validation.idInvalid' }),
});

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
  .refine((v) => v.accountId !== undefined || (v.name !== undefined && v.name !== ''), {
    error: 'validation.holderRequired',
    path: ['name'],
    ...WHEN_FIELDS_VALID,
  });
export const ZLockManagerIdInput = z.object({ id: ZId });

// ---------------------------------------------------------------------------------------------
// Lock accounts (a hotel's own TTLock user accounts) and the hotel's locks

/** Where a hotel's lock account stands with the lock cloud. */
export const LOCK_ACCOUNT_STATES = ['connected', 'needs_password', 'wrong_region', 'suspended', 'disconnected'] as const;
export type TLockAccountState = (typeof LOCK_ACCOUNT_STATES)[number];

/** A TTLock account of the lock app, or one TTHotel's desk software exported (its locks are listed apart). */
export const LOCK_ACCOUNT_KINDS = ['ttlock', 'tthotel'] as const;
export type TLockAccountKind = (typeof LOCK_ACCOUNT_KINDS)[number];

/** Every kind an account of the lock accounts page can be: a TTLock one (above) or a Seam workspace (docs/seam.md). */
export const LOCK_ACCOUNT_LIST_KINDS = [...LOCK_ACCOUNT_KINDS, 'seam'] as const;
export type TLockAccountListKind = (typeof LOCK_ACCOUNT_LIST_KINDS)[number];

/** A monthly budget of lock-cloud calls per account (TTLock does not publish its quota). */
export const LOCK_CALL_BUDGET = { default: 100_000, min: 100, max: 100_000_000, warnAtPercent: 80 } as const;

export const ZLockAccountConnectInput = z.object({
  /** The TTLock app account: a phone number, an e-mail address or a user name, as the app signs in with. */
  username: z
    .string({ error: 'validation.lockAccountRequired' })
    .trim()
    .min(1, { error: 'validation.lockAccountRequired' })
    .max(LIMITS.lockAccountMax, { error: 'validation.textTooLong' }),
  /** Sent to the lock cloud as it asks (its MD5), never kept. */
  password: z
    .string({ error: 'validation.passwordRequired' })
    .min(1, { error: 'validation.passwordRequired' })
    .max(LIMITS.passwordMaxLength, { error: 'validation.textTooLong' }),
  kind: z.enum(LOCK_ACCOUNT_KINDS, { error: 'validation.invalid' }).default('ttlock'),
  label: z.string({ error: 'validation.textInvalid' }).trim().max(LIMITS.lockAccountMax, { error: 'validation.textTooLong' }).default(''),
});
export type TLockAccountConnectInput = z.input<typeof ZLockAccountConnectInput>;

/**
 * A Seam workspace connected with its API key (`seam_...`): checked against Seam once, then kept
 * sealed and never shown again. The workspace is the account (one per hotel).
 */
export const ZLockAccountConnectSeamInput = z.object({
  apiKey: z
    .string({ error: 'validation.apiKeyRequired' })
    .trim()
    .min(1, { error: 'validation.apiKeyRequired' })
    .max(LIMITS.lockAccountMax, { error: 'validation.textTooLong' }),
  label: ZLockAccountConnectInput.shape.label,
});
export type TLockAccountConnectSeamInput = z.input<typeof ZLockAccountConnectSeamInput>;

export const ZLockAccountIdInput = z.object({ accountId: ZId });
/** Where a Seam lock-brand link stands (docs/seam.md, "Linking a lock account"): the page Seam gave, by its id. */
export const ZLockAccountSeamLinkStateInput = z.object({
  accountId: ZId,
  linkId: z
    .string({ error: 'validation.invalid' })
    .trim()
    .min(1, { error: 'validation.invalid' })
    .max(100, { error: 'validation.textTooLong' })
    .regex(/^[\w-]+$/, { error: 'validation.invalid' }),
});
/**
 * A Seam workspace's webhook signing secret, as Seam's console shows it (`whsec_` and base64); an
 * empty text takes the webhook off (docs/seam.md, "Webhooks").
 */
export const ZLockAccountSeamWebhookInput = z.object({
  accountId: ZId,
  secret: z
    .string({ error: 'validation.webhookSecretInvalid' })
    .trim()
    .max(200, { error: 'validation.textTooLong' })
    .regex(/^(whsec_[A-Za-z0-9+/]{24,}={0,2})?$/, { error: 'validation.webhookSecretInvalid' }),
});
export const ZLockAccountReconnectInput = z.object({ accountId: ZId, password: ZLockAccountConnectInput.shape.password });
export const ZLockAccountBudgetInput = z.object({
  accountId: ZId,
  monthlyBudget: zInt({ min: LOCK_CALL_BUDGET.min, max: LOCK_CALL_BUDGET.max }, 'validation.lockBudgetInvalid'),
});

/** Which of the hotel's locks a list shows. */
export const LOCK_LIST_FILTERS = ['all', 'unpaired', 'paired', 'gone'] as const;
export const ZHotelLockListInput = ZPageInput.extend({
  accountId: ZId.optional(),
  filter: z.enum(LOCK_LIST_FILTERS, { error: 'validation.invalid' }).default('all'),
  search: ZSearch.optional(),
});
export type THotelLockListInput = z.input<typeof ZHotelLockListInput>;

/** One lock of the hotel by its id (the lock list's `id`, its row). */
export const ZLockGetInput = z.object({ id: ZId });

/** Rooms paired with locks of the hotel, in bulk: `lockId` is the hotel's lock (its row), null unpairs. */
export const ZLockPairInput = z.object({
  pairs: z
    .array(z.object({ roomId: ZId, lockId: ZId.nullable() }), { error: 'validation.invalid' })
    .min(1, { error: 'validation.invalid' })
    .max(LIMITS.lockPairsMax, { error: 'validation.invalid' }),
});
export type TLockPairInput = z.input<typeof ZLockPairInput>;

/** Rooms to pick for a lock (the picker), found by their name. */
export const ZPairableRoomsInput = z.object({ search: ZSearch.optional() });

/**
 * How the hotel's desk reader gives card numbers compared with its locks: `same` (TTLock
 * identityCard/add) or `reversed` byte order (identityCard/addForReversedCardNumber).
 */
export const CARD_NUMBER_ORDERS = ['same', 'reversed'] as const;
export type TCardNumberOrder = (typeof CARD_NUMBER_ORDERS)[number];
export const ZLockSettingsInput = z.object({ cardNumberOrder: z.enum(CARD_NUMBER_ORDERS, { error: 'validation.invalid' }) });
