import { z } from 'zod';
import { CARD_NUMBER_ORDERS, LOCK_ACCOUNT_LIST_KINDS, LOCK_ACCOUNT_STATES } from '../locks';

export const ZLockAccountDto = z.object({
  id: z.number(),
  username: z.string(),
  kind: z.enum(LOCK_ACCOUNT_LIST_KINDS),
  label: z.string(),
  state: z.enum(LOCK_ACCOUNT_STATES),
  lastError: z.string().nullable(),
  limitedUntil: z.string().nullable(),
  monthlyBudget: z.number(),
  calls: z.object({ today: z.number(), month: z.number() }),
  budget: z.enum(['warning', 'ok', 'over']),
  locks: z.object({ total: z.number(), paired: z.number(), gone: z.number() }),
  connectedAt: z.string().nullable(),
  importedAt: z.string().nullable(),
  /**
   * A Seam workspace's webhook (docs/seam.md, "Webhooks"): the path to register in Seam's console
   * (under the console's own address), whether its signing secret is set, and when its last
   * verified event came; null for a TTLock account.
   */
  webhook: z.object({ path: z.string(), configured: z.boolean(), lastEventAt: z.string().nullable() }).nullable(),
});
export type TLockAccountDto = z.infer<typeof ZLockAccountDto>;

export const ZImportResult = z.object({ total: z.number(), added: z.number(), updated: z.number(), gone: z.number(), elsewhere: z.number() });
export type TImportResult = z.infer<typeof ZImportResult>;

export const ZLockAccountListOutput = z.object({
  items: z.array(ZLockAccountDto),
  /** The install has a lock cloud (LOCK_PROVIDER other than none). */
  configured: z.boolean(),
  simulated: z.boolean(),
  /** TTLock's region; null without TTLock (no lock cloud, or Seam workspaces only). */
  region: z.string().nullable(),
  /** TTLock accounts can be connected (false with LOCK_PROVIDER=seam). */
  ttlock: z.boolean(),
  cardNumberOrder: z.enum(CARD_NUMBER_ORDERS),
});
export const ZLockAccountConnectOutput = z.object({ id: z.number() });
export const ZLockAccountConnectSeamOutput = z.object({ id: z.number() });
export const ZLockAccountReconnectOutput = z.object({ id: z.number() });
export const ZLockAccountDisconnectOutput = z.object({ id: z.number() });
export const ZLockAccountRemoveOutput = z.object({ removed: z.literal(true) });
export const ZLockAccountSetBudgetOutput = z.object({ id: z.number(), monthlyBudget: z.number() });
export const ZLockAccountImportLocksOutput = ZImportResult;
export const ZLockAccountSeamLinkOutput = z.object({ linkId: z.string(), url: z.string() });
export const ZLockAccountSeamLinkStateOutput = z.object({ state: z.enum(['pending', 'linked', 'failed']) });
export const ZLockAccountSeamWebhookOutput = z.object({ configured: z.boolean() });
export const ZLockAccountSetSettingsOutput = z.object({ cardNumberOrder: z.enum(CARD_NUMBER_ORDERS) });
