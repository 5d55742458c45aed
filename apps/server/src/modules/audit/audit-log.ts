import { createHash } from 'node:crypto';
import { ZAuditListInput, addDays, zonedToInstant, type TAuditActorType, type TAuditChannel, type TAuditListInput, type TRole } from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { describeUserAgent, type DeviceInfo } from '../../infra/user-agent';
import { requirePermission } from '../../permissions';
import { auditTexts, type AuditTexts } from './audit-text';

/**
 * The audit log viewer (issue 9 §6): a page of the hotel's audit log, newest first, with who
 * acted (an account's name and mobile, an API key's name, the automation or calendar feed a job
 * acted for, or nobody), the action and its label, its target in words, before and after, the
 * address and the face it came through; in the request's language (audit-text.ts, issue 27 §11).
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

export interface AuditRow {
  id: number;
  createdAt: Date;
  actorType: TAuditActorType;
  actorAccountId: number | null;
  actorApiKeyId: number | null;
  actorJob: string | null;
  actorNames: Prisma.JsonValue;
  accountName: string | null;
  accountMobile: string | null;
  accountEmail: string | null;
  apiKeyName: string | null;
  apiKeyPrefix: string | null;
  action: string;
  entityType: string | null;
  entityId: string | null;
  targetNames: Prisma.JsonValue;
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
    /**
     * The account's nickname, the API key's name, or what a job acted as, in words ("Automation
     * (access rules)", "Calendar feed Airbnb · Room 109"): never the job's code.
     */
    name: string | null;
    mobile: string | null;
    email: string | null;
    apiKeyId: number | null;
    apiKeyPrefix: string | null;
    /** The job's code (`stay.issue`), as the log keeps it. */
    job: string | null;
  };
  action: string;
  /** The action in words ("Door access issued by rule"); the code when this version has none for it. */
  actionLabel: string;
  target: {
    type: string | null;
    id: string | null;
    /** The target in words ("Stay of room 108 (Ana Silva)", "Access rule of the hotel"); null without a target. */
    label: string | null;
  };
  before: Prisma.JsonValue;
  after: Prisma.JsonValue;
  ip: string | null;
  userAgent: string | null;
  /** What the user agent says: browser and system; nulls when it cannot tell. */
  device: DeviceInfo;
  channel: TAuditChannel | null;
  requestId: string | null;
}

/** An entry as the list (and its export) gives it, its codes in words of `texts`'s language. */
export function toAuditItem(r: AuditRow, texts: AuditTexts): AuditItem {
  return {
    id: r.id,
    at: new Date(r.createdAt).toISOString(),
    actor: {
      type: r.actorType,
      accountId: r.actorAccountId,
      name: r.actorType === 'api_key' ? r.apiKeyName : r.actorType === 'job' ? texts.job(r.actorJob, r.actorNames) : r.accountName,
      mobile: r.accountMobile,
      email: r.accountEmail,
      apiKeyId: r.actorApiKeyId,
      apiKeyPrefix: r.apiKeyPrefix,
      job: r.actorJob,
    },
    action: r.action,
    actionLabel: texts.action(r.action),
    target: { type: r.entityType, id: r.entityId, label: texts.target(r.entityType, r.entityId, r.targetNames) },
    before: r.before,
    after: r.after,
    // A job has no address: entries written before said `job`.
    ip: r.actorType === 'job' && r.ip === 'job' ? null : r.ip,
    userAgent: r.userAgent,
    device: describeUserAgent(r.userAgent),
    channel: r.channel,
    requestId: r.requestId,
  };
}

/**
 * Targets whose rows can be deleted (by an entry that keeps their names, or with their room group):
 * named, once gone, by the names the newest entry about them kept.
 */
const DELETABLE_TARGETS = [
  'RoomGroup',
  'CalendarFeed',
  'AccessRule',
  'PriceTemplate',
  'CardReader',
  'CardDispenser',
  'Face',
  'LockManager',
  'LockAccount',
  'CardEncryption',
  'Customer',
  'Account',
];

/** A stay's room and first guest, by the stay's id (an integer expression). */
function stayNamesSql(stayId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT jsonb_strip_nulls(jsonb_build_object('room', r."name", 'guest',
      (SELECT NULLIF(g."name", '') FROM "StayGuest" g WHERE g."hotelId" = s."hotelId" AND g."stayId" = s."id" ORDER BY g."isPrimary" DESC, g."id" LIMIT 1)))
    FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId" WHERE s."id" = ${stayId} AND s."hotelId" = a."hotelId")`;
}

const entityIdSql = intIdSql(Prisma.raw('a."entityId"'));

/** A room's, a group's or a person's name, null when empty. */
const named = (column: string) => Prisma.raw(`NULLIF(${column}, '')`);

