import {
  ACTIVE_STAY_STATES,
  ROOM_STATUSES,
  ZRoomListInput,
  canSelfCheckIn,
  hotelDayEnd,
  type TRoomListInput,
  type TRoomSort,
  type TRoomStatus,
} from '@console/shared';
import { localDate, type THousekeepingTaskKind, type THousekeepingTaskStatus } from '@console/shared';
import type { z } from 'zod';
import { Prisma } from '../../generated/prisma/client';
import { escapeLike } from '../../db/search';
import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { roomScope, roomScopeSql } from '../base/room-access';
import { currentStaySql, liveStatusSql, nextStaySql, offScheduleRoomsSql } from './room-status';
import { notReadyAmong } from '../access-rules/arrival-readiness';

/** Reading rooms: the board's list (sorted, searched, paged in SQL), the list for issuing cards, one room's detail. */

export interface CurrentStay {
  id: number;
  status: string;
  checkInAt: string;
  expectedCheckOutAt: string;
  guestName: string | null;
  guestCount: number;
  /** What the guest owes on the visit's bill now (0 when nothing, or when money is due back): the board's "due" mark. */
  owed: number;
  /** A reservation taken at the desk, waiting for its guest (a no-show at `noShowAt`). */
  awaitsArrival: boolean;
  noShowAt: string | null;
  /** A reservation within a day whose credentials are not on the lock (access-rules/arrival-readiness.ts): the tile's warning, with "fix now". */
  keyNotReady: boolean;
}

export interface RoomListItem {
  id: number;
  name: string;
  remarkName: string;
  groupId: number | null;
  groupName: string | null;
  picture: string | null;
  status: TRoomStatus;
  cleanStatus: 'clean' | 'dirty' | 'inspected';
  maintenance: 'none' | 'out_of_order' | 'out_of_service';
  /** Today's housekeeping task of the room (docs/housekeeping.md): its status, kind and attendant; null: none. */
  housekeeping: { status: THousekeepingTaskStatus; kind: THousekeepingTaskKind; assigneeName: string | null } | null;
  canSelfCheckIn: boolean;
  sortOrder: number;
  lockId: string | null;
  lockPower: number | null;
  /** The paired lock as its provider last reported it; null until it was asked (or no lock). */
  lock: {
    online: boolean | null;
    battery: number | null;
    lastSeenAt: string | null;
    simulated: boolean;
    gone: boolean;
    takes: { onlineCodes: boolean; offlineCodes: boolean; faces: boolean; cards: boolean; noZero: boolean; encodedCards: boolean };
  } | null;
  usualPrice: number;
  /** The stay in progress, else the next reservation (whatever its date: the status says whether it holds the room tonight). */
  currentStay: CurrentStay | null;
  /** The reservation after `currentStay`, if any. */
  nextStay: CurrentStay | null;
}

export interface RoomDetail extends RoomListItem {
  description: string;
  lockNotice: string;
  notice: string;
  bluetoothName: string | null;
  macId: string | null;
  depositAmount: number;
  weekendPrice: number | null;
  renewalPrice: number | null;
  priceTemplateId: number | null;
}

/** The board's five orders over `Room` aliased `r`; each one is an index (migration 20261122100000). */
const ORDER: Record<TRoomSort, Prisma.Sql> = {
  default: Prisma.raw(`r."groupSort" ASC NULLS LAST, r."groupName" ASC NULLS LAST, r."sortOrder" ASC, r."name" ASC, r."id" ASC`),
  name_asc: Prisma.raw(`r."name" ASC, r."id" ASC`),
  name_desc: Prisma.raw(`r."name" DESC, r."id" DESC`),
  order: Prisma.raw(`r."sortOrder" ASC, r."name" ASC, r."id" ASC`),
  order_desc: Prisma.raw(`r."sortOrder" DESC, r."name" DESC, r."id" DESC`),
};

/** Within one group, every room has the group's sort and name: the default order is the room's own. */
const ORDER_IN_GROUP: Record<TRoomSort, Prisma.Sql> = { ...ORDER, default: Prisma.raw(`r."sortOrder" ASC, r."name" ASC, r."id" ASC`) };

