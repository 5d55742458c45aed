import { Prisma } from '../../generated/prisma/client';
import { ACTIVE_STAY_STATES, type TRoomStatus } from '@console/shared';

const active = Prisma.join(ACTIVE_STAY_STATES.map((s) => Prisma.sql`${s}::"StayStatus"`));

/**
 * The rule of the five statuses (docs/room-status.md). From the three axes of a room:
 *   occupancy   an active stay (reserved, in house, expired) that has begun: a guest is in the room;
 *               one that has not begun yet: the room is reserved;
 *   maintenance none, out of order, out of service;
 *   cleanliness clean, dirty, inspected;
 * the status is, by precedence: checked_in, maintain, reserved, dirty, vacant.
 *
 * The database keeps it on each room (`Room.status`, migration 20261122100000) from the stored
 * stay states: in house or expired means begun, reserved means not yet. The two readings differ
 * only while the clock has overtaken a stored state (a reservation whose check-in time has passed
 * and whose `arrive` job has not run yet; an in-house stay dated in the future, which the console
 * never writes), so the board reads the stored status and recomputes, per request, only the rooms
 * such a stay names (`offScheduleRoomsSql`).
 */

/** The rule at `now`, from one room's own active stays (the `(hotelId, roomId, checkInAt)` index). */
export function liveStatusSql(room: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`(SELECT CASE
      WHEN coalesce(bool_or(s."checkInAt" <= ${now}), false) THEN 'checked_in'
      WHEN ${room}."maintenance" <> 'none' THEN 'maintain'
      WHEN coalesce(bool_or(s."checkInAt" > ${now}), false) THEN 'reserved'
      WHEN ${room}."cleanStatus" = 'dirty' THEN 'dirty'
      ELSE 'vacant'
    END
    FROM "Stay" s WHERE s."hotelId" = ${room}."hotelId" AND s."roomId" = ${room}."id" AND s."status" IN (${active}))`;
}

/**
 * The rooms (among `r`, filtered by `where`) whose stored status the clock has overtaken, with
 * their stored and their live status. Found through the `(hotelId, status, checkInAt)` index of
 * stays: normally none, for a moment a few.
 */
export function offScheduleRoomsSql(hotelId: number, where: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT r."id", r."status"::text AS "stored", ${liveStatusSql(Prisma.raw('r'), now)} AS "status"
    FROM "Room" r
    WHERE r."id" = ANY (ARRAY(
      SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" = 'reserved' AND s."checkInAt" <= ${now}
      UNION
      SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" IN ('in_house', 'expired') AND s."checkInAt" > ${now}
    )) AND ${where}`;
}

/** The active stay a room shows: the one in progress, else the next reservation. */
export function currentStaySql(roomAlias: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT s."id", s."status"::text AS "status", s."checkInAt", s."expectedCheckOutAt",
           (SELECT sg."name" FROM "StayGuest" sg WHERE sg."hotelId" = s."hotelId" AND sg."stayId" = s."id" ORDER BY sg."isPrimary" DESC, sg."id" LIMIT 1) AS "guestName",
           (SELECT count(*)::int FROM "StayGuest" sg WHERE sg."hotelId" = s."hotelId" AND sg."stayId" = s."id") AS "guestCount"
    FROM "Stay" s
    WHERE s."roomId" = ${roomAlias}."id" AND s."status" IN (${active})
    ORDER BY (s."checkInAt" <= ${now}) DESC, s."checkInAt"
    LIMIT 1`;
}

export type { TRoomStatus };