/**
 * What a target is called (issue 27 §11), over `"AuditLog"` aliased `a`: its names read from its
 * rows as they are now, only from rows of the entry's own hotel (a JSON object of `AuditTargetParts`:
 * a stay's room and guest, a feed's label and its room or group, a customer's name, ...); else the
 * names the entry kept when it was written (`targetNames`); else, for a target that can be deleted
 * (a group, a feed, a price template, a reader, ...), those the newest entry about it kept (the
 * entry that deleted it keeps them). Null for a target of no name (the hotel). The list and its
 * export (export/audit-source.ts) name targets by this one rule, then in words (audit-text.ts).
 */
export const auditTargetNamesSql = Prisma.sql`COALESCE(CASE a."entityType"
    WHEN 'Room' THEN (SELECT jsonb_build_object('room', r."name") FROM "Room" r WHERE r."id" = ${entityIdSql} AND r."hotelId" = a."hotelId")
    WHEN 'Stay' THEN ${stayNamesSql(entityIdSql)}
    WHEN 'stay' THEN ${stayNamesSql(entityIdSql)}
    WHEN 'Folio' THEN ${stayNamesSql(Prisma.sql`(SELECT f."stayId" FROM "Folio" f WHERE f."id" = ${entityIdSql} AND f."hotelId" = a."hotelId")`)}
    WHEN 'RoomGroup' THEN (SELECT jsonb_build_object('group', g."name") FROM "RoomGroup" g WHERE g."id" = ${entityIdSql} AND g."hotelId" = a."hotelId")
    WHEN 'AccessRule' THEN (SELECT jsonb_build_object('group', g."name") FROM "RoomGroup" g
      WHERE g."id" = ${intIdSql(Prisma.raw(`substr(a."entityId", 7)`))} AND a."entityId" LIKE 'group:%' AND g."hotelId" = a."hotelId")
    WHEN 'CalendarFeed' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('feed', f."label", 'room', r."name", 'group', g."name"))
      FROM "CalendarFeed" f LEFT JOIN "Room" r ON r."id" = f."roomId" LEFT JOIN "RoomGroup" g ON g."id" = f."groupId"
      WHERE f."id" = ${entityIdSql} AND f."hotelId" = a."hotelId")
    WHEN 'Customer' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('name', COALESCE(${named('c."nickname"')}, c."mobile", c."email")))
      FROM "Customer" c WHERE c."id" = ${entityIdSql} AND c."hotelId" = a."hotelId")
    WHEN 'Account' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('name', COALESCE(${named('x."nickname"')}, x."mobile", x."email")))
      FROM "Account" x WHERE x."id" = ${entityIdSql})
    WHEN 'Session' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('name', COALESCE(${named('x."nickname"')}, x."mobile", x."email")))
      FROM "Session" s JOIN "Account" x ON x."id" = s."accountId" WHERE s."id" = ${entityIdSql})
    WHEN 'CashierShift' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('name', COALESCE(${named('x."nickname"')}, x."mobile", x."email")))
      FROM "CashierShift" s JOIN "Account" x ON x."id" = s."accountId" WHERE s."id" = ${entityIdSql} AND s."hotelId" = a."hotelId")
    WHEN 'PriceTemplate' THEN (SELECT jsonb_build_object('name', p."name") FROM "PriceTemplate" p WHERE p."id" = ${entityIdSql} AND p."hotelId" = a."hotelId")
    WHEN 'LockPassword' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('room', r."name", 'name', ${named('p."holderName"')}))
      FROM "LockPassword" p JOIN "Room" r ON r."id" = p."roomId" WHERE p."id" = ${entityIdSql} AND p."hotelId" = a."hotelId")
    WHEN 'Face' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('name', COALESCE(${named('g."name"')}, ${named('c."nickname"')}, ${named('f."note"')})))
      FROM "Face" f LEFT JOIN "StayGuest" g ON g."id" = f."guestId" LEFT JOIN "Customer" c ON c."id" = f."customerId"
      WHERE f."id" = ${entityIdSql} AND f."hotelId" = a."hotelId")
    WHEN 'FaceAuthorization' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('room', r."name", 'name', COALESCE(${named('g."name"')}, ${named('c."nickname"')}, ${named('f."note"')})))
      FROM "FaceAuthorization" fa JOIN "Room" r ON r."id" = fa."roomId" JOIN "Face" f ON f."id" = fa."faceId"
      LEFT JOIN "StayGuest" g ON g."id" = f."guestId" LEFT JOIN "Customer" c ON c."id" = f."customerId"
      WHERE fa."id" = ${entityIdSql} AND fa."hotelId" = a."hotelId")
    WHEN 'CardIssue' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('room', r."name", 'card', c."cardNumber"))
      FROM "CardIssue" i JOIN "Card" c ON c."id" = i."cardId" LEFT JOIN "Room" r ON r."id" = i."roomId" WHERE i."id" = ${entityIdSql} AND i."hotelId" = a."hotelId")
    WHEN 'CardEncryption' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('name', ${named('k."name"')}, 'nameKey', k."nameKey", 'nameParams', k."nameParams"))
      FROM "CardEncryption" k WHERE k."id" = ${entityIdSql} AND k."hotelId" = a."hotelId")
    WHEN 'CardReader' THEN (SELECT jsonb_build_object('name', COALESCE(${named('d."name"')}, d."deviceId")) FROM "CardReader" d WHERE d."id" = ${entityIdSql} AND d."hotelId" = a."hotelId")
    WHEN 'CardDispenser' THEN (SELECT jsonb_build_object('name', COALESCE(${named('d."name"')}, d."deviceId")) FROM "CardDispenser" d WHERE d."id" = ${entityIdSql} AND d."hotelId" = a."hotelId")
    WHEN 'LockManager' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('room', r."name", 'name', ${named('m."name"')}))
      FROM "LockManager" m JOIN "Room" r ON r."id" = m."roomId" WHERE m."id" = ${entityIdSql} AND m."hotelId" = a."hotelId")
    WHEN 'LockAccount' THEN (SELECT jsonb_build_object('name', COALESCE(${named('l."label"')}, l."username")) FROM "LockAccount" l WHERE l."id" = ${entityIdSql} AND l."hotelId" = a."hotelId")
    WHEN 'Lock' THEN (SELECT jsonb_build_object('name', COALESCE(${named('l."alias"')}, ${named('l."name"')}, l."providerLockId"))
      FROM "Lock" l WHERE l."id" = ${entityIdSql} AND l."hotelId" = a."hotelId")
    WHEN 'ApiKey' THEN (SELECT jsonb_build_object('name', k."name") FROM "ApiKey" k WHERE k."id" = ${entityIdSql} AND k."hotelId" = a."hotelId")
    WHEN 'OrderEntry' THEN (SELECT jsonb_strip_nulls(jsonb_build_object('room', r."name", 'name', COALESCE(${named('g."name"')}, ${named('c."nickname"')}, c."mobile")))
      FROM "OrderEntry" e LEFT JOIN "Stay" s ON s."id" = e."stayId" LEFT JOIN "Room" r ON r."id" = COALESCE(e."roomId", s."roomId")
      LEFT JOIN "Customer" c ON c."id" = e."customerId"
      LEFT JOIN LATERAL (SELECT g."name" FROM "StayGuest" g WHERE g."hotelId" = e."hotelId" AND g."stayId" = e."stayId" ORDER BY g."isPrimary" DESC, g."id" LIMIT 1) g ON true
      WHERE e."id" = ${entityIdSql} AND e."hotelId" = a."hotelId")
    WHEN 'DayClose' THEN COALESCE(
      (SELECT jsonb_build_object('date', d."date") FROM "DayClose" d WHERE d."id" = ${entityIdSql} AND d."hotelId" = a."hotelId"),
      NULLIF(jsonb_strip_nulls(jsonb_build_object('date', a."after"->>'date', 'from', a."after"->>'from', 'to', a."after"->>'to')), '{}'::jsonb))
    WHEN 'Export' THEN jsonb_strip_nulls(jsonb_build_object('name', a."after"->>'fileName'))
  END,
  a."targetNames",
  CASE WHEN a."entityType" IN (${Prisma.join(DELETABLE_TARGETS)}) THEN (SELECT x."targetNames" FROM "AuditLog" x
    WHERE x."hotelId" = a."hotelId" AND x."entityType" = a."entityType" AND x."entityId" = a."entityId" AND x."targetNames" IS NOT NULL
    ORDER BY x."createdAt" DESC LIMIT 1) END)`;

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
    SELECT a."id", a."createdAt", a."actorType"::text AS "actorType", a."actorAccountId", a."actorApiKeyId", a."actorJob", a."actorNames",
           acc."nickname" AS "accountName", acc."mobile" AS "accountMobile", acc."email" AS "accountEmail",
           k."name" AS "apiKeyName", k."prefix" AS "apiKeyPrefix",
           a."action", a."entityType", a."entityId", a."before", a."after", a."ip", a."userAgent", a."channel"::text AS "channel", a."requestId",
           ${auditTargetNamesSql} AS "targetNames"
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
 * Names are isolated in a right-to-left language for a screen (`isolate`), not for an export's cells.
 */
export async function listAuditLog(ctx: AuthedContext, raw: TAuditListInput, options: { isolate: boolean } = { isolate: true }) {
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
  const texts = auditTexts(ctx.deps.i18n, ctx.meta.lang, options);
  return {
    items: rows.map((r) => toAuditItem(r, texts)),
    total: Math.min(counted, cap),
    totalCapped: counted > cap,
    page: input.page,
    pageSize: input.pageSize,
  };
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
