import {
  ACTIVE_STAY_STATES,
  ROOM_STATUSES,
  ZLockDataInput,
  ZRoomInput,
  ZRoomListInput,
  ZLockPowerReport,
  ZRoomIdInput,
  ZRoomStatusInput,
  ZRoomUpdateInput,
  ZRoomsStatusInput,
  type TRoomStatusTarget,
  canSelfCheckIn,
  type TRoomListInput,
  type TRoomSort,
  type TRoomStatus,
} from '@console/shared';
import type { z } from 'zod';
import { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { isConstraint, isUniqueViolation } from '../../db/errors';
import { lockRooms, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { afterCredentialChange } from '../credentials/delivery';
import { applyPairs, lockOfTypedId, pairerOf } from '../locks/accounts/pairing.service';
import { findRoom, roomScope, roomScopeSql } from './room-access';
import { currentStaySql, liveStatusSql, offScheduleRoomsSql } from './room-status';

export interface CurrentStay {
  id: number;
  status: string;
  checkInAt: string;
  expectedCheckOutAt: string;
  guestName: string | null;
  guestCount: number;
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
  canSelfCheckIn: boolean;
  sortOrder: number;
  lockId: string | null;
  lockPower: number | null;
  /** The paired lock as its provider last reported it; null until it was asked (or no lock). */
  lock: { online: boolean | null; battery: number | null; lastSeenAt: string | null; simulated: boolean; gone: boolean } | null;
  usualPrice: number;
  currentStay: CurrentStay | null;
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

/** `text` for LIKE: `%`, `_` and `\` match themselves (the backslash is LIKE's escape character). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Whether room `r` matches `search` (lower-cased): its name or remark name contains it, or one of
 * its active stays has a guest whose name or mobile does (the guest search text the database keeps
 * on each stay, migration 20261121150000). From 3 characters on, trigram indexes find the rooms
 * and stays (migration 20261122100000), in time that follows the matches, not the hotel; shorter
 * text, which has no trigram, is looked for in every room and active stay of the hotel.
 */
function searchSql(hotelId: number, search: string): Prisma.Sql {
  if ([...search].length >= 3) {
    const pattern = `%${likeLiteral(search)}%`;
    return Prisma.sql`r."id" IN (
      SELECT x."id" FROM "Room" x WHERE x."hotelId" = ${hotelId} AND (lower(x."name") LIKE ${pattern} OR lower(x."remarkName") LIKE ${pattern})
      UNION
      SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" IN (${ACTIVE}) AND s."guestSearch" LIKE ${pattern})`;
  }
  return Prisma.sql`(strpos(lower(r."name"), ${search}) > 0 OR strpos(lower(r."remarkName"), ${search}) > 0 OR r."id" IN (
    SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" IN (${ACTIVE}) AND strpos(s."guestSearch", ${search}) > 0))`;
}

/** The JSON object of one room: `rm` is the room, `g` its group, `status` its status. */
function roomJsonSql(now: Date, detail: boolean, status: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`json_build_object(
    'id', rm."id", 'name', rm."name", 'remarkName', rm."remarkName", 'groupId', rm."groupId", 'groupName', g."name",
    'picture', rm."picture", 'status', ${status}, 'cleanStatus', rm."cleanStatus", 'maintenance', rm."maintenance",
    'sortOrder', rm."sortOrder", 'lockId', (SELECT l."providerLockId" FROM "Lock" l WHERE l."id" = rm."lockId"), 'lockPower', rm."lockPower", 'usualPrice', rm."usualPrice",
    'lock', (SELECT json_build_object('online', l."online", 'battery', l."battery", 'lastSeenAt', l."lastSeenAt", 'simulated', l."simulated", 'gone', l."goneAt" IS NOT NULL)
      FROM "Lock" l WHERE l."id" = rm."lockId"),
    ${
      detail
        ? Prisma.sql`'description', rm."description", 'lockNotice', rm."lockNotice", 'notice', rm."notice", 'bluetoothName', rm."bluetoothName",
    'macId', rm."macId", 'depositAmount', rm."depositAmount", 'weekendPrice', rm."weekendPrice", 'renewalPrice', rm."renewalPrice",
    'priceTemplateId', rm."priceTemplateId",`
        : Prisma.empty
    }
    'currentStay', (SELECT row_to_json(c) FROM (${currentStaySql(Prisma.raw('rm'), now)}) c))`;
}

interface RawRoom extends Omit<RoomListItem, 'canSelfCheckIn' | 'currentStay'> {
  currentStay: CurrentStay | null;
}

function toRoomItem<T extends RawRoom>(raw: T): T & { canSelfCheckIn: boolean } {
  const stay = raw.currentStay
    ? { ...raw.currentStay, checkInAt: new Date(raw.currentStay.checkInAt).toISOString(), expectedCheckOutAt: new Date(raw.currentStay.expectedCheckOutAt).toISOString() }
    : null;
  const lock = raw.lock ? { ...raw.lock, lastSeenAt: raw.lock.lastSeenAt ? new Date(raw.lock.lastSeenAt).toISOString() : null } : null;
  return { ...raw, lock, currentStay: stay, canSelfCheckIn: canSelfCheckIn(raw.status) };
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
  const filters: Prisma.Sql[] = [roomScopeSql(actor)];
  if (input.groupId !== undefined) filters.push(Prisma.sql`r."groupId" = ${input.groupId}`);
  const search = input.search?.trim().toLowerCase();
  // A search's rooms are found once, with what counting and paging them needs (`matches`), and
  // both read them from there; otherwise both read the rooms themselves.
  const matches = search ? Prisma.sql`SELECT ${SORT_COLUMNS}, r."status" FROM "Room" r WHERE ${Prisma.join(filters, ' AND ')} AND ${searchSql(actor.hotelId, search)}` : null;
  const rooms = matches ? Prisma.raw('matches r') : Prisma.raw('"Room" r');
  const where = matches ? Prisma.sql`r."id" IN (SELECT m."id" FROM matches m)` : Prisma.join(filters, ' AND ');
  const order = (input.groupId !== undefined ? ORDER_IN_GROUP : ORDER)[input.sort];
  const limit = input.pageSize;
  const offset = (input.page - 1) * input.pageSize;
  const counts =
    actor.allRooms && !search
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
    off AS MATERIALIZED (${offScheduleRoomsSql(actor.hotelId, where, now)}),
    counts AS (${counts}),
    page AS (${page})
    SELECT (SELECT coalesce(json_object_agg("status", n), '{}'::json) FROM counts) AS "counts",
           (SELECT coalesce(json_agg(${roomJsonSql(now, false, status)} ORDER BY ${ORDER_IN_PAGE[input.sort]}), '[]'::json)
              FROM page p JOIN "Room" rm ON rm."id" = p."id" LEFT JOIN "RoomGroup" g ON g."id" = rm."groupId") AS "items"`;
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
  return { items: (row?.items ?? []).map(toRoomItem), total, counts, page: input.page, pageSize: input.pageSize };
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
    deps.prisma.room.findMany({ where: { id: { in: roomIds }, ...roomScope(actor) }, select: { id: true, lockNumber: true, cardGeneration: true, bluetoothName: true, macId: true } }),
    deps.prisma.cardIssue.groupBy({ by: ['roomId'], where: { hotelId: actor.hotelId, kind: 'room', roomId: { in: roomIds }, state: 'issued' }, _count: { _all: true } }),
  ]);
  const counts = new Map(issued.map((g) => [g.roomId, g._count._all]));
  return new Map(rooms.map((r) => [r.id, { lockNumber: r.lockNumber, cardGeneration: r.cardGeneration, bluetoothName: r.bluetoothName, macId: r.macId, issuedRoomCards: counts.get(r.id) ?? 0 }]));
}

/** The room board's page with each room's card facts (the card-service gateway's room list). */
export async function listRoomsForCards(ctx: AuthedContext, raw: TRoomListInput) {
  const result = await listRooms(ctx, raw);
  const facts = await roomCardFacts(ctx, result.items.map((r) => r.id));
  return { ...result, items: result.items.map((room) => ({ ...room, cardFacts: facts.get(room.id) })) };
}

/** One room of the actor's scope, its status computed from its own stays at this moment. */
export async function getRoom(ctx: AuthedContext, roomId: number): Promise<RoomDetail> {
  requirePermission(ctx.actor, 'room.read');
  const now = new Date();
  const [row] = await ctx.deps.prisma.$queryRaw<{ room: Omit<RoomDetail, 'canSelfCheckIn'> | null }[]>`
    SELECT (SELECT ${roomJsonSql(now, true, liveStatusSql(Prisma.raw('rm'), now))}
            FROM "Room" rm LEFT JOIN "RoomGroup" g ON g."id" = rm."groupId"
            WHERE rm."id" = ${roomId} AND EXISTS (SELECT 1 FROM "Room" r WHERE r."id" = rm."id" AND ${roomScopeSql(ctx.actor)})) AS "room"`;
  if (!row?.room) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  return toRoomItem(row.room);
}

async function assertGroup(ctx: AuthedContext, groupId: number | null) {
  if (groupId === null) return;
  const group = await ctx.deps.prisma.roomGroup.findFirst({ where: { id: groupId, hotelId: ctx.actor.hotelId }, select: { id: true } });
  if (!group) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
}

function roomData(input: z.output<typeof ZRoomInput>) {
  return {
    name: input.name,
    groupId: input.groupId,
    picture: input.picture,
    remarkName: input.remarkName,
    description: input.description,
    lockNotice: input.lockNotice,
    notice: input.notice,
    bluetoothName: input.bluetoothName,
    macId: input.macId,
    sortOrder: input.sortOrder,
  };
}

/** Creating and deleting rooms belongs to members who manage every room of the hotel. */
function requireWholeHotel(ctx: AuthedContext) {
  requirePermission(ctx.actor, 'room.manage');
  if (!ctx.actor.allRooms) throw new AppError('FORBIDDEN');
}

export async function createRoom(ctx: AuthedContext, raw: z.input<typeof ZRoomInput>): Promise<RoomDetail> {
  requireWholeHotel(ctx);
  const input = ZRoomInput.parse(raw);
  await assertGroup(ctx, input.groupId);
  // The lock named by its provider id: one of the hotel's own (modules/locks/accounts/pairing.service.ts).
  const lockId = await lockOfTypedId(ctx, input.lockId);
  try {
    const room = await transaction(ctx.deps, async (tx) => {
      const created = await tx.room.create({ data: { hotelId: ctx.actor.hotelId, ...roomData(input) }, select: { id: true } });
      await recordAudit(tx, ctx, { action: 'room.create', entityType: 'Room', entityId: created.id, after: { ...roomData(input), lockId: input.lockId } });
      return { ...created, keys: lockId !== null && (await applyPairs(tx, pairerOf(ctx), [{ roomId: created.id, lockId }])).length > 0 };
    });
    if (room.keys || lockId !== null) await afterCredentialChange(ctx.deps, ctx.actor.hotelId, { roomId: room.id });
    return getRoom(ctx, room.id);
  } catch (error) {
    if (isUniqueViolation(error, 'Room_hotelId_name_active_key')) throw new AppError('CONFLICT', { messageKey: 'room.errors.nameTaken', params: { name: input.name } });
    if (isConstraint(error, 'Room_lockId_active_key')) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockTakenMeanwhile' });
    throw error;
  }
}

export async function updateRoom(ctx: AuthedContext, raw: z.input<typeof ZRoomUpdateInput>): Promise<RoomDetail> {
  requirePermission(ctx.actor, 'room.manage');
  const { id, ...fields } = ZRoomUpdateInput.parse(raw);
  const before = await findRoom(ctx, id, { id: true, name: true, groupId: true, picture: true, remarkName: true, description: true, lockNotice: true, notice: true, bluetoothName: true, macId: true, sortOrder: true, lock: { select: { providerLockId: true } } });
  await assertGroup(ctx, fields.groupId);
  const lockChanges = (before.lock?.providerLockId ?? null) !== fields.lockId;
  const lockId = lockChanges ? await lockOfTypedId(ctx, fields.lockId) : null;
  try {
    const { lock, ...beforeFields } = before;
    const keys = await transaction(ctx.deps, async (tx) => {
      await tx.room.update({ where: { id }, data: roomData(fields) });
      await recordAudit(tx, ctx, { action: 'room.update', entityType: 'Room', entityId: id, before: { ...beforeFields, lockId: lock?.providerLockId ?? null }, after: { ...roomData(fields), lockId: fields.lockId } });
      return lockChanges && (await applyPairs(tx, pairerOf(ctx), [{ roomId: id, lockId }])).length > 0;
    });
    if (keys || (lockChanges && lockId !== null)) await afterCredentialChange(ctx.deps, ctx.actor.hotelId, { roomId: id });
  } catch (error) {
    if (isUniqueViolation(error, 'Room_hotelId_name_active_key')) throw new AppError('CONFLICT', { messageKey: 'room.errors.nameTaken', params: { name: fields.name } });
    if (isConstraint(error, 'Room_lockId_active_key')) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockTakenMeanwhile' });
    throw error;
  }
  return getRoom(ctx, id);
}

/** Deletes a room softly (its stays remain as history); a room with an active stay is kept. */
export async function deleteRoom(ctx: AuthedContext, raw: z.input<typeof ZRoomIdInput>): Promise<void> {
  requireWholeHotel(ctx);
  const { roomId } = ZRoomIdInput.parse(raw);
  const room = await findRoom(ctx, roomId, { id: true, name: true });
  await transaction(ctx.deps, async (tx) => {
    // Locked so that a check-in cannot slip in between the check and the delete.
    await lockRooms(tx, ctx.actor.hotelId, [roomId]);
    const active = await tx.stay.count({ where: { hotelId: ctx.actor.hotelId, roomId, status: { in: [...ACTIVE_STAY_STATES] } } });
    if (active > 0) throw new AppError('CONFLICT', { messageKey: 'room.errors.hasActiveStay', params: { name: room.name } });
    // A deleted room keeps its history, not its lock: the lock can be another room's door.
    await tx.room.update({ where: { id: roomId }, data: { deletedAt: new Date(), lockId: null } });
    await recordAudit(tx, ctx, { action: 'room.delete', entityType: 'Room', entityId: roomId, before: { name: room.name } });
  });
}

function statusChange(target: TRoomStatusTarget) {
  if (target === 'clean' || target === 'inspected' || target === 'dirty') return { cleanStatus: target };
  return { maintenance: target === 'back_in_service' ? ('none' as const) : target };
}

/**
 * Housekeeping and maintenance (spec §4 "status can be modified") of one or several rooms, all or
 * nothing. Occupancy is not set here: it follows stays. A room with a guest or an upcoming
 * reservation cannot be taken out of order or out of service: the failure message names it.
 */
export async function setRoomsStatus(ctx: AuthedContext, raw: z.input<typeof ZRoomsStatusInput>): Promise<{ rooms: number }> {
  requirePermission(ctx.actor, 'room.read');
  requirePermission(ctx.actor, 'stay.manage');
  const { roomIds, target } = ZRoomsStatusInput.parse(raw);
  const ids = [...new Set(roomIds)];
  const data = statusChange(target);
  await transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, ctx.actor.hotelId, ids);
    const rooms = await tx.room.findMany({ where: { ...roomScope(ctx.actor), id: { in: ids } }, select: { id: true, name: true, cleanStatus: true, maintenance: true }, orderBy: { id: 'asc' } });
    if (rooms.length !== ids.length) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
    if ('maintenance' in data && data.maintenance !== 'none') {
      const busy = await tx.stay.findFirst({ where: { hotelId: ctx.actor.hotelId, roomId: { in: ids }, status: { in: [...ACTIVE_STAY_STATES] } }, select: { room: { select: { name: true } } } });
      if (busy) throw new AppError('CONFLICT', { messageKey: 'room.errors.statusBlockedByStay', params: { name: busy.room.name } });
    }
    await tx.room.updateMany({ where: { hotelId: ctx.actor.hotelId, id: { in: ids } }, data });
    for (const room of rooms) {
      await recordAudit(tx, ctx, { action: 'room.status', entityType: 'Room', entityId: room.id, before: { cleanStatus: room.cleanStatus, maintenance: room.maintenance }, after: { target } });
    }
  });
  return { rooms: ids.length };
}

export async function setRoomStatus(ctx: AuthedContext, raw: z.input<typeof ZRoomStatusInput>): Promise<RoomDetail> {
  const { roomId, target } = ZRoomStatusInput.parse(raw);
  await setRoomsStatus(ctx, { roomIds: [roomId], target });
  return getRoom(ctx, roomId);
}

const lockSelect = { id: true, name: true, bluetoothName: true, macId: true, lockPower: true, lock: { select: { providerLockId: true } } } as const;

/** A room's lock data as the legacy protocol shows it: `lockId` is the provider's lock id of its lock. */
function lockData(r: { id: number; name: string; bluetoothName: string | null; macId: string | null; lockPower: number | null; lock: { providerLockId: string } | null }) {
  return { id: r.id, name: r.name, lockId: r.lock?.providerLockId ?? null, bluetoothName: r.bluetoothName, macId: r.macId, lockPower: r.lockPower };
}

/** Lock data of every room in scope (legacy `allLock`). */
export async function listLocks(ctx: AuthedContext) {
  requirePermission(ctx.actor, 'room.read');
  return (await ctx.deps.prisma.room.findMany({ where: roomScope(ctx.actor), select: lockSelect, orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }] })).map(lockData);
}

export async function getLock(ctx: AuthedContext, raw: z.input<typeof ZRoomIdInput>) {
  requirePermission(ctx.actor, 'room.read');
  const { roomId } = ZRoomIdInput.parse(raw);
  return lockData(await findRoom(ctx, roomId, lockSelect));
}

/**
 * The lock of a room as the front desk records it: its lock (a lock id the hotel's own lock
 * accounts hold, pairing.service.ts), Bluetooth name and MAC (the battery level is the lock's to
 * report: recordLockPower).
 */
export async function setLockData(ctx: AuthedContext, raw: z.input<typeof ZLockDataInput>) {
  requirePermission(ctx.actor, 'room.manage');
  const { roomId, lockId: typed, ...data } = ZLockDataInput.parse(raw);
  const before = lockData(await findRoom(ctx, roomId, lockSelect));
  const lockChanges = before.lockId !== typed;
  const lockId = lockChanges ? await lockOfTypedId(ctx, typed) : null;
  try {
    const keys = await transaction(ctx.deps, async (tx) => {
      await tx.room.update({ where: { id: before.id }, data });
      await recordAudit(tx, ctx, { action: 'room.lockData', entityType: 'Room', entityId: roomId, before: { bluetoothName: before.bluetoothName, macId: before.macId }, after: data });
      return lockChanges && (await applyPairs(tx, pairerOf(ctx), [{ roomId, lockId }])).length > 0;
    });
    if (keys || (lockChanges && lockId !== null)) await afterCredentialChange(ctx.deps, ctx.actor.hotelId, { roomId });
  } catch (error) {
    if (isConstraint(error, 'Room_lockId_active_key')) throw new AppError('CONFLICT', { messageKey: 'lockAccounts.errors.lockTakenMeanwhile' });
    throw error;
  }
  return getLock(ctx, { roomId });
}

/** A battery level reported by the lock itself (a legacy app reads it over Bluetooth). */
export async function recordLockPower(ctx: AuthedContext, raw: z.input<typeof ZLockPowerReport>) {
  requirePermission(ctx.actor, 'room.read');
  const { roomId, lockPower } = ZLockPowerReport.parse(raw);
  const room = await findRoom(ctx, roomId, { id: true });
  return lockData(await ctx.deps.prisma.room.update({ where: { id: room.id }, data: { lockPower }, select: lockSelect }));
}
