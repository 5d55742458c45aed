import { ZAuditListInput, type TAuditListInput } from '@console/shared';
import type { AuthedContext } from '../../context';
import type { KeysetCursor } from '../../db/keyset';
import { Prisma } from '../../generated/prisma/client';
import { auditTargetNamesSql, auditWhereSql, requireAuditReader, toAuditItem, type AuditItem, type AuditRow } from '../audit/audit-log';
import { auditTexts } from '../audit/audit-text';

/**
 * The audit log read whole for an export (issue 9 §5), by keyset instead of `listAuditLog`'s
 * OFFSET pages: the same reader check (`audit.read` over the whole hotel) and the same conditions
 * (`auditWhereSql`, the list's own), newest first, each chunk starting after the last one's
 * (time, id). The list service itself is left as it is (its paging and indexes are another
 * benchmark's, bench/README.md); the entries are the list's `AuditItem`s, named in words as the list
 * names them (`toAuditItem`), in the export's language.
 */

/** Up to `limit` entries after `after` (from the newest when null), as the audit log lists them (before and after left out: the export has no column for them). */
export async function listAuditLogAfter(ctx: AuthedContext, raw: TAuditListInput, after: KeysetCursor | null, limit: number): Promise<AuditItem[]> {
  requireAuditReader(ctx.actor);
  const where = auditWhereSql(ctx.actor, ZAuditListInput.parse(raw));
  const at = after ? new Date(after.at) : null;
  const keyset = at && after ? Prisma.sql` AND a."createdAt" <= ${at} AND (a."createdAt" < ${at} OR a."id" < ${after.id})` : Prisma.empty;
  const rows = await ctx.deps.prisma.$queryRaw<AuditRow[]>`
    SELECT a."id", a."createdAt", a."actorType"::text AS "actorType", a."actorAccountId", a."actorApiKeyId", a."actorJob", a."actorNames",
           acc."nickname" AS "accountName", acc."mobile" AS "accountMobile", acc."email" AS "accountEmail",
           k."name" AS "apiKeyName", k."prefix" AS "apiKeyPrefix",
           a."action", a."entityType", a."entityId", NULL::jsonb AS "before", NULL::jsonb AS "after", a."ip", a."userAgent", a."channel"::text AS "channel", a."requestId",
           ${auditTargetNamesSql} AS "targetNames"
    FROM (SELECT a."id" FROM "AuditLog" a WHERE ${where}${keyset} ORDER BY a."createdAt" DESC, a."id" DESC LIMIT ${limit}) p
    JOIN "AuditLog" a ON a."id" = p."id"
    LEFT JOIN "Account" acc ON acc."id" = a."actorAccountId"
    LEFT JOIN "ApiKey" k ON k."id" = a."actorApiKeyId"
    ORDER BY a."createdAt" DESC, a."id" DESC`;
  const texts = auditTexts(ctx.deps.i18n, ctx.meta.lang, { isolate: false });
  return rows.map((r) => toAuditItem(r, texts));
}

/** How many entries match, counted up to `cap`. */
export async function countAuditLog(ctx: AuthedContext, raw: TAuditListInput, cap: number): Promise<number> {
  requireAuditReader(ctx.actor);
  const where = auditWhereSql(ctx.actor, ZAuditListInput.parse(raw));
  const [count] = await ctx.deps.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM (SELECT 1 FROM "AuditLog" a WHERE ${where} LIMIT ${cap}) x`;
  return count?.n ?? 0;
}
