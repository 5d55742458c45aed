import { ACTIVE_STAY_STATES, ZId, ZOutOfOrderInput, ZOutOfOrderListInput, addDays, localDate, type TOutOfOrderRange } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import type { TPrisma } from '../../db/client';
import { isConstraint } from '../../db/errors';
import { recordEvent } from '../../db/events';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { Prisma } from '../../generated/prisma/client';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope } from '../base/room-access';

/**
 * Rooms out of order or out of service for a range of hotel days (docs/housekeeping.md): the
 * ranges of a room never overlap (the exclusion constraint RoomOutOfOrder_no_overlap); sales refuse
 * a stay with a night in a range (`refuseOutOfOrder`, called where the stays' overlap is refused);
 * the room board follows the range of today through the room's maintenance axis (`followRanges`).
 */

type Db = TPrisma | Tx;

const day = (d: Date) => d.toISOString().slice(0, 10);
const asDate = (d: string) => new Date(`${d}T00:00:00Z`);

/** Who may mark a room out of order by dates: the supervisor, and whoever manages rooms. */
function requireRangeEditor(ctx: AuthedContext): void {
  if (!ctx.actor.permissions.has('housekeeping.manage') && !ctx.actor.permissions.has('room.manage')) throw new AppError('FORBIDDEN');
}

/** The nights of a stay [from, to) as hotel days: its first day to the day before it leaves (a stay of hours: its day). */
export function stayNights(from: Date, to: Date, timeZone: string): { first: string; last: string } {
  const first = localDate(from, timeZone);
  const lastDay = addDays(localDate(to, timeZone), -1);
  return { first, last: lastDay < first ? first : lastDay };
}

/** The range of the room with a night of [from, to) in it, if any. */
export async function findOutOfOrder(db: Db, hotelId: number, roomId: number, from: Date, to: Date, timeZone: string) {
  const { first, last } = stayNights(from, to, timeZone);
  return db.roomOutOfOrder.findFirst({
    where: { hotelId, roomId, startDate: { lte: asDate(last) }, endDate: { gte: asDate(first) } },
    orderBy: { startDate: 'asc' },
    select: { kind: true, startDate: true, endDate: true, reason: true },
  });
}

/**
 * Refuses a stay [from, to) in a room out of order or out of service on one of its nights, naming
 * the range and its reason: "The room is out of order from 2026-12-01 to 2026-12-03 (broken window)".
 */
export async function refuseOutOfOrder(db: Db, actor: { hotelId: number; timeZone: string }, roomId: number, from: Date, to: Date): Promise<void> {
  const found = await findOutOfOrder(db, actor.hotelId, roomId, from, to, actor.timeZone);
  if (!found) return;
  throw new AppError('CONFLICT', {
    messageKey: found.kind === 'out_of_service' ? 'stay.errors.roomOutOfService' : 'stay.errors.roomOutOfOrder',
    params: { from: day(found.startDate), to: day(found.endDate), reason: found.reason },
  });
}

/** The rooms of `roomIds` with a night of [from, to) out of order (a group's reservation skips them). */
export async function roomsOutOfOrder(db: Db, hotelId: number, roomIds: number[], from: Date, to: Date, timeZone: string): Promise<Set<number>> {
  if (roomIds.length === 0) return new Set();
  const { first, last } = stayNights(from, to, timeZone);
  const rows = await db.roomOutOfOrder.findMany({
    where: { hotelId, roomId: { in: roomIds }, startDate: { lte: asDate(last) }, endDate: { gte: asDate(first) } },
    select: { roomId: true },
  });
  return new Set(rows.map((r) => r.roomId));
}

function toDto(r: { id: number; roomId: number; kind: string; startDate: Date; endDate: Date; reason: string; room: { name: string } }): TOutOfOrderRange {
  return {
    id: r.id,
    roomId: r.roomId,
    roomName: r.room.name,
    kind: r.kind as TOutOfOrderRange['kind'],
    startDate: day(r.startDate),
    endDate: day(r.endDate),
    reason: r.reason,
  };
}

