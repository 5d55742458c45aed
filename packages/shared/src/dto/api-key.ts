import { z } from 'zod';
import { PERMISSIONS } from '../permissions';

export const ZApiKeyDto = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.number(), nickname: z.string() }).nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  state: z.enum(['active', 'expired', 'revoked']),
});
export type TApiKeyDto = z.infer<typeof ZApiKeyDto>;

export const ZApiKeyCreateOutput = z.object({ key: z.string(), apiKey: ZApiKeyDto });
export const ZApiKeyListOutput = z.object({ items: z.array(ZApiKeyDto), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZApiKeyRevokeOutput = ZApiKeyDto;
