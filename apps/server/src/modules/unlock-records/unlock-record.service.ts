import {
  UNLOCK_EVENTS,
  UNLOCK_SOURCES,
  ZRecordsByPersonInput,
  ZUnlockRecordListInput,
  addDays,
  zonedToInstant,
  type TUnlockEvent,
  type TUnlockSource,
} from '@console/shared';
import type { z } from 'zod';
import type { Actor, AuthedContext } from '../../context';
import { descAfter, type KeysetCursor } from '../../db/keyset';
import { containsText, searchText } from '../../db/search';
import { AppError } from '../../errors';
import { Prisma } from '../../generated/prisma/client';
import { requirePermission } from '../../permissions';
import { findRoom, roomScope, roomScopeSql } from '../base/room-access';

const recordSelect = {
  id: true,
  roomId: true,
  occurredAt: true,
  event: true,
  source: true,
  device: true,
  success: true,
  style: true,
  operator: true,
  credential: true,
  reason: true,
  stayId: true,
  doorLockId: true,
  room: { select: { name: true } },
  doorLock: { select: { name: true, alias: true } },
} as const;
type SelectedRow = Prisma.UnlockRecordGetPayload<{ select: typeof recordSelect }>;
/** A record as the lists read it: the room's name, and the shared door's name when it is a door's record. */
type RecordRow = Omit<SelectedRow, 'doorLock'> & { doorName: string | null };
const fromSelected = ({ doorLock, ...r }: SelectedRow): RecordRow => ({ ...r, doorName: doorLock ? doorLock.alias || doorLock.name : null });

/**
 * Totals of the record lists are counted up to this many records. Counting every record of a room
 * or a hotel costs what the records are (tens of ms for a room with half a million, bench/README.md
 * "Locks"), and nobody pages that far: above it the list says "more than 10,000" (`totalCapped`)
 * and its pages reach the newest 10,000; older ones are found by narrowing the dates.
 */
export const RECORD_COUNT_CAP = 10_000;

/** The total of a list, counted up to the cap (the count stops at the cap's first record over). */
function capped(counted: number) {
  return { total: Math.min(counted, RECORD_COUNT_CAP), totalCapped: counted > RECORD_COUNT_CAP };
}

function toRecordDto(r: RecordRow) {
  return {
    id: r.id,
    roomId: r.roomId,
    roomName: r.room.name,
    occurredAt: r.occurredAt.toISOString(),
    // A code this console does not know yet (a newer lock) is shown as "other", never as raw text.
    event: (UNLOCK_EVENTS as readonly string[]).includes(r.event) ? (r.event as TUnlockEvent) : ('other' as const),
    source: (UNLOCK_SOURCES as readonly string[]).includes(r.source) ? (r.source as TUnlockSource) : ('other' as const),
    device: r.device,
    success: r.success,
    style: r.style,
    /** The person the credential was issued to, when known. */
    operator: r.operator,
    /** Our credential that was used (`password:12`), when it is one of ours. */
    credential: r.credential,
    /** Why the lock refused, when it said (a code: `unlockRecords.refusals.<reason>`). */
    reason: r.reason,
    /** The stay whose credential it was, when the record names one (a shared door's records do). */
    stayId: r.stayId,
    /** A shared door's record: the door (its lock and name); null for a room's own lock. */
    door: r.doorLockId === null ? null : { lockId: r.doorLockId, name: r.doorName ?? '' },
  };
}

/** The hotel's local days `from`..`to` (inclusive) as an instant range. */
function dayRange(tz: string, from: string | undefined, to: string | undefined): { gte?: Date; lt?: Date } {
  return {
    ...(from ? { gte: zonedToInstant(`${from}T00:00`, tz)! } : {}),
    ...(to ? { lt: zonedToInstant(`${addDays(to, 1)}T00:00`, tz)! } : {}),
  };
}