/** The same orders over the page `p`, which carries the sort columns. */
const ORDER_IN_PAGE: Record<TRoomSort, Prisma.Sql> = {
  default: Prisma.raw(`p."groupSort" ASC NULLS LAST, p."groupName" ASC NULLS LAST, p."sortOrder" ASC, p."name" ASC, p."id" ASC`),
  name_asc: Prisma.raw(`p."name" ASC, p."id" ASC`),
  name_desc: Prisma.raw(`p."name" DESC, p."id" DESC`),
  order: Prisma.raw(`p."sortOrder" ASC, p."name" ASC, p."id" ASC`),
  order_desc: Prisma.raw(`p."sortOrder" DESC, p."name" DESC, p."id" DESC`),
};

const SORT_COLUMNS = Prisma.raw(`r."id", r."groupSort", r."groupName", r."sortOrder", r."name"`);

const ACTIVE = Prisma.join(ACTIVE_STAY_STATES.map((s) => Prisma.sql`${s}::"StayStatus"`));

/**
 * Whether room `r` matches `search` (lower-cased): its name or remark name contains it, or one of
 * its active stays has a guest whose name or mobile does (the guest search text the database keeps
 * on each stay, migration 20261121150000). From 3 characters on, trigram indexes find the rooms
 * and stays (migration 20261122100000), in time that follows the matches, not the hotel; shorter
 * text, which has no trigram, is looked for in every room and active stay of the hotel.
 */
function searchSql(hotelId: number, search: string): Prisma.Sql {
  if ([...search].length >= 3) {
    const pattern = `%${escapeLike(search)}%`;
    return Prisma.sql`r."id" IN (
      SELECT x."id" FROM "Room" x WHERE x."hotelId" = ${hotelId} AND (lower(x."name") LIKE ${pattern} OR lower(x."remarkName") LIKE ${pattern})
      UNION
      SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" IN (${ACTIVE}) AND s."guestSearch" LIKE ${pattern})`;
  }
  return Prisma.sql`(strpos(lower(r."name"), ${search}) > 0 OR strpos(lower(r."remarkName"), ${search}) > 0 OR r."id" IN (
    SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" IN (${ACTIVE}) AND strpos(s."guestSearch", ${search}) > 0))`;
}

/** The JSON object of one room: `rm` is the room, `g` its group, `status` its status. */
function roomJsonSql(now: Date, detail: boolean, status: Prisma.Sql, today: string): Prisma.Sql {
  return Prisma.sql`json_build_object(
    'housekeeping', (SELECT json_build_object('status', t."status", 'kind', t."kind", 'assigneeName', coalesce(nullif(m."name", ''), a."nickname"))
      FROM "HousekeepingTask" t LEFT JOIN "Membership" m ON m."id" = t."assigneeId" LEFT JOIN "Account" a ON a."id" = m."accountId"
      WHERE t."hotelId" = rm."hotelId" AND t."roomId" = rm."id" AND t."day" = ${today}::date ORDER BY t."kind" LIMIT 1),
    'id', rm."id", 'name', rm."name", 'remarkName', rm."remarkName", 'groupId', rm."groupId", 'groupName', g."name",
    'picture', rm."picture", 'status', ${status}, 'cleanStatus', rm."cleanStatus", 'maintenance', rm."maintenance",
    'sortOrder', rm."sortOrder", 'lockId', (SELECT l."providerLockId" FROM "Lock" l WHERE l."id" = rm."lockId"), 'lockPower', rm."lockPower", 'usualPrice', rm."usualPrice",
    'lock', (SELECT json_build_object('online', l."online", 'battery', l."battery", 'lastSeenAt', l."lastSeenAt", 'simulated', l."simulated", 'gone', l."goneAt" IS NOT NULL,
        -- What the lock takes (modules/base/lock-takes.ts): the room page offers only that.
        'takes', json_build_object('onlineCodes', l."hasKeypad" AND l."onlinePasscodes", 'offlineCodes', l."hasKeypad" AND l."offlinePasscodes",
          'faces', l."hasFaceModule", 'cards', l."hasCardReader", 'noZero', l."keypadWithoutZero", 'encodedCards', l."encodedCards"))
      FROM "Lock" l WHERE l."id" = rm."lockId"),
    ${
      detail
        ? Prisma.sql`'description', rm."description", 'lockNotice', rm."lockNotice", 'notice', rm."notice", 'bluetoothName', rm."bluetoothName",
    'macId', rm."macId", 'depositAmount', rm."depositAmount", 'weekendPrice', rm."weekendPrice", 'renewalPrice', rm."renewalPrice",
    'priceTemplateId', rm."priceTemplateId",`
        : Prisma.empty
    }
    'currentStay', (SELECT row_to_json(c) FROM (${currentStaySql(Prisma.raw('rm'), now)}) c),
    'nextStay', (SELECT row_to_json(c) FROM (${nextStaySql(Prisma.raw('rm'), now)}) c))`;
}

