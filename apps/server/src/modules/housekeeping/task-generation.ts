import { ZHousekeepingDayInput, localDate, zonedToInstant } from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext, ServiceContext } from '../../context';
import { recordEvent } from '../../db/events';
import { transaction, type Tx } from '../../db/transaction';
import { Prisma } from '../../generated/prisma/client';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { noteRotaChange } from './attendant-access';
import { followRanges } from './out-of-order';
import { asDate, dayOf, theDay } from './task-shape';

/**
 * The day's tasks (housekeeping (issue 28 §2, docs/housekeeping.md): the day's tasks of each room, made by the day
 * (`generateTasks`, idempotent: one task per room, day and kind, so two runs at once make one set),
 * assigned to attendants, worked on the attendant's phone and inspected by the supervisor. The
 * room's cleanliness follows: done -> clean, inspection passed -> inspected, failed -> dirty.
 */

const ACTIVE = Prisma.sql`('in_house'::"StayStatus", 'expired'::"StayStatus")`;

/**
 * Makes the tasks of `day` in one statement (INSERT ... ON CONFLICT DO NOTHING on the task's room,
 * day and kind, so runs at once or again make nothing twice): a departure clean for each room a
 * stay leaves that day and each dirty room without a guest; a stay-over clean per the hotel's
 * rule (daily, every N days counted from the check-in day, never on its own for `on_request`); an
 * inspection for each room a reservation arrives in that day that is clean but not inspected. A
 * room out of order that day gets none. Answers the rooms given a task.
 */
export async function generateTasks(tx: Tx, hotelId: number, day: string): Promise<number[]> {
  const hotel = await tx.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { timeZone: true, stayoverRule: true, stayoverEveryDays: true } });
  const tz = hotel.timeZone;
  const stayover =
    hotel.stayoverRule === 'daily'
      ? Prisma.sql`TRUE`
      : hotel.stayoverRule === 'every_n_days'
        ? Prisma.sql`((${day}::date - (s."checkInAt" AT TIME ZONE ${tz})::date) % ${hotel.stayoverEveryDays}) = 0`
        : Prisma.sql`FALSE`;
  const rows = await tx.$queryRaw<{ roomId: number }[]>`
    INSERT INTO "HousekeepingTask" ("hotelId", "roomId", "day", "kind", "stayId", "updatedAt")
    SELECT DISTINCT ON (x."roomId", x."kind") ${hotelId}, x."roomId", ${day}::date, x."kind"::"HousekeepingTaskKind", x."stayId", now()
    FROM (
      SELECT s."roomId", 'departure' AS "kind", s."id" AS "stayId", 0 AS "rank"
      FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" IN ('in_house', 'expired', 'checked_out')
        AND (COALESCE(s."checkedOutAt", s."expectedCheckOutAt") AT TIME ZONE ${tz})::date = ${day}::date
      UNION ALL
      SELECT r."id", 'departure', NULL, 1 FROM "Room" r
      WHERE r."hotelId" = ${hotelId} AND r."cleanStatus" = 'dirty' AND r."inHouseStays" = 0
      UNION ALL
      SELECT s."roomId", 'stayover', s."id", 0
      FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" IN ${ACTIVE}
        AND (s."checkInAt" AT TIME ZONE ${tz})::date < ${day}::date
        AND (s."expectedCheckOutAt" AT TIME ZONE ${tz})::date > ${day}::date
        AND ${stayover}
      UNION ALL
      SELECT s."roomId", 'inspection', s."id", 0
      FROM "Stay" s JOIN "Room" r ON r."id" = s."roomId"
      WHERE s."hotelId" = ${hotelId} AND s."status" = 'reserved' AND r."cleanStatus" = 'clean'
        AND (s."checkInAt" AT TIME ZONE ${tz})::date = ${day}::date
    ) x
    JOIN "Room" rm ON rm."id" = x."roomId" AND rm."hotelId" = ${hotelId} AND rm."deletedAt" IS NULL
    WHERE NOT EXISTS (
      SELECT 1 FROM "RoomOutOfOrder" o WHERE o."roomId" = x."roomId" AND o."startDate" <= ${day}::date AND o."endDate" >= ${day}::date)
    ORDER BY x."roomId", x."kind", x."rank"
    ON CONFLICT ("hotelId", "roomId", "day", "kind") DO NOTHING
    RETURNING "roomId"`;
  const roomIds = [...new Set(rows.map((r) => r.roomId))];
  if (roomIds.length > 0) await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds });
  return roomIds;
}

