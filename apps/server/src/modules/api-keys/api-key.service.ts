import { randomBytes } from 'node:crypto';
import {
  API_KEY_PERMISSIONS,
  API_KEY_PREFIX,
  ZApiKeyCreateInput,
  ZApiKeyIdInput,
  ZApiKeyListInput,
  type TApiKeyCreateInput,
  type TApiKeyListInput,
  type TApiKeyState,
  type TPermission,
} from '@console/shared';
import type { z } from 'zod';
import type { Actor, AuthedContext, Deps } from '../../context';
import { transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { hashToken } from '../auth/session.service';

export interface ApiKeyDto {
  id: number;
  name: string;
  /** The key's first characters, to tell keys apart; the key itself is shown once, when made. */
  prefix: string;
  permissions: TPermission[];
  expiresAt: string | null;
  createdAt: string;
  createdBy: { id: number; nickname: string } | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  state: TApiKeyState;
}

const select = {
  id: true,
  name: true,
  prefix: true,
  permissions: true,
  expiresAt: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  createdBy: { select: { id: true, nickname: true } },
} as const;

type Row = {
  id: number;
  name: string;
  prefix: string;
  permissions: string[];
  expiresAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdBy: { id: number; nickname: string } | null;
};

function stateOf(row: { revokedAt: Date | null; expiresAt: Date | null }, now: number): TApiKeyState {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

function toDto(row: Row, now = Date.now()): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: row.permissions.filter((p): p is TPermission => (API_KEY_PERMISSIONS as readonly string[]).includes(p)),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state: stateOf(row, now),
  };
}

/** Third-party authorisation is for members who manage keys and whose membership shows it (spec §2, apiKeyAuth). */
function requireKeyManager(actor: Actor) {
  requirePermission(actor, 'apikey.manage');
  if (!actor.apiKeyAuth || actor.apiKeyId !== undefined) throw new AppError('FORBIDDEN');
}

/** Makes a key (`user/apikey`): answered once in full, kept only as its hash. */
export async function createApiKey(ctx: AuthedContext, raw: TApiKeyCreateInput): Promise<{ key: string; apiKey: ApiKeyDto }> {
  const { deps, actor } = ctx;
  requireKeyManager(actor);
  const input = ZApiKeyCreateInput.parse(raw);
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw new AppError('VALIDATION', { messageKey: 'apiKeys.errors.expiryInPast', fields: { expiresAt: 'apiKeys.errors.expiryInPast' } });
  }
  // Never more than the member who makes it may do.
  const beyond = input.permissions.filter((p) => !actor.permissions.has(p));
  if (beyond.length) throw new AppError('FORBIDDEN', { messageKey: 'apiKeys.errors.beyondOwnPermissions' });
  const permissions = [...new Set(input.permissions)].sort();
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await transaction(deps, async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        hotelId: actor.hotelId,
        name: input.name,
        prefix: key.slice(0, API_KEY_PREFIX.length + 8),
        keyHash: hashToken(key),
        permissions,
        expiresAt: input.expiresAt ?? null,
        createdByAccountId: actor.accountId,
      },
      select,
    });
    await recordAudit(tx, ctx, {
      action: 'apikey.create',
      entityType: 'ApiKey',
      entityId: created.id,
      after: { name: created.name, prefix: created.prefix, permissions, expiresAt: created.expiresAt?.toISOString() ?? null },
    });
    return created;
  });
  return { key, apiKey: toDto(row) };
}

