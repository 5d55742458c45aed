import { ZAuditListInput, addDays, zonedToInstant, type TAuditActorType, type TAuditChannel, type TAuditListInput } from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';

/**
 * The audit log viewer (issue 9 §6): a page of the hotel's audit log, newest first, with who
 * acted (an account's name and mobile, an API key's name, a job's name, or nobody), the action,
 * its target, before and after, the address and the face it came through.
 *
 * Totals are counted up to AUDIT_COUNT_CAP, as the unlock records' are (decision 013): a hotel's
 * log grows by every change made in it, and nobody pages past the newest 10,000 entries of a
 * filter; the dates and the filters find the others.
 *
 * Below that, a page counts only as far as it needs: up to the next thousand at least 500 entries
 * past its end (AUDIT_COUNT_FIRST = 1,000 for pages 1 to 25 of 20, 2,000 for pages 26 to 75, ...,
 * never more than AUDIT_COUNT_CAP), and says "1,000+" ("2,000+", ...) when there are more. The
 * pager offers the pages its total covers, so it always offers at least 500 entries past the page
 * shown, and going on raises the count: every page of the newest 10,000 entries stays reachable,
 * and every total shown is true (there are at least that many). Why: the count is the page's cost.
 * Counting 10,001 entries reads 10,001 entries of an index at least, and with a filter that the
 * index does not hold first (a face and an action) all those it skips: 41,000 for "legacy and
 * room.*" on a log of 1,600,000 entries, 40 ms or more on a busy machine, for a page whose
 * entries take 1 ms (bench/audit-log.ts, bench/README.md).
 */
export const AUDIT_COUNT_CAP = 10_000;
export const AUDIT_COUNT_FIRST = 1_000;

/** How far a page's total is counted: the next thousand at least 500 past the page's end, at most AUDIT_COUNT_CAP. */
export const auditCountCap = (offset: number, limit: number) =>
  Math.min(AUDIT_COUNT_CAP, Math.ceil((offset + limit + AUDIT_COUNT_FIRST / 2) / AUDIT_COUNT_FIRST) * AUDIT_COUNT_FIRST);

/** The log names every room of the hotel: it is for members who hold `audit.read` over the whole hotel. */
export function requireAuditReader(actor: Actor) {
  requirePermission(actor, 'audit.read');
  if (!actor.allRooms) throw new AppError('FORBIDDEN');
}

/** An id stored as text (AuditLog.entityId) as an integer, when it is one. */
export const intIdSql = (column: Prisma.Sql) => Prisma.sql`(CASE WHEN ${column} ~ '^[0-9]{1,9}$' THEN ${column}::int END)`;

/** The conditions of a page over `"AuditLog"` aliased `a`. */
export function auditWhereSql(actor: Actor, input: ReturnType<typeof ZAuditListInput.parse>): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`a."hotelId" = ${actor.hotelId}`];
  if (input.actorType) where.push(Prisma.sql`a."actorType" = ${input.actorType}::"ActorType"`);
  if (input.actorAccountId !== undefined) where.push(Prisma.sql`a."actorAccountId" = ${input.actorAccountId}`);
  if (input.actorApiKeyId !== undefined) where.push(Prisma.sql`a."actorApiKeyId" = ${input.actorApiKeyId}`);
  if (input.action) {
    // The action and those under it: a range of the (hotel, action COLLATE "C", time) index, from
    // `room` up to `room/` (the character after the dot), less what lies strictly between `room` and
    // `room.` (`room` followed by a character before the dot, as `room-x`): exactly `room` or
    // `room.*`. Said as ranges of one column, the planner estimates how many entries match from
    // the column's statistics (a condition as `left(action, 5) = 'room.'` it cannot, and took a
    // fifth of the log for a few hundred entries: it sorted 340,000 entries for a page of 20).
    const action = input.action;
    where.push(Prisma.sql`a."action" COLLATE "C" >= ${action} AND a."action" COLLATE "C" < ${`${action}/`}`);
    where.push(Prisma.sql`NOT (a."action" COLLATE "C" > ${action} AND a."action" COLLATE "C" < ${`${action}.`})`);
  }
  if (input.entityType) where.push(Prisma.sql`a."entityType" = ${input.entityType}`);
  if (input.entityId) where.push(Prisma.sql`a."entityId" = ${input.entityId}`);
  if (input.channel) where.push(Prisma.sql`a."channel" = ${input.channel}::"AuditChannel"`);
  if (input.from) where.push(Prisma.sql`a."createdAt" >= ${zonedToInstant(`${input.from}T00:00`, actor.timeZone)!}`);
  if (input.to) where.push(Prisma.sql`a."createdAt" < ${zonedToInstant(`${addDays(input.to, 1)}T00:00`, actor.timeZone)!}`);
  return Prisma.join(where, ' AND ');
}

interface AuditRow {
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
  before: Prisma.JsonValue;
  after: Prisma.JsonValue;
  ip: string | null;
  userAgent: string | null;
  channel: TAuditChannel | null;
  requestId: string | null;
}

