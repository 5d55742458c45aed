import {
  ACTIVE_STAY_STATES,
  ROOM_STATUSES,
  ZLockDataInput,
  ZRoomInput,
  ZRoomListInput,
  ZRoomStatusInput,
  ZRoomUpdateInput,
  canSelfCheckIn,
  type TRoomListInput,
  type TRoomSort,
  type TRoomStatus,
} from '@console/shared';
import type { z } from 'zod';
import { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope, roomScopeSql } from './room-access';
import { currentStaySql, roomsWithStatusSql } from './room-status';

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

const ORDER: Record<TRoomSort, Prisma.Sql> = {
  default: Prisma.raw(`"groupSort" ASC NULLS LAST, "groupName" ASC NULLS LAST, "sortOrder" ASC, "name" ASC, "id" ASC`),
  name_asc: Prisma.raw(`"name" ASC, "id" ASC`),
  name_desc: Prisma.raw(`"name" DESC, "id" DESC`),
  order: Prisma.raw(`"sortOrder" ASC, "name" ASC, "id" ASC`),
  order_desc: Prisma.raw(`"sortOrder" DESC, "name" DESC, "id" DESC`),
};

/** The same orders, qualified for the page joined with its rooms. */
const ORDER_IN_PAGE: Record<TRoomSort, Prisma.Sql> = {
  default: Prisma.raw(`p."groupSort" ASC NULLS LAST, p."groupName" ASC NULLS LAST, p."sortOrder" ASC, p."name" ASC, p."id" ASC`),
  name_asc: Prisma.raw(`p."name" ASC, p."id" ASC`),
  name_desc: Prisma.raw(`p."name" DESC, p."id" DESC`),
  order: Prisma.raw(`p."sortOrder" ASC, p."name" ASC, p."id" ASC`),
  order_desc: Prisma.raw(`p."sortOrder" DESC, p."name" DESC, p."id" DESC`),
};

const ACTIVE = Prisma.join(ACTIVE_STAY_STATES.map((s) => Prisma.sql`${s}::"StayStatus"`));