/** "Make the day's tasks now" (the supervisor, on demand): the same generation as the day-start job. */
export async function generateDay(ctx: AuthedContext, raw: z.input<typeof ZHousekeepingDayInput>): Promise<{ day: string; created: number }> {
  requirePermission(ctx.actor, 'housekeeping.manage');
  const day = theDay(ctx, ZHousekeepingDayInput.parse(raw).day);
  const created = await transaction(ctx.deps, async (tx) => {
    const rooms = await generateTasks(tx, ctx.actor.hotelId, day);
    // Asked for by the supervisor: recorded even when every task already existed.
    await recordAudit(tx, ctx, { action: 'housekeeping.generate', entityType: 'Hotel', entityId: ctx.actor.hotelId, after: { day, rooms: rooms.length } });
    return rooms.length;
  });
  return { day, created };
}

/**
 * The day-start job (every stay sweep, jobs/stay.job.ts): each hotel whose housekeeping day start
 * has come and whose day is not made yet claims it (one update: of two sweeps at once, one wins),
 * the board follows the out-of-order ranges of the new day, and the day's tasks are made.
 */
export async function generateDaysOnTime(ctx: ServiceContext, now: Date, scope: { hotelId?: number } = {}): Promise<number> {
  const hotels = await ctx.deps.prisma.hotel.findMany({
    where: scope.hotelId === undefined ? {} : { id: scope.hotelId },
    select: { id: true, timeZone: true, housekeepingDayStart: true, housekeepingDay: true },
  });
  let made = 0;
  for (const hotel of hotels) {
    const today = localDate(now, hotel.timeZone);
    const due = zonedToInstant(`${today}T${hotel.housekeepingDayStart}`, hotel.timeZone);
    if (!due || now < due) continue;
    if (hotel.housekeepingDay && dayOf(hotel.housekeepingDay) >= today) continue;
    const claimed = await transaction(ctx.deps, async (tx) => {
      const won = await tx.hotel.updateMany({
        where: { id: hotel.id, OR: [{ housekeepingDay: null }, { housekeepingDay: { lt: asDate(today) } }] },
        data: { housekeepingDay: asDate(today) },
      });
      if (won.count === 0) return false;
      await followRanges(tx, hotel.id, null, today);
      const rooms = await generateTasks(tx, hotel.id, today);
      await recordAudit(tx, ctx, {
        hotelId: hotel.id,
        action: 'housekeeping.generate',
        entityType: 'Hotel',
        entityId: hotel.id,
        after: { day: today, rooms: rooms.length },
      });
      return true;
    });
    if (claimed) made += 1;
  }
  return made;
}

/**
 * A room a guest leaves (a check-out, a move to another room) once the day's tasks are made gets
 * its departure clean at once, as "Make the day's tasks" would make it (issue 39 §11): the desk does
 * not have to press it again for every early departure. A departure clean done earlier that day (the
 * room was cleaned, sold again and left again) is opened again for its attendant. Before the day is
 * made (its day start has not come), the day-start job makes it with the rest. A room out of order
 * that day gets none, as in the generation.
 */
export async function departureClean(tx: Tx, ctx: ServiceContext, hotelId: number, roomId: number, stayId: number, now: Date): Promise<void> {
  const rows = await tx.$queryRaw<{ assigneeId: number | null; day: Date }[]>`
    INSERT INTO "HousekeepingTask" ("hotelId", "roomId", "day", "kind", "stayId", "updatedAt")
    SELECT h."id", ${roomId}, (${now}::timestamptz AT TIME ZONE h."timeZone")::date, 'departure', ${stayId}, now()
    FROM "Hotel" h
    WHERE h."id" = ${hotelId} AND h."housekeepingDay" >= (${now}::timestamptz AT TIME ZONE h."timeZone")::date
      AND NOT EXISTS (
        SELECT 1 FROM "RoomOutOfOrder" o
        WHERE o."roomId" = ${roomId} AND o."startDate" <= (${now}::timestamptz AT TIME ZONE h."timeZone")::date
          AND o."endDate" >= (${now}::timestamptz AT TIME ZONE h."timeZone")::date)
    ON CONFLICT ("hotelId", "roomId", "day", "kind") DO UPDATE
      SET "status" = 'todo', "stayId" = EXCLUDED."stayId", "startedAt" = NULL, "doneAt" = NULL, "inspectedAt" = NULL,
          "failReason" = '', "version" = "HousekeepingTask"."version" + 1, "updatedAt" = now()
      WHERE "HousekeepingTask"."status" IN ('done', 'inspected')
    RETURNING "assigneeId", "day"`;
  if (rows.length === 0) return;
  await recordEvent(tx, { hotelId, kind: 'housekeeping.changed', roomIds: [roomId] });
  noteRotaChange(tx, ctx, { hotelId, day: dayOf(rows[0]!.day), membershipIds: [rows[0]!.assigneeId] });
}