/** The hotel's keys (`user/apiKeyList`), newest first, with their last use; revoked and expired ones on request. */
export async function listApiKeys(ctx: AuthedContext, raw: TApiKeyListInput): Promise<{ items: ApiKeyDto[]; total: number; page: number; pageSize: number }> {
  const { deps, actor } = ctx;
  requireKeyManager(actor);
  const input = ZApiKeyListInput.parse(raw);
  const now = new Date();
  const where = { hotelId: actor.hotelId, ...(input.all ? {} : { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }) };
  const [rows, total] = await Promise.all([
    deps.prisma.apiKey.findMany({
      where,
      select,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    deps.prisma.apiKey.count({ where }),
  ]);
  return { items: rows.map((r) => toDto(r, now.getTime())), total, page: input.page, pageSize: input.pageSize };
}

/** Revokes a key at once (`user/apiKeyDel`): its next request is refused. */
export async function revokeApiKey(ctx: AuthedContext, raw: z.input<typeof ZApiKeyIdInput>): Promise<ApiKeyDto> {
  const { deps, actor } = ctx;
  requireKeyManager(actor);
  const { id } = ZApiKeyIdInput.parse(raw);
  const row = await transaction(deps, async (tx) => {
    const found = await tx.apiKey.findFirst({ where: { id, hotelId: actor.hotelId }, select: { id: true, revokedAt: true } });
    if (!found) throw new AppError('NOT_FOUND', { messageKey: 'apiKeys.errors.notFound' });
    if (found.revokedAt) throw new AppError('CONFLICT', { messageKey: 'apiKeys.errors.alreadyRevoked' });
    const revoked = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() }, select });
    await recordAudit(tx, ctx, { action: 'apikey.revoke', entityType: 'ApiKey', entityId: id, before: { name: revoked.name, prefix: revoked.prefix } });
    return revoked;
  });
  return toDto(row);
}

const TOUCH_INTERVAL_MS = 60_000;

interface ApiKeyRow {
  id: number;
  hotelId: number;
  permissions: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  timeZone: string;
  currency: string;
  accountId: number | null;
}

/**
 * The actor of a request made with an API key (card-service gateway, legacy protocol): the key's
 * hotel, every room, its own permissions. Audited with the key as actor; services that record who
 * made something record the member who made the key.
 */
export async function resolveApiKey(deps: Deps, key: string): Promise<Actor> {
  if (key.length > 128) throw new AppError('UNAUTHENTICATED');
  // One statement, as a session is resolved: the key, its hotel, and on whose behalf it acts (the
  // member who made it, or else the hotel's first owner). Every request of the JSON API starts here
  // (bench/README.md, "The JSON API against tRPC").
  const [row] = await deps.prisma.$queryRaw<ApiKeyRow[]>`
    SELECT k."id", k."hotelId", k."permissions", k."expiresAt", k."revokedAt", k."lastUsedAt", h."timeZone", h."currency",
           COALESCE(k."createdByAccountId",
             (SELECT m."accountId" FROM "Membership" m WHERE m."hotelId" = k."hotelId" AND m."role" = 'owner' ORDER BY m."id" LIMIT 1)) AS "accountId"
    FROM "ApiKey" k JOIN "Hotel" h ON h."id" = k."hotelId"
    WHERE k."keyHash" = ${hashToken(key)}`;
  const now = Date.now();
  if (!row || stateOf(row, now) !== 'active') throw new AppError('UNAUTHENTICATED');
  const accountId = row.accountId;
  if (accountId === null) throw new AppError('UNAUTHENTICATED');
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await deps.prisma.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  const permissions = row.permissions.filter((p): p is TPermission => (API_KEY_PERMISSIONS as readonly string[]).includes(p));
  return {
    sessionId: 0,
    accountId,
    hotelId: row.hotelId,
    timeZone: row.timeZone,
    currency: row.currency,
    membershipId: 0,
    allRooms: true,
    role: 'staff',
    permissions: new Set(permissions),
    apiKeyAuth: false,
    apiKeyId: row.id,
  };
}

/** A session token or, starting with `slk_`, an API key: the actor of a legacy or gateway request. */
export async function resolveSessionOrKey(
  deps: Deps,
  token: string | undefined,
  resolveSession: (token: string | undefined) => Promise<Actor>,
): Promise<Actor> {
  if (token?.startsWith(API_KEY_PREFIX)) return resolveApiKey(deps, token);
  return resolveSession(token);
}