/** The JSON object of one room: `p` is a row of `roomsWithStatusSql`, `rm` the room itself. */
function roomJsonSql(now: Date, detail: boolean): Prisma.Sql {
  return Prisma.sql`json_build_object(
    'id', rm."id", 'name', rm."name", 'remarkName', rm."remarkName", 'groupId', rm."groupId", 'groupName', p."groupName",
    'picture', rm."picture", 'status', p."status", 'cleanStatus', rm."cleanStatus", 'maintenance', rm."maintenance",
    'sortOrder', rm."sortOrder", 'lockId', rm."lockId", 'lockPower', rm."lockPower", 'usualPrice', rm."usualPrice",
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
  return { ...raw, currentStay: stay, canSelfCheckIn: canSelfCheckIn(raw.status) };
}

/**
 * The room board: the rooms of the actor's scope with their derived status, a count per status
 * (for the filter), search by room name, remark name or a current guest, group filter, five
 * sort orders and paging. One query, whatever the filters.
 */
/** The one statement of the room board: rooms in scope, their status, the counts and one page. */
export function roomListSql(actor: AuthedContext['actor'], input: z.output<typeof ZRoomListInput>, now: Date): Prisma.Sql {
  const filters: Prisma.Sql[] = [roomScopeSql(actor)];
  if (input.groupId !== undefined) filters.push(Prisma.sql`r."groupId" = ${input.groupId}`);
  const search = input.search?.trim().toLowerCase();
  if (search) {
    // strpos(lower(...)) matches a substring case-insensitively twice as fast as ILIKE, with no
    // wildcard to escape. Guests are looked for in the guest search text the database keeps on
    // each stay (migration 20261121150000), among active stays only.
    filters.push(Prisma.sql`(strpos(lower(r."name"), ${search}) > 0 OR strpos(lower(r."remarkName"), ${search}) > 0 OR r."id" IN (
      SELECT gs."roomId" FROM "Stay" gs
      WHERE gs."hotelId" = ${actor.hotelId} AND gs."status" IN (${ACTIVE}) AND strpos(gs."guestSearch", ${search}) > 0))`);
  }
  const statusFilter = input.status ? Prisma.sql`WHERE "status" = ${input.status}` : Prisma.empty;
  return Prisma.sql`
    WITH rooms AS (${roomsWithStatusSql(actor.hotelId, Prisma.join(filters, ' AND '), now)}),
    counts AS (SELECT "status", count(*)::int AS n FROM rooms GROUP BY "status"),
    page AS (SELECT * FROM rooms ${statusFilter} ORDER BY ${ORDER[input.sort]} LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize})
    SELECT (SELECT coalesce(json_object_agg("status", n), '{}'::json) FROM counts) AS "counts",
           (SELECT coalesce(json_agg(${roomJsonSql(now, false)} ORDER BY ${ORDER_IN_PAGE[input.sort]}), '[]'::json)
              FROM page p JOIN "Room" rm ON rm."id" = p."id") AS "items"`;
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

export async function getRoom(ctx: AuthedContext, roomId: number): Promise<RoomDetail> {
  requirePermission(ctx.actor, 'room.read');
  const now = new Date();
  const where = Prisma.sql`${roomScopeSql(ctx.actor)} AND r."id" = ${roomId}`;
  const [row] = await ctx.deps.prisma.$queryRaw<{ room: Omit<RoomDetail, 'canSelfCheckIn'> | null }[]>`
    WITH rooms AS (${roomsWithStatusSql(ctx.actor.hotelId, where, now)})
    SELECT (SELECT ${roomJsonSql(now, true)} FROM rooms p JOIN "Room" rm ON rm."id" = p."id") AS "room"`;
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
    lockId: input.lockId,
    bluetoothName: input.bluetoothName,
    lockPower: input.lockPower,
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
  try {
    const room = await ctx.deps.prisma.$transaction(async (tx) => {
      const created = await tx.room.create({ data: { hotelId: ctx.actor.hotelId, ...roomData(input) }, select: { id: true } });
      await recordAudit(tx, ctx, { action: 'room.create', entityType: 'Room', entityId: created.id, after: roomData(input) });
      return created;
    });
    return getRoom(ctx, room.id);
  } catch (error) {
    if (isUniqueViolation(error, 'Room_hotelId_name_active_key')) throw new AppError('CONFLICT', { messageKey: 'room.errors.nameTaken', params: { name: input.name } });
    throw error;
  }
}

export async function updateRoom(ctx: AuthedContext, raw: z.input<typeof ZRoomUpdateInput>): Promise<RoomDetail> {
  requirePermission(ctx.actor, 'room.manage');
  const { id, ...fields } = ZRoomUpdateInput.parse(raw);
  const before = await findRoom(ctx, id, { id: true, name: true, groupId: true, picture: true, remarkName: true, description: true, lockNotice: true, notice: true, lockId: true, bluetoothName: true, lockPower: true, macId: true, sortOrder: true });
  await assertGroup(ctx, fields.groupId);
  try {
    await ctx.deps.prisma.$transaction(async (tx) => {
      await tx.room.update({ where: { id }, data: roomData(fields) });
      await recordAudit(tx, ctx, { action: 'room.update', entityType: 'Room', entityId: id, before, after: roomData(fields) });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'Room_hotelId_name_active_key')) throw new AppError('CONFLICT', { messageKey: 'room.errors.nameTaken', params: { name: fields.name } });
    throw error;
  }
  return getRoom(ctx, id);
}

/** Deletes a room softly (its stays remain as history); a room with an active stay is kept. */
export async function deleteRoom(ctx: AuthedContext, roomId: number): Promise<void> {
  requireWholeHotel(ctx);
  const room = await findRoom(ctx, roomId, { id: true, name: true });
  await ctx.deps.prisma.$transaction(async (tx) => {
    // Lock the room so a check-in cannot slip in between the check and the delete.
    await tx.$queryRaw`SELECT 1 FROM "Room" WHERE "id" = ${roomId} FOR UPDATE`;
    const active = await tx.stay.count({ where: { hotelId: ctx.actor.hotelId, roomId, status: { in: [...ACTIVE_STAY_STATES] } } });
    if (active > 0) throw new AppError('CONFLICT', { messageKey: 'room.errors.hasActiveStay', params: { name: room.name } });
    await tx.room.update({ where: { id: roomId }, data: { deletedAt: new Date() } });
    await recordAudit(tx, ctx, { action: 'room.delete', entityType: 'Room', entityId: roomId, before: { name: room.name } });
  });
}

/**
 * Housekeeping and maintenance (spec §4 "status can be modified"). Occupancy is not set here: it
 * follows stays. A room with a guest or an upcoming reservation cannot be taken out of order or
 * out of service: the failure message says so.
 */
export async function setRoomStatus(ctx: AuthedContext, raw: z.input<typeof ZRoomStatusInput>): Promise<RoomDetail> {
  requirePermission(ctx.actor, 'room.read');
  requirePermission(ctx.actor, 'stay.manage');
  const { roomId, target } = ZRoomStatusInput.parse(raw);
  const before = await getRoom(ctx, roomId);
  const data =
    target === 'clean' || target === 'inspected' || target === 'dirty'
      ? { cleanStatus: target }
      : target === 'back_in_service'
        ? { maintenance: 'none' as const }
        : { maintenance: target };
  if ('maintenance' in data && data.maintenance !== 'none' && before.currentStay) {
    throw new AppError('CONFLICT', { messageKey: 'room.errors.statusBlockedByStay', params: { name: before.name } });
  }
  await ctx.deps.prisma.$transaction(async (tx) => {
    await tx.room.update({ where: { id: roomId }, data });
    await recordAudit(tx, ctx, {
      action: 'room.status',
      entityType: 'Room',
      entityId: roomId,
      before: { status: before.status, cleanStatus: before.cleanStatus, maintenance: before.maintenance },
      after: { target },
    });
  });
  return getRoom(ctx, roomId);
}

const lockSelect = { id: true, name: true, lockId: true, bluetoothName: true, macId: true, lockPower: true } as const;

/** Lock data of every room in scope (legacy `allLock`). */
export async function listLocks(ctx: AuthedContext) {
  requirePermission(ctx.actor, 'room.read');
  return ctx.deps.prisma.room.findMany({ where: roomScope(ctx.actor), select: lockSelect, orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }] });
}

export async function getLock(ctx: AuthedContext, roomId: number) {
  requirePermission(ctx.actor, 'room.read');
  return findRoom(ctx, roomId, lockSelect);
}

export async function setLockData(ctx: AuthedContext, raw: z.input<typeof ZLockDataInput>) {
  requirePermission(ctx.actor, 'room.manage');
  const { roomId, ...data } = ZLockDataInput.parse(raw);
  const before = await findRoom(ctx, roomId, lockSelect);
  return ctx.deps.prisma.$transaction(async (tx) => {
    const room = await tx.room.update({ where: { id: roomId }, data, select: lockSelect });
    await recordAudit(tx, ctx, { action: 'room.lock', entityType: 'Room', entityId: roomId, before, after: data });
    return room;
  });
}