/** The ranges of the actor's rooms (of one room) that end on or after `from` (default: today). */
export async function listOutOfOrder(ctx: AuthedContext, raw: z.input<typeof ZOutOfOrderListInput>): Promise<TOutOfOrderRange[]> {
  if (!ctx.actor.permissions.has('room.read') && !ctx.actor.permissions.has('housekeeping.manage')) throw new AppError('FORBIDDEN');
  const input = ZOutOfOrderListInput.parse(raw);
  if (input.roomId !== undefined) await findRoom(ctx, input.roomId, { id: true });
  const from = input.from ?? localDate(new Date(), ctx.actor.timeZone);
  const rows = await ctx.deps.prisma.roomOutOfOrder.findMany({
    where: { hotelId: ctx.actor.hotelId, endDate: { gte: asDate(from) }, room: roomScope(ctx.actor), ...(input.roomId ? { roomId: input.roomId } : {}) },
    orderBy: [{ startDate: 'asc' }, { id: 'asc' }],
    take: 500,
    select: { id: true, roomId: true, kind: true, startDate: true, endDate: true, reason: true, room: { select: { name: true } } },
  });
  return rows.map(toDto);
}

/**
 * Marks a room out of order (or out of service) from one day to another. Refused, with words that
 * say why: a range that overlaps another of the room (the database decides it, under the room's
 * lock), a stay of the room with a night in the range (named), a range that ended before today.
 */
export async function createOutOfOrder(ctx: AuthedContext, raw: z.input<typeof ZOutOfOrderInput>): Promise<TOutOfOrderRange> {
  requireRangeEditor(ctx);
  const input = ZOutOfOrderInput.parse(raw);
  const { hotelId, timeZone } = ctx.actor;
  const today = localDate(new Date(), timeZone);
  if (input.endDate < today)
    throw new AppError('VALIDATION', { messageKey: 'housekeeping.errors.rangeInPast', fields: { endDate: 'housekeeping.errors.rangeInPast' } });
  const room = await findRoom(ctx, input.roomId, { id: true, name: true });
  try {
    return await transaction(ctx.deps, async (tx) => {
      await lockRooms(tx, hotelId, [room.id]);
      const stays = await tx.$queryRaw<{ name: string | null; checkInAt: Date; expectedCheckOutAt: Date }[]>`
        SELECT (SELECT g."name" FROM "StayGuest" g WHERE g."stayId" = s."id" AND g."isPrimary" LIMIT 1) AS "name", s."checkInAt", s."expectedCheckOutAt"
        FROM "Stay" s
        WHERE s."hotelId" = ${hotelId} AND s."roomId" = ${room.id}
          AND s."status" IN (${Prisma.join(ACTIVE_STAY_STATES.map((st) => Prisma.sql`${st}::"StayStatus"`))})
          AND (s."checkInAt" AT TIME ZONE ${timeZone})::date <= ${input.endDate}::date
          AND GREATEST((s."expectedCheckOutAt" AT TIME ZONE ${timeZone})::date - 1, (s."checkInAt" AT TIME ZONE ${timeZone})::date) >= ${input.startDate}::date
        ORDER BY s."checkInAt" LIMIT 1`;
      const stay = stays[0];
      if (stay) {
        throw new AppError('CONFLICT', {
          messageKey: 'housekeeping.errors.rangeHasStay',
          params: {
            room: room.name,
            guest: stay.name ?? '',
            from: localDate(stay.checkInAt, timeZone),
            to: localDate(stay.expectedCheckOutAt, timeZone),
          },
        });
      }
      const created = await tx.roomOutOfOrder.create({
        data: {
          hotelId,
          roomId: room.id,
          kind: input.kind,
          startDate: asDate(input.startDate),
          endDate: asDate(input.endDate),
          reason: input.reason,
          createdById: ctx.actor.apiKeyId === undefined ? ctx.actor.membershipId : null,
        },
        select: { id: true, roomId: true, kind: true, startDate: true, endDate: true, reason: true, room: { select: { name: true } } },
      });
      await followRanges(tx, hotelId, [room.id], today);
      await recordEvent(tx, { hotelId, kind: 'room.outOfOrder', roomIds: [room.id] });
      await recordAudit(tx, ctx, { action: 'room.outOfOrder', entityType: 'Room', entityId: room.id, after: { ...input } });
      return toDto(created);
    });
  } catch (error) {
    if (isConstraint(error, 'RoomOutOfOrder_no_overlap'))
      throw new AppError('CONFLICT', { messageKey: 'housekeeping.errors.rangeOverlap', params: { room: room.name } });
    throw error;
  }
}