interface RawRoom extends Omit<RoomListItem, 'canSelfCheckIn' | 'currentStay' | 'nextStay'> {
  currentStay: CurrentStay | null;
  nextStay: CurrentStay | null;
}

/** A stay as the board's JSON gives it, its times as ISO strings. */
function toCurrentStay(stay: CurrentStay | null): CurrentStay | null {
  if (!stay) return null;
  const iso = (t: string) => new Date(t).toISOString();
  return {
    ...stay,
    checkInAt: iso(stay.checkInAt),
    expectedCheckOutAt: iso(stay.expectedCheckOutAt),
    noShowAt: stay.noShowAt ? iso(stay.noShowAt) : null,
    keyNotReady: false,
  };
}

/** Marks the reservations of these rooms whose credentials are not on their lock in time (one statement for the page's reservations alone). */
async function markKeysNotReady<T extends { currentStay: CurrentStay | null; nextStay: CurrentStay | null }>(ctx: AuthedContext, rooms: T[]): Promise<T[]> {
  const reserved = rooms.flatMap((r) => [r.currentStay, r.nextStay]).filter((s): s is CurrentStay => s !== null && s.status === 'reserved');
  if (!reserved.length) return rooms;
  const notReady = await notReadyAmong(ctx.deps.prisma, ctx.actor.hotelId, [...new Set(reserved.map((s) => s.id))], new Date());
  for (const stay of reserved) stay.keyNotReady = notReady.has(stay.id);
  return rooms;
}

function toRoomItem<T extends RawRoom>(raw: T): T & { canSelfCheckIn: boolean } {
  const lock = raw.lock ? { ...raw.lock, lastSeenAt: raw.lock.lastSeenAt ? new Date(raw.lock.lastSeenAt).toISOString() : null } : null;
  return { ...raw, lock, currentStay: toCurrentStay(raw.currentStay), nextStay: toCurrentStay(raw.nextStay), canSelfCheckIn: canSelfCheckIn(raw.status) };
}

/**
 * The one statement of the room board: the rooms of the actor's scope with their status, a count
 * per status (for the filter), search by room name, remark name or a current guest, group filter,
 * five sort orders and paging (docs/decisions/008-room-board-counts-kept-by-the-database.md).
 * - Statuses are the rooms' stored ones, except for the rooms whose stays the clock has overtaken
 *   (`off`, normally none), whose status is computed from their stays at `now`.
 * - Counts: for a member who sees the whole hotel and does not search, the hotel's (or group's)
 *   counts the database keeps, corrected by `off`; otherwise counted over the matching rooms
 *   (a member's own rooms, or the search's results).
 * - The page walks an index in the requested order (with the status first when filtered) and stops
 *   after the page; the rooms of `off` are merged in by their live status.
 */
