import { z } from 'zod';
import { PERMISSIONS, type TPermission } from './permissions';
import { ZId, ZInstant, ZPageInput } from './primitives';

/**
 * Third-party API keys (issue 9 §2, `user/apikey`): a key works on the card-service gateway and
 * the legacy protocol in place of a session, in its hotel, with the permissions it was given
 * (read or manage per area), never staff, key or lock-account management, never more than its
 * creator has; never an attendant's own round (`housekeeping.work`: a key is nobody's rota).
 */
const NOT_FOR_KEYS: readonly TPermission[] = ['staff.manage', 'apikey.manage', 'lock.accounts', 'housekeeping.work'];
export const API_KEY_PERMISSIONS = PERMISSIONS.filter((p) => !NOT_FOR_KEYS.includes(p)) as readonly TPermission[];
/** Every key starts with it: the transports tell a key from a session token by it. */
export const API_KEY_PREFIX = 'slk_';
export const API_KEY_RULES = { nameMaxLength: 60 } as const;

export const ZApiKeyCreateInput = z.object({
  name: z
    .string({ error: 'validation.nameRequired' })
    .trim()
    .min(1, { error: 'validation.nameRequired' })
    .max(API_KEY_RULES.nameMaxLength, { error: 'validation.textTooLong' }),
  permissions: z
    .array(z.enum(API_KEY_PERMISSIONS as [TPermission, ...TPermission[]], { error: 'validation.invalid' }), { error: 'apiKeys.errors.scopeRequired' })
    .min(1, { error: 'apiKeys.errors.scopeRequired' })
    .max(API_KEY_PERMISSIONS.length, { error: 'validation.invalid' }),
  /** Null or absent: until revoked. */
  expiresAt: ZInstant.nullish(),
});
export type TApiKeyCreateInput = z.input<typeof ZApiKeyCreateInput>;

export const ZApiKeyIdInput = z.object({ id: ZId });

export const ZApiKeyListInput = ZPageInput.extend({
  /** Revoked and expired keys too (default: only those in use). */
  all: z.boolean({ error: 'validation.invalid' }).default(false),
});
export type TApiKeyListInput = z.input<typeof ZApiKeyListInput>;

export type TApiKeyState = 'active' | 'expired' | 'revoked';