/** Ends a range (the room is back in order on those days); the board follows at once when it covered today. */
export async function deleteOutOfOrder(ctx: AuthedContext, raw: { id: unknown }): Promise<{ id: number }> {
  requireRangeEditor(ctx);
  const id = ZId.parse(raw.id);
  const { hotelId, timeZone } = ctx.actor;
  const range = await ctx.deps.prisma.roomOutOfOrder.findFirst({ where: { id, hotelId, room: roomScope(ctx.actor) }, select: { id: true, roomId: true } });
  if (!range) throw new AppError('NOT_FOUND', { messageKey: 'housekeeping.errors.rangeNotFound' });
  await transaction(ctx.deps, async (tx) => {
    await lockRooms(tx, hotelId, [range.roomId]);
    const gone = await tx.roomOutOfOrder.deleteMany({ where: { id, hotelId } });
    if (gone.count === 0) throw new AppError('NOT_FOUND', { messageKey: 'housekeeping.errors.rangeNotFound' });
    await followRanges(tx, hotelId, [range.roomId], localDate(new Date(), timeZone), true);
    await recordEvent(tx, { hotelId, kind: 'room.outOfOrder', roomIds: [range.roomId] });
    await recordAudit(tx, ctx, { action: 'room.outOfOrderEnded', entityType: 'Room', entityId: range.roomId, before: { rangeId: id } });
  });
  return { id };
}

/**
 * The room board's maintenance axis follows the ranges of `today`: a room in a range is out of
 * order (or service) from its first day; on the day after its last (or when the range covering
 * today is removed: `removed`), the room is back in service unless another range covers today.
 * A room marked by hand outside any range is left as it is.
 */
export async function followRanges(tx: Tx, hotelId: number, roomIds: number[] | null, today: string, removed = false): Promise<number[]> {
  const only = roomIds === null ? Prisma.empty : Prisma.sql` AND r."id" IN (${Prisma.join(roomIds)})`;
  const changed = await tx.$queryRaw<{ id: number }[]>`
    UPDATE "Room" r SET "maintenance" = COALESCE(c."kind", 'none'::"MaintenanceStatus"), "updatedAt" = now()
    FROM (
      SELECT x."id",
        (SELECT o."kind" FROM "RoomOutOfOrder" o WHERE o."roomId" = x."id" AND o."startDate" <= ${today}::date AND o."endDate" >= ${today}::date LIMIT 1) AS "kind",
        EXISTS (SELECT 1 FROM "RoomOutOfOrder" o WHERE o."roomId" = x."id" AND o."endDate" = ${today}::date - 1) AS "endedYesterday"
      FROM "Room" x WHERE x."hotelId" = ${hotelId} AND x."deletedAt" IS NULL
    ) c
    WHERE r."id" = c."id" AND r."hotelId" = ${hotelId}${only}
      AND ((c."kind" IS NOT NULL AND r."maintenance" <> c."kind")
        OR (c."kind" IS NULL AND r."maintenance" <> 'none' AND (c."endedYesterday" OR ${removed})))
    RETURNING r."id"`;
  const ids = changed.map((r) => r.id);
  if (ids.length > 0) await recordEvent(tx, { hotelId, kind: 'room.changed', roomIds: ids });
  return ids;
}
