import { createHash } from 'node:crypto';
import { ZAuditListInput, addDays, zonedToInstant, type TAuditActorType, type TAuditChannel, type TAuditListInput, type TRole } from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { describeUserAgent, type DeviceInfo } from '../../infra/user-agent';
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
  requirePermission(actor, 'audit.read', { wholeHotel: true });
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
  /** What the user agent says: browser and system; nulls when it cannot tell. */
  device: DeviceInfo;
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
    device: describeUserAgent(r.userAgent),
    channel: r.channel,
    requestId: r.requestId,
  };
}

/**
 * A target's name, over `"AuditLog"` aliased `a`: for a room or a stay, the room's, when the room
 * (the stay) is of the entry's own hotel; null for any other target. The list and its export
 * (export/audit-source.ts) name targets by this one rule.
 */
export const auditTargetNameSql = Prisma.sql`CASE a."entityType"
    WHEN 'Room' THEN (SELECT r."name" FROM "Room" r WHERE r."id" = ${intIdSql(Prisma.raw('a."entityId"'))} AND r."hotelId" = a."hotelId")
    WHEN 'Stay' THEN (SELECT r."name" FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId" WHERE s."id" = ${intIdSql(Prisma.raw('a."entityId"'))} AND s."hotelId" = a."hotelId")
  END`;

/**
 * A page's ids, newest first: from an index alone where the filter has one ending with the id.
 * Sent unnamed, so it is planned for its own values at every call: its best plan depends on them
 * (a rare action wants the action's index, a common one the time's), and a cached generic plan
 * would pick one index for all of them.
 */
export const auditPageIdsSql = (where: Prisma.Sql, limit: number, offset: number) =>
  Prisma.sql`SELECT a."id" FROM "AuditLog" a WHERE ${where} ORDER BY a."createdAt" DESC, a."id" DESC LIMIT ${limit} OFFSET ${offset}`;

/**
 * The hotel's entries of `ids`, in the order of `ids`, with their actors and targets' names. One
 * text for every page and filter, looking entries up by their key: prepared once per connection
 * (`prepared`), it runs on its generic plan without planning (the planning of a statement that
 * also found the page and named its targets cost as much as the plain page, bench/README.md §13).
 */
export const auditEntriesSql = (hotelId: number, ids: number[]) => Prisma.sql`
    SELECT a."id", a."createdAt", a."actorType"::text AS "actorType", a."actorAccountId", a."actorApiKeyId", a."actorJob",
           acc."nickname" AS "accountName", acc."mobile" AS "accountMobile", acc."email" AS "accountEmail",
           k."name" AS "apiKeyName", k."prefix" AS "apiKeyPrefix",
           a."action", a."entityType", a."entityId", a."before", a."after", a."ip", a."userAgent", a."channel"::text AS "channel", a."requestId",
           ${auditTargetNameSql} AS "targetName"
    FROM unnest(${ids}::int[]) WITH ORDINALITY p("id", "n")
    JOIN "AuditLog" a ON a."id" = p."id" AND a."hotelId" = ${hotelId}
    LEFT JOIN "Account" acc ON acc."id" = a."actorAccountId"
    LEFT JOIN "ApiKey" k ON k."id" = a."actorApiKeyId"
    ORDER BY p."n"`;

/**
 * A statement prepared once per connection under a name of its text, for texts whose plan does not
 * depend on their values (entries by their keys, a hotel's members): PostgreSQL plans a prepared
 * statement anew for its first five runs, then runs it on a generic plan when that is no worse.
 * Never for the page's ids or its count: their generic plan would keep the index one filter's
 * values wanted for every other (a count by an account and "export" on the account's index read
 * 487,000 entries, 47 ms, where its own plan reads the action's 264).
 */
const prepared = (sql: Prisma.Sql) => ({ name: `audit_${createHash('sha1').update(sql.text).digest('hex').slice(0, 20)}`, text: sql.text, values: sql.values });

/** How many entries match, counted up to `cap` (one more, to tell "cap+" from "cap"). Sent unnamed, as the page's ids. */
export const auditCountSql = (where: Prisma.Sql, cap: number) =>
  Prisma.sql`SELECT count(*)::int AS "counted" FROM (SELECT 1 FROM "AuditLog" a WHERE ${where} LIMIT ${cap + 1}) x`;

/**
 * `audit.list`: a page of the hotel's audit log, newest first, filtered; the total counted up to its
 * cap (`auditCountCap`). Straight on the pool the Prisma client uses (decision 019): the page's ids
 * (`auditPageIdsSql`), then their entries (`auditEntriesSql`), while the count runs beside them on
 * another of the pool's connections, so the page waits for the slower of the two, not for both.
 */
export async function listAuditLog(ctx: AuthedContext, raw: TAuditListInput) {
  requireAuditReader(ctx.actor);
  const input = ZAuditListInput.parse(raw);
  const where = auditWhereSql(ctx.actor, input);
  const offset = (input.page - 1) * input.pageSize;
  const cap = auditCountCap(offset, input.pageSize);
  const { pool } = ctx.deps;
  const ids = auditPageIdsSql(where, input.pageSize, offset);
  const count = auditCountSql(where, cap);
  const [rows, counts] = await Promise.all([
    pool.query<{ id: number }>(ids.text, ids.values).then(async (page) =>
      page.rows.length === 0
        ? []
        : (
            await pool.query<AuditRow>(
              prepared(
                auditEntriesSql(
                  ctx.actor.hotelId,
                  page.rows.map((r) => r.id),
                ),
              ),
            )
          ).rows,
    ),
    pool.query<{ counted: number }>(count.text, count.values),
  ]);
  const counted = counts.rows[0]?.counted ?? 0;
  return { items: rows.map(toItem), total: Math.min(counted, cap), totalCapped: counted > cap, page: input.page, pageSize: input.pageSize };
}

/** `audit.actors`: whom the viewer's actor filter offers: the hotel's members and its API keys (plain SQL on the pool, as the page). */
export async function listAuditActors(ctx: AuthedContext) {
  requireAuditReader(ctx.actor);
  const hotelId = ctx.actor.hotelId;
  const [members, keys] = await Promise.all([
    ctx.deps.pool.query<{ id: number; name: string; mobile: string | null; email: string | null; role: TRole }>(
      prepared(Prisma.sql`SELECT acc."id", acc."nickname" AS "name", acc."mobile", acc."email", m."role"::text AS "role"
        FROM "Membership" m JOIN "Account" acc ON acc."id" = m."accountId"
        WHERE m."hotelId" = ${hotelId} ORDER BY acc."nickname", m."accountId"`),
    ),
    ctx.deps.pool.query<{ id: number; name: string; prefix: string; revoked: boolean }>(
      prepared(
        Prisma.sql`SELECT k."id", k."name", k."prefix", (k."revokedAt" IS NOT NULL) AS "revoked" FROM "ApiKey" k WHERE k."hotelId" = ${hotelId} ORDER BY k."name", k."id"`,
      ),
    ),
  ]);
  return { accounts: members.rows, apiKeys: keys.rows };
}