async function page(ctx: AuthedContext, where: Prisma.UnlockRecordWhereInput, input: { page: number; pageSize: number }) {
  const [counted, rows] = await Promise.all([
    ctx.deps.prisma.unlockRecord.count({ where, take: RECORD_COUNT_CAP + 1 }),
    ctx.deps.prisma.unlockRecord.findMany({
      where,
      select: recordSelect,
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
  ]);
  return { items: rows.map((r) => toRecordDto(fromSelected(r))), ...capped(counted), page: input.page, pageSize: input.pageSize };
}

/**
 * The hotel's unlock records by person (room/openHistoryByPeople): one credential's, or those
 * whose person's name contains the text, in the rooms the actor may see, newest first.
 */
export async function listRecordsByPerson(ctx: AuthedContext, raw: z.input<typeof ZRecordsByPersonInput>) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZRecordsByPersonInput.parse(raw);
  return page(ctx, await recordsByPersonWhere(ctx, input), input);
}

/** The checks and conditions of the records by person: `room.read`, a room filter in the actor's scope. */
async function recordsByPersonWhere(ctx: AuthedContext, input: z.output<typeof ZRecordsByPersonInput>): Promise<Prisma.UnlockRecordWhereInput> {
  requirePermission(ctx.actor, 'room.read');
  if (input.roomId) await findRoom(ctx, input.roomId, { id: true });
  const person = searchText(input.person);
  return {
    hotelId: ctx.actor.hotelId,
    room: roomScope(ctx.actor),
    ...(input.roomId ? { roomId: input.roomId } : {}),
    ...(input.credential ? { credential: input.credential } : {}),
    ...(person ? { operator: containsText(person) } : {}),
    occurredAt: dayRange(ctx.actor.timeZone, input.from, input.to),
  };
}

/**
 * The records by person read whole, for an export: up to `limit` records after `after` (from the
 * first when null), newest first, by keyset (db/keyset.ts), with the same checks and conditions;
 * and how many match, counted up to `cap` (`countRecordsByPerson`).
 */
export async function listRecordsByPersonAfter(ctx: AuthedContext, raw: z.input<typeof ZRecordsByPersonInput>, after: KeysetCursor | null, limit: number) {
  requirePermission(ctx.actor, 'room.read');
  const where: Prisma.UnlockRecordWhereInput = {
    AND: [await recordsByPersonWhere(ctx, ZRecordsByPersonInput.parse(raw)), descAfter<Prisma.UnlockRecordWhereInput>('occurredAt', after)],
  };
  const rows = await ctx.deps.prisma.unlockRecord.findMany({ where, select: recordSelect, orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }], take: limit });
  return rows.map((r) => toRecordDto(fromSelected(r)));
}

export async function countRecordsByPerson(ctx: AuthedContext, raw: z.input<typeof ZRecordsByPersonInput>, cap: number): Promise<number> {
  requirePermission(ctx.actor, 'room.read');
  return ctx.deps.prisma.unlockRecord.count({ where: await recordsByPersonWhere(ctx, ZRecordsByPersonInput.parse(raw)), take: cap });
}

/** A row of `roomRecordsPageSql`: the room's name and the capped count, and a record (all null when the page is empty). */
type PageRecord = Omit<RecordRow, 'room'>;
type RoomPageRow = { roomName: string; counted: number } & (PageRecord | { [K in keyof PageRecord]: null });

/**
 * A room's page (`listUnlockRecords`) in one statement: the room, if the actor may see it (no row
 * otherwise); the total, counted up to the cap; and the page's records, one row each (one row of
 * nulls when there are none). The total and the page's ids are read from the index of the room's
 * records alone (hotel, room, time, id: the page's order), and only the page's own rows from the
 * table, by id: a page deep in half a million records costs what the first does. The benchmark
 * (bench/unlock-page.ts) sends this very statement as its plain-SQL baseline.
 */
export function roomRecordsPageSql(actor: Actor, input: { roomId: number; page: number; pageSize: number; from?: string; to?: string }) {
  const range = dayRange(actor.timeZone, input.from, input.to);
  const where = Prisma.sql`"hotelId" = ${actor.hotelId} AND "roomId" = ${input.roomId}${range.gte ? Prisma.sql` AND "occurredAt" >= ${range.gte}` : Prisma.empty}${range.lt ? Prisma.sql` AND "occurredAt" < ${range.lt}` : Prisma.empty}`;
  return Prisma.sql`
    WITH room AS (SELECT r."id", r."name" FROM "Room" r WHERE r."id" = ${input.roomId} AND ${roomScopeSql(actor)}),
    page AS (
      SELECT u."id", u."roomId", u."occurredAt", u."event", u."source", u."device", u."success", u."style"::text AS "style", u."operator", u."credential", u."reason",
             u."stayId", u."doorLockId", COALESCE(NULLIF(l."alias", ''), l."name") AS "doorName"
      FROM "UnlockRecord" u
      LEFT JOIN "Lock" l ON l."hotelId" = u."hotelId" AND l."id" = u."doorLockId"
      WHERE u."id" IN (SELECT "id" FROM "UnlockRecord" WHERE ${where} ORDER BY "occurredAt" DESC, "id" DESC LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}))
    SELECT room."name" AS "roomName",
           (SELECT count(*)::int FROM (SELECT 1 FROM "UnlockRecord" WHERE ${where} LIMIT ${RECORD_COUNT_CAP + 1}) c) AS "counted",
           page.*
    FROM room LEFT JOIN page ON true
    ORDER BY page."occurredAt" DESC, page."id" DESC`;
}

/** Unlock records of a room, newest first, between two dates of the hotel (inclusive). */
export async function listUnlockRecords(ctx: AuthedContext, raw: z.input<typeof ZUnlockRecordListInput>) {
  requirePermission(ctx.actor, 'room.read');
  const input = ZUnlockRecordListInput.parse(raw);
  const rows = await ctx.deps.prisma.$queryRaw<RoomPageRow[]>(roomRecordsPageSql(ctx.actor, input));
  const first = rows[0];
  if (!first) throw new AppError('NOT_FOUND', { messageKey: 'room.errors.notFound' });
  const items = rows.flatMap((r) => (r.id === null ? [] : [toRecordDto({ ...r, room: { name: first.roomName } })]));
  return { items, ...capped(first.counted), page: input.page, pageSize: input.pageSize };
}
