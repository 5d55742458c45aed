import { Prisma } from '../../generated/prisma/client';
import { ACTIVE_STAY_STATES, type TRoomStatus } from '@console/shared';

const active = Prisma.join(ACTIVE_STAY_STATES.map((s) => Prisma.sql`${s}::"StayStatus"`));

/**
 * The rule of the five statuses (docs/room-status.md), written once, in SQL, because the room
 * list filters and counts by it. From the three axes of a room:
 *   occupancy   an active stay (reserved, in house, expired) that has begun: a guest is in the room;
 *               one that has not begun yet: the room is reserved;
 *   maintenance none, out of order, out of service;
 *   cleanliness clean, dirty, inspected;
 * the status is, by precedence: checked_in, maintain, reserved, dirty, vacant.
 * Only the columns that status, filters and sorting need are carried; pages fetch the rest by id.
 */
export function roomsWithStatusSql(hotelId: number, where: Prisma.Sql, now: Date): Prisma.Sql {
  return Prisma.sql`
    WITH occupancy AS (
      SELECT s."roomId",
             bool_or(s."checkInAt" <= ${now}) AS "isOccupied",
             bool_or(s."checkInAt" > ${now}) AS "hasUpcoming"
      FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" IN (${active})
      GROUP BY s."roomId"
    )
    SELECT r."id", r."name", r."sortOrder", r."groupId", g."name" AS "groupName", g."sort" AS "groupSort",
           CASE
             WHEN coalesce(o."isOccupied", false) THEN 'checked_in'
             WHEN r."maintenance" <> 'none' THEN 'maintain'
             WHEN coalesce(o."hasUpcoming", false) THEN 'reserved'
             WHEN r."cleanStatus" = 'dirty' THEN 'dirty'
             ELSE 'vacant'
           END AS "status"
    FROM "Room" r
    LEFT JOIN "RoomGroup" g ON g."id" = r."groupId"
    LEFT JOIN occupancy o ON o."roomId" = r."id"
    WHERE ${where}`;
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
