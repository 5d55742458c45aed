import { ZAuditListInput, type TAuditActorType, type TAuditChannel, type TAuditListInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import type { KeysetCursor } from '../../db/keyset';
import { Prisma } from '../../generated/prisma/client';
import { auditTargetNameSql, auditWhereSql, requireAuditReader, type AuditItem } from '../audit/audit-log';
import { describeUserAgent } from '../../infra/user-agent';

/**
 * The audit log read whole for an export (issue 9 §5), by keyset instead of `listAuditLog`'s
 * OFFSET pages: the same reader check (`audit.read` over the whole hotel) and the same conditions
 * (`auditWhereSql`, the list's own), newest first, each chunk starting after the last one's
 * (time, id). The list service itself is left as it is (its paging and indexes are another
 * benchmark's, bench/README.md); the entries are the list's `AuditItem`s.
 */

interface Row {
  id: number;
  createdAt: Date;
  actorType: TAuditActorType;
  actorAccountId: number | null;
  actorApiKeyId: number | null;
  actorJob: string | null;
  accountName: string | null;
  accountMobile: string | null;
  accountEmail: string | null;
  apiKeyName: string | null;
  apiKeyPrefix: string | null;
  action: string;
  entityType: string | null;
  entityId: string | null;
  targetName: string | null;
  ip: string | null;
  userAgent: string | null;
  channel: TAuditChannel | null;
  requestId: string | null;
}

/** Up to `limit` entries after `after` (from the newest when null), as the audit log lists them (before and after left out: the export has no column for them). */
export async function listAuditLogAfter(ctx: AuthedContext, raw: TAuditListInput, after: KeysetCursor | null, limit: number): Promise<AuditItem[]> {
  requireAuditReader(ctx.actor);
  const where = auditWhereSql(ctx.actor, ZAuditListInput.parse(raw));
  const at = after ? new Date(after.at) : null;
  const keyset = at && after ? Prisma.sql` AND a."createdAt" <= ${at} AND (a."createdAt" < ${at} OR a."id" < ${after.id})` : Prisma.empty;
  const rows = await ctx.deps.prisma.$queryRaw<Row[]>`
    SELECT a."id", a."createdAt", a."actorType"::text AS "actorType", a."actorAccountId", a."actorApiKeyId", a."actorJob",
           acc."nickname" AS "accountName", acc."mobile" AS "accountMobile", acc."email" AS "accountEmail",
           k."name" AS "apiKeyName", k."prefix" AS "apiKeyPrefix",
           a."action", a."entityType", a."entityId", a."ip", a."userAgent", a."channel"::text AS "channel", a."requestId",
           ${auditTargetNameSql} AS "targetName"
    FROM (SELECT a."id" FROM "AuditLog" a WHERE ${where}${keyset} ORDER BY a."createdAt" DESC, a."id" DESC LIMIT ${limit}) p
    JOIN "AuditLog" a ON a."id" = p."id"
    LEFT JOIN "Account" acc ON acc."id" = a."actorAccountId"
    LEFT JOIN "ApiKey" k ON k."id" = a."actorApiKeyId"
    ORDER BY a."createdAt" DESC, a."id" DESC`;
  return rows.map((r) => ({
    id: r.id,
    at: new Date(r.createdAt).toISOString(),
    actor: {
      type: r.actorType,
      accountId: r.actorAccountId,
      name: r.actorType === 'api_key' ? r.apiKeyName : r.actorType === 'job' ? r.actorJob : r.accountName,
      mobile: r.accountMobile,
      email: r.accountEmail,
      apiKeyId: r.actorApiKeyId,
      apiKeyPrefix: r.apiKeyPrefix,
      job: r.actorJob,
    },
    action: r.action,
    target: { type: r.entityType, id: r.entityId, name: r.targetName },
    before: null,
    after: null,
    ip: r.ip,
    userAgent: r.userAgent,
    device: describeUserAgent(r.userAgent),
    channel: r.channel,
    requestId: r.requestId,
  }));
}

/** How many entries match, counted up to `cap`. */
export async function countAuditLog(ctx: AuthedContext, raw: TAuditListInput, cap: number): Promise<number> {
  requireAuditReader(ctx.actor);
  const where = auditWhereSql(ctx.actor, ZAuditListInput.parse(raw));
  const [count] = await ctx.deps.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM (SELECT 1 FROM "AuditLog" a WHERE ${where} LIMIT ${cap}) x`;
  return count?.n ?? 0;
}
