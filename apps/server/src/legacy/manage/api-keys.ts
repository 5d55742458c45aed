import { z } from 'zod';
import { API_KEY_PERMISSIONS, ZApiKeyCreateInput, ZId, type TPermission } from '@console/shared';
import type { Actor } from '../../context';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyDto } from '../../modules/api-keys/api-key.service';
import { sessionAction } from './action';
import { instantOrFail, legacyPage, zLegacyPaging, ZLegacyTime } from './convert';
import { legacyTime } from './format';

/** An API key in legacy form: times in the hotel's zone; the key itself only when it is made. */
function legacyApiKey(k: ApiKeyDto, actor: Actor) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scope: k.permissions,
    status: k.state,
    expire_time: legacyTime(k.expiresAt, actor.timeZone),
    create_time: legacyTime(k.createdAt, actor.timeZone),
    last_use_time: legacyTime(k.lastUsedAt, actor.timeZone),
    revoke_time: legacyTime(k.revokedAt, actor.timeZone),
    creator: k.createdBy?.nickname ?? null,
  };
}

/** A scope as old clients send it: an array, or the permissions separated by commas. */
const ZLegacyScope = z.union([
  z.array(z.string()),
  z.string().transform((s) =>
    s
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  ),
]);

/** `/manage/user/apikey`, `apiKeyList`, `apiKeyDel`: third-party API keys (docs/legacy-protocol.md, "API keys"). */
export const apiKeyActions = [
  sessionAction({
    path: 'user/apikey',
    input: z.object({ name: ZApiKeyCreateInput.shape.name, scope: ZLegacyScope, expire_time: ZLegacyTime.optional() }),
    services: [createApiKey],
    fields: { permissions: 'scope', expiresAt: 'expire_time' },
    async handle(ctx, input) {
      const expiresAt = input.expire_time ? instantOrFail(input.expire_time, ctx.actor, 'expire_time') : null;
      const { key, apiKey } = await createApiKey(ctx, { name: input.name, permissions: input.scope as TPermission[], expiresAt });
      return { ...legacyApiKey(apiKey, ctx.actor), api_key: key };
    },
  }),

  sessionAction({
    path: 'user/apiKeyList',
    input: z.object({ ...zLegacyPaging(), all: z.union([z.literal(0), z.literal(1)]).default(0) }),
    services: [listApiKeys],
    async handle(ctx, input) {
      const result = await listApiKeys(ctx, { page: input.page, pageSize: input.limit, all: input.all === 1 });
      return { ...legacyPage(result, (k) => legacyApiKey(k, ctx.actor)), scopes: API_KEY_PERMISSIONS };
    },
  }),

  sessionAction({
    path: 'user/apiKeyDel',
    input: z.object({ id: ZId }),
    services: [revokeApiKey],
    handle: async (ctx, input) => legacyApiKey(await revokeApiKey(ctx, { id: input.id }), ctx.actor),
  }),
];