export interface AuditItem {
  id: number;
  at: string;
  actor: {
    type: TAuditActorType;
    accountId: number | null;
    /** The account's nickname, the API key's name or the job's name. */
    name: string | null;
    mobile: string | null;
    email: string | null;
    apiKeyId: number | null;
    apiKeyPrefix: string | null;
    job: string | null;
  };
  action: string;
  target: { type: string | null; id: string | null; /** The room's name, for a room or a stay. */ name: string | null };
  before: Prisma.JsonValue;
  after: Prisma.JsonValue;
  ip: string | null;
  userAgent: string | null;
  channel: TAuditChannel | null;
  requestId: string | null;
}

function toItem(r: AuditRow): AuditItem {
  return {
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
    before: r.before,
    after: r.after,
    ip: r.ip,
    userAgent: r.userAgent,
    channel: r.channel,
    requestId: r.requestId,
  };
}

/**
 * A page of the log in one statement: the total, counted up to the cap, and the page's entries with
 * their actors and, for a room or a stay, the room's name, one row each (one row of nulls but the
 * count when the page is empty). The page's ids are found first (from an index alone where the
 * filter has one ending with the id), then only the page's own rows are read from the table.
 * One round trip on one connection of the pool (decision 013's way): sending the count and the page
 * as two statements in parallel cost a second connection and its round trip on every page.
 */
export function auditPageSql(where: Prisma.Sql, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`
    WITH page AS (
      SELECT a."id", a."createdAt", a."actorType"::text AS "actorType", a."actorAccountId", a."actorApiKeyId", a."actorJob",
             acc."nickname" AS "accountName", acc."mobile" AS "accountMobile", acc."email" AS "accountEmail",
             k."name" AS "apiKeyName", k."prefix" AS "apiKeyPrefix",
             a."action", a."entityType", a."entityId", a."before", a."after", a."ip", a."userAgent", a."channel"::text AS "channel", a."requestId",
             CASE a."entityType"
               WHEN 'Room' THEN (SELECT r."name" FROM "Room" r WHERE r."id" = ${intIdSql(Prisma.raw('a."entityId"'))} AND r."hotelId" = a."hotelId")
               WHEN 'Stay' THEN (SELECT r."name" FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId" WHERE s."id" = ${intIdSql(Prisma.raw('a."entityId"'))} AND s."hotelId" = a."hotelId")
             END AS "targetName"
      FROM (SELECT a."id" FROM "AuditLog" a WHERE ${where} ORDER BY a."createdAt" DESC, a."id" DESC LIMIT ${limit} OFFSET ${offset}) p
      JOIN "AuditLog" a ON a."id" = p."id"
      LEFT JOIN "Account" acc ON acc."id" = a."actorAccountId"
      LEFT JOIN "ApiKey" k ON k."id" = a."actorApiKeyId")
    SELECT (SELECT count(*)::int FROM (SELECT 1 FROM "AuditLog" a WHERE ${where} LIMIT ${auditCountCap(offset, limit) + 1}) x) AS "counted", page.*
    FROM (SELECT 1) one LEFT JOIN page ON true
    ORDER BY page."createdAt" DESC, page."id" DESC`;
}

/** `audit.list`: a page of the hotel's audit log, newest first, filtered; the total counted up to its cap (`auditCountCap`). */
export async function listAuditLog(ctx: AuthedContext, raw: TAuditListInput) {
  requireAuditReader(ctx.actor);
  const input = ZAuditListInput.parse(raw);
  const rows = await ctx.deps.prisma.$queryRaw<({ counted: number } & (AuditRow | { [K in keyof AuditRow]: null }))[]>(
    auditPageSql(auditWhereSql(ctx.actor, input), input.pageSize, (input.page - 1) * input.pageSize),
  );
  const cap = auditCountCap((input.page - 1) * input.pageSize, input.pageSize);
  const counted = rows[0]?.counted ?? 0;
  const items = rows.flatMap((r) => (r.id === null ? [] : [toItem(r as AuditRow)]));
  return { items, total: Math.min(counted, cap), totalCapped: counted > cap, page: input.page, pageSize: input.pageSize };
}

/** `audit.actors`: whom the viewer's actor filter offers: the hotel's members and its API keys. */
export async function listAuditActors(ctx: AuthedContext) {
  requireAuditReader(ctx.actor);
  const [members, keys] = await Promise.all([
    ctx.deps.prisma.membership.findMany({
      where: { hotelId: ctx.actor.hotelId },
      select: { role: true, account: { select: { id: true, nickname: true, mobile: true, email: true } } },
      orderBy: [{ account: { nickname: 'asc' } }, { accountId: 'asc' }],
    }),
    ctx.deps.prisma.apiKey.findMany({ where: { hotelId: ctx.actor.hotelId }, select: { id: true, name: true, prefix: true, revokedAt: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
  ]);
  return {
    accounts: members.map((m) => ({ id: m.account.id, name: m.account.nickname, mobile: m.account.mobile, email: m.account.email, role: m.role })),
    apiKeys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, revoked: k.revokedAt !== null })),
  };
}