export function roomListSql(actor: AuthedContext['actor'], input: z.output<typeof ZRoomListInput>, now: Date): Prisma.Sql {
  const dayEnd = hotelDayEnd(now, actor.timeZone);
  const filters: Prisma.Sql[] = [roomScopeSql(actor)];
  if (input.groupId !== undefined) filters.push(Prisma.sql`r."groupId" = ${input.groupId}`);
  const period = freePeriod(input);
  if (period) filters.push(freeOverSql(actor, period, now));
  const search = input.search?.trim().toLowerCase();
  // A search's rooms are found once, with what counting and paging them needs (`matches`), and
  // both read them from there; otherwise both read the rooms themselves.
  const matches = search
    ? Prisma.sql`SELECT ${SORT_COLUMNS}, r."status" FROM "Room" r WHERE ${Prisma.join(filters, ' AND ')} AND ${searchSql(actor.hotelId, search)}`
    : null;
  const rooms = matches ? Prisma.raw('matches r') : Prisma.raw('"Room" r');
  const where = matches ? Prisma.sql`r."id" IN (SELECT m."id" FROM matches m)` : Prisma.join(filters, ' AND ');
  const order = (input.groupId !== undefined ? ORDER_IN_GROUP : ORDER)[input.sort];
  const limit = input.pageSize;
  const offset = (input.page - 1) * input.pageSize;
  const counts =
    actor.allRooms && !search && !period
      ? Prisma.sql`SELECT x."status", sum(x."n")::int AS n FROM (
          SELECT c."status"::text AS "status", c."n" FROM "RoomStatusCount" c
          WHERE c."hotelId" = ${actor.hotelId}${input.groupId !== undefined ? Prisma.sql` AND c."groupId" = ${input.groupId}` : Prisma.empty}
          UNION ALL SELECT o."stored", -1 FROM off o
          UNION ALL SELECT o."status", 1 FROM off o) x
        GROUP BY x."status"`
      : Prisma.sql`SELECT coalesce(o."status", r."status"::text) AS "status", count(*)::int AS n
        FROM ${rooms} LEFT JOIN off o ON o."id" = r."id"${matches ? Prisma.empty : Prisma.sql` WHERE ${where}`} GROUP BY 1`;
  const page = input.status
    ? Prisma.sql`SELECT * FROM (
          (SELECT ${SORT_COLUMNS} FROM ${rooms}
           WHERE ${matches ? Prisma.sql`true` : where} AND r."status" = ${input.status}::"RoomStatus" AND r."id" NOT IN (SELECT o."id" FROM off o)
           ORDER BY ${order} LIMIT ${limit + offset})
          UNION ALL
          (SELECT ${SORT_COLUMNS} FROM "Room" r JOIN off o ON o."id" = r."id" WHERE o."status" = ${input.status})
        ) p ORDER BY ${ORDER_IN_PAGE[input.sort]} LIMIT ${limit} OFFSET ${offset}`
    : Prisma.sql`SELECT ${SORT_COLUMNS} FROM ${rooms}${matches ? Prisma.empty : Prisma.sql` WHERE ${where}`} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
  const status = Prisma.sql`coalesce((SELECT o."status" FROM off o WHERE o."id" = rm."id"), rm."status"::text)`;
  return Prisma.sql`
    WITH ${matches ? Prisma.sql`matches AS MATERIALIZED (${matches}),` : Prisma.empty}
    off AS MATERIALIZED (${offScheduleRoomsSql(actor.hotelId, where, now, dayEnd)}),
    counts AS (${counts}),
    page AS (${page})
    SELECT (SELECT coalesce(json_object_agg("status", n), '{}'::json) FROM counts) AS "counts",
           (SELECT coalesce(json_agg(${roomJsonSql(now, false, status, localDate(now, actor.timeZone))} ORDER BY ${ORDER_IN_PAGE[input.sort]}), '[]'::json)
              FROM page p JOIN "Room" rm ON rm."id" = p."id" LEFT JOIN "RoomGroup" g ON g."id" = rm."groupId") AS "items"`;
}

/** The period a list's rooms must be free over, both ends given and in order (else refused). */
function freePeriod(input: z.output<typeof ZRoomListInput>): { from: Date; to: Date } | null {
  if (input.freeFrom === undefined && input.freeTo === undefined) return null;
  if (input.freeFrom === undefined || input.freeTo === undefined || input.freeFrom >= input.freeTo) {
    const field = input.freeFrom === undefined ? 'freeFrom' : 'freeTo';
    throw new AppError('VALIDATION', { messageKey: 'validation.periodReversed', fields: { [field]: 'validation.periodReversed' } });
  }
  return { from: input.freeFrom, to: input.freeTo };
}

/**
 * A room free over [from, to): no stay holds it over any of it (a reservation, a guest in house, one
 * overdue until now at least), not under maintenance, and not out of order on any of its days.
 */
function freeOverSql(actor: AuthedContext['actor'], p: { from: Date; to: Date }, now: Date): Prisma.Sql {
  const tz = actor.timeZone;
  return Prisma.sql`r."maintenance" = 'none'
    AND NOT EXISTS (SELECT 1 FROM "Stay" s WHERE s."hotelId" = ${actor.hotelId} AND s."roomId" = r."id" AND s."status" IN ('reserved', 'in_house', 'expired')
      AND s."checkInAt" < ${p.to} AND CASE WHEN s."status" = 'expired' THEN greatest(s."expectedCheckOutAt", ${now}) ELSE s."expectedCheckOutAt" END > ${p.from})
    AND NOT EXISTS (SELECT 1 FROM "RoomOutOfOrder" o WHERE o."hotelId" = ${actor.hotelId} AND o."roomId" = r."id"
      AND o."startDate" <= ((${p.to}::timestamptz - interval '1 microsecond') AT TIME ZONE ${tz})::date AND o."endDate" >= (${p.from}::timestamptz AT TIME ZONE ${tz})::date)`;
}

/**
 * The room board: the rooms of the actor's scope with their derived status, a count per status
 * (for the filter), search by room name, remark name or a current guest, group filter, five
 * sort orders and paging. One query, whatever the filters.
 */
export async function listRooms(ctx: AuthedContext, raw: TRoomListInput) {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZRoomListInput.parse(raw);
  const [row] = await deps.prisma.$queryRaw<{ counts: Record<string, number>; items: RawRoom[] }[]>(roomListSql(actor, input, new Date()));
  const counts = Object.fromEntries(ROOM_STATUSES.map((s) => [s, row?.counts[s] ?? 0])) as Record<TRoomStatus, number>;
  const total = input.status ? counts[input.status] : ROOM_STATUSES.reduce((sum, s) => sum + counts[s], 0);
  return { items: await markKeysNotReady(ctx, (row?.items ?? []).map(toRoomItem)), total, counts, page: input.page, pageSize: input.pageSize };
}

export interface RoomCardFacts {
  lockNumber: number | null;
  cardGeneration: number;
  bluetoothName: string | null;
  macId: string | null;
  issuedRoomCards: number;
}

/**
 * What a card issuer needs of each room beyond the board's fields: the room's number on cards
 * and its lock, its newest guest-card generation, and how many room cards are issued for it now.
 * Read for the page's rooms only, in the actor's room scope.
 */
async function roomCardFacts(ctx: AuthedContext, roomIds: number[]): Promise<Map<number, RoomCardFacts>> {
  const { deps, actor } = ctx;
  if (!roomIds.length) return new Map();
  const [rooms, issued] = await Promise.all([
    deps.prisma.room.findMany({
      where: { id: { in: roomIds }, ...roomScope(actor) },
      select: { id: true, lockNumber: true, cardGeneration: true, bluetoothName: true, macId: true },
    }),
    deps.prisma.cardIssue.groupBy({
      by: ['roomId'],
      where: { hotelId: actor.hotelId, kind: 'room', roomId: { in: roomIds }, state: 'issued' },
      _count: { _all: true },
    }),
  ]);
  const counts = new Map(issued.map((g) => [g.roomId, g._count._all]));
  return new Map(
    rooms.map((r) => [
      r.id,
      { lockNumber: r.lockNumber, cardGeneration: r.cardGeneration, bluetoothName: r.bluetoothName, macId: r.macId, issuedRoomCards: counts.get(r.id) ?? 0 },
    ]),
  );
}

/** The room board's page with each room's card facts (the card-service gateway's room list). */
export async function listRoomsForCards(ctx: AuthedContext, raw: TRoomListInput) {
  const result = await listRooms(ctx, raw);
  const facts = await roomCardFacts(
    ctx,
    result.items.map((r) => r.id),
  );
  return { ...result, items: result.items.map((room) => ({ ...room, cardFacts: facts.get(room.id) })) };
}

/** One room of the actor's scope, its status computed from its own stays at this moment. */
export async function getRoom(ctx: AuthedContext, roomId: number): Promise<RoomDetail> {
  requirePermission(ctx.actor, 'room.read');
  const now = new Date();
  const [row] = await ctx.deps.prisma.$queryRaw<{ room: Omit<RoomDetail, 'canSelfCheckIn'> | null }[]>`
    SELECT (SELECT ${roomJsonSql(now, true, liveStatusSql(Prisma.raw('rm'), now, hotelDayEnd(now, ctx.actor.timeZone)), localDate(now, ctx.actor.timeZone))}
            FROM "Room" rm LEFT JOIN "RoomGroup" g ON g."id" = rm."groupId"
            WHERE rm."id" = ${roomId} AND EXISTS (SELECT 1 FROM "Room" r WHERE r."id" = rm."id" AND ${roomScopeSql(ctx.actor)})) AS "room"`;
  if (!row?.room) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return (await markKeysNotReady(ctx, [toRoomItem(row.room)]))[0]!;
}
