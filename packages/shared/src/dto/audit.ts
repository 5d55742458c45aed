import { z } from 'zod';
import { AUDIT_ACTOR_TYPES, AUDIT_CHANNELS } from '../audit';
import { ROLES } from '../permissions';
import { ZDeviceInfo } from './account';

export const ZAuditItem = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    accountId: z.number().nullable(),
    /** An account's nickname, an API key's name, or the automation (or calendar feed) a job acted as, in words. */
    name: z.string().nullable(),
    mobile: z.string().nullable(),
    email: z.string().nullable(),
    apiKeyId: z.number().nullable(),
    apiKeyPrefix: z.string().nullable(),
    job: z.string().nullable(),
  }),
  action: z.string(),
  /** The action in words of the request's language; the code when the server has none for it. */
  actionLabel: z.string(),
  /** The target's code and id, and the target in words of the request's language. */
  target: z.object({ type: z.string().nullable(), id: z.string().nullable(), label: z.string().nullable() }),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  device: ZDeviceInfo,
  channel: z.enum(AUDIT_CHANNELS).nullable(),
  requestId: z.string().nullable(),
});
export type TAuditItem = z.infer<typeof ZAuditItem>;

export const ZAuditListOutput = z.object({ items: z.array(ZAuditItem), total: z.number(), totalCapped: z.boolean(), page: z.number(), pageSize: z.number() });
export const ZAuditActorsOutput = z.object({
  accounts: z.array(z.object({ id: z.number(), name: z.string(), mobile: z.string().nullable(), email: z.string().nullable(), role: z.enum(ROLES) })),
  apiKeys: z.array(z.object({ id: z.number(), name: z.string(), prefix: z.string(), revoked: z.boolean() })),
});
