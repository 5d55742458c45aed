import { Prisma } from '../../generated/prisma/client';
import { ACTIVE_STAY_STATES } from '@console/shared';

const active = Prisma.join(ACTIVE_STAY_STATES.map((s) => Prisma.sql`${s}::"StayStatus"`));

/**
 * The rule of the five statuses (docs/room-status.md). From the three axes of a room:
 *   occupancy   a guest is in the room: an active stay that has begun (in house, expired, or a
 *               check-in dated ahead whose time has come; a reservation that awaits its guest
 *               begins only when the desk records the arrival); reserved tonight: a reservation
 *               not begun whose arrival day (the hotel's) has come; else free (a reservation from
 *               tomorrow on is shown with the room, not in its status);
 *   maintenance none, out of order, out of service;
 *   cleanliness clean, dirty, inspected;
 * the status is, by precedence: checked_in, maintain, reserved, dirty, vacant.
 *
 * The database keeps it on each room (`Room.status`, migrations 20261122100000 and 20261126170000)
 * from the stored stay states: in house or expired means begun, reserved and `arrivalDue` means
 * reserved tonight. The two readings differ only while the clock has overtaken a stored state (a
 * check-in dated ahead whose time has passed before its `arrive` job ran; a reservation whose
 * arrival day began before its `due` job ran; an in-house stay dated in the future, which the
 * console never writes), so the board reads the stored status and recomputes, per request, only
 * the rooms such a stay names (`offScheduleRoomsSql`). `dayEnd` is the end of the hotel's day.
 */

/** Whether stay `s` has begun at `now` (a guest is in the room). */
function begunSql(now: Date): Prisma.Sql {
  return Prisma.sql`(s."checkInAt" <= ${now} AND NOT (s."status" = 'reserved' AND s."awaitsArrival"))`;
}

/** The rule at `now`, from one room's own active stays (the `(hotelId, roomId, checkInAt)` index). */
export function liveStatusSql(room: Prisma.Sql, now: Date, dayEnd: Date): Prisma.Sql {
  return Prisma.sql`(SELECT CASE
      WHEN coalesce(bool_or(${begunSql(now)}), false) THEN 'checked_in'
      WHEN ${room}."maintenance" <> 'none' THEN 'maintain'
      WHEN coalesce(bool_or(s."checkInAt" < ${dayEnd}), false) THEN 'reserved'
      WHEN ${room}."cleanStatus" = 'dirty' THEN 'dirty'
      ELSE 'vacant'
    END
    FROM "Stay" s WHERE s."hotelId" = ${room}."hotelId" AND s."roomId" = ${room}."id" AND s."status" IN (${active}))`;
}

/**
 * The rooms (among `r`, filtered by `where`) whose stored status the clock has overtaken, with
 * their stored and their live status. Found through the `(hotelId, status, checkInAt)` and
 * `(hotelId, status, arrivalDue, checkInAt)` indexes of stays: normally none, for a moment a few
 * (and the reservations awaiting their late guests, which are not off schedule).
 */
export function offScheduleRoomsSql(hotelId: number, where: Prisma.Sql, now: Date, dayEnd: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT r."id", r."status"::text AS "stored", ${liveStatusSql(Prisma.raw('r'), now, dayEnd)} AS "status"
    FROM "Room" r
    WHERE r."id" = ANY (ARRAY(
      SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" = 'reserved' AND s."checkInAt" <= ${now} AND NOT s."awaitsArrival"
      UNION
      SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" = 'reserved' AND NOT s."arrivalDue" AND s."checkInAt" < ${dayEnd}
      UNION
      SELECT s."roomId" FROM "Stay" s WHERE s."hotelId" = ${hotelId} AND s."status" IN ('in_house', 'expired') AND s."checkInAt" > ${now}
    )) AND ${where}`;
}

/** The first of a room's active stays (filtered by `only`): the one in progress first, then the reservations by arrival. */
function roomStaySql(roomAlias: Prisma.Sql, now: Date, only: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT s."id", s."status"::text AS "status", s."checkInAt", s."expectedCheckOutAt", s."awaitsArrival", s."noShowAt",
           (SELECT sg."name" FROM "StayGuest" sg WHERE sg."hotelId" = s."hotelId" AND sg."stayId" = s."id" ORDER BY sg."isPrimary" DESC, sg."id" LIMIT 1) AS "guestName",
           (SELECT count(*)::int FROM "StayGuest" sg WHERE sg."hotelId" = s."hotelId" AND sg."stayId" = s."id") AS "guestCount",
           -- What the visit's bill owes (docs/orders.md: the sum of its folio's entries, when negative).
           greatest(0, -coalesce((SELECT sum(e."amount") FROM "Folio" f JOIN "OrderEntry" e ON e."hotelId" = f."hotelId" AND e."folioId" = f."id"
             WHERE f."hotelId" = s."hotelId" AND f."stayId" = s."visitStayId"), 0))::int AS "owed"
    FROM "Stay" s
    WHERE s."roomId" = ${roomAlias}."id" AND s."status" IN (${active})${only}
    ORDER BY ${begunSql(now)} DESC, s."checkInAt"
    LIMIT 1`;
}

/** The active stay a room shows: the one in progress, else the next reservation. */
export function currentStaySql(roomAlias: Prisma.Sql, now: Date): Prisma.Sql {
  return roomStaySql(roomAlias, now, Prisma.empty);
}

/** The next reservation after the current stay (a room sold tonight and reserved from tomorrow shows both). */
export function nextStaySql(roomAlias: Prisma.Sql, now: Date): Prisma.Sql {
  return roomStaySql(roomAlias, now, Prisma.sql` AND NOT ${begunSql(now)} AND s."id" <> (SELECT c."id" FROM (${currentStaySql(roomAlias, now)}) c)`);
}
