import { businessDateOf } from '../journal/business-date';
import { ROOM_STATUSES, addDays, localDate, zonedToInstant, type TRoomStatus } from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { requirePermission } from '../../permissions';
import { LOW_BATTERY_PERCENT } from '../locks/lock-status';
import { roomScopeSql } from '../base/room-access';
import { unpaidDepartures } from '../orders/stay-bills';
import { listRooms } from '../room/room-list';
import { arrivalsNotReady } from '../access-rules/arrival-readiness';
import { beginsVisitSql } from '../stays/visit-start';

/**
 * The today board (issue 9 §6, the spec's "home"): the figures of the hotel's day in its time zone,
 * over the rooms the actor may see. Each is counted as the list it links to counts it, so the
 * figure and the list agree:
 *
 * - rooms per status: the room board's own counts (`listRooms`: kept by the database, corrected
 *   for the clock), so Dirty and Maintain are the board's filters;
 * - arrivals still expected today: the stay list's `reserved` stays overlapping today (active,
 *   check-in still to come and before midnight, and the reservations awaiting their guest at the
 *   desk whose check-in time has passed); arrived today: stays that began today (not a room
 *   change's continuation, not cancelled, not a reservation still waiting); the list itself is
 *   `listArrivals` (modules/stays/arrivals.ts);
 * - in house and overdue: the stay list's `in_house` and `expired` stays;
 * - departures still due today: active stays whose expected check-out is between now and
 *   midnight; departed today: stays checked out today;
 * - breakfasts: the breakfast list of today (stays with breakfast whose guests slept there last
 *   night), its guests and those served;
 * - locks: rooms whose lock was offline at its last check, or whose battery (the provider's last
 *   report, else the legacy app's reading) is under LOW_BATTERY_PERCENT, as the board shows them;
 * - credential deliveries that failed (passwords, face authorisations, cards): on their lock,
 *   failed or failed to be removed;
 * - takings: today's money in the journal, net of the corrections made today, for members who manage orders;
 * - unpaid departures: bills left owing at check-out, whatever the day (orders/stay-bills.ts);
 * - arrivals not ready: arrivals within a day whose credentials are not on their lock (access-rules/arrival-readiness.ts).
 *
 * Four statements, run side by side: the board's counts, the day's figures, the takings, the unpaid departures.
 */

/** How many rooms the board names under the locks and deliveries figures (the rest are counted). */
export const TODAY_ROOMS_LISTED = 8;

const ACTIVE = Prisma.sql`('reserved', 'in_house', 'expired')`;

interface DayRow {
  stays: { arrivalsExpected: number; inHouse: number; overdue: number; departuresDue: number };
  arrived: number;
  departed: number;
  breakfast: { stays: number; guests: number; served: number };
  locks: { offline: number; lowBattery: number; total: number; rooms: { id: number; name: string; online: boolean | null; battery: number | null }[] | null };
  failed: {
    passwords: number;
    faces: number;
    cards: number;
    total: number;
    rooms: { id: number; name: string; passwords: number; faces: number; cards: number }[] | null;
  };
}

/**
 * The day's figures in one statement: `now`, and the hotel's day from `dayStart` to `dayEnd`.
 * Each part reads its own few rows through an index (the active stays, the day's arrivals and
 * check-outs, the night's breakfasts, the locks and deliveries that need attention) and checks the
 * actor's room scope on those rows alone (`inScope`, by key). The rooms of active stays are not
 * checked for deletion: a room with an active stay cannot be deleted (deleteRoom).
 * One JSON object per part keeps the plan small (it is planned at every call).
 */
export function todaySql(ctx: AuthedContext, now: Date, dayStart: Date, dayEnd: Date, date: string): Prisma.Sql {
  const { actor } = ctx;
  const hotelId = actor.hotelId;
  // The scope of roomScopeSql (room-access.ts), checked on the rows found rather than over the
  // hotel's rooms: the row's room is not deleted and, for a member limited to some rooms, is one of
  // theirs (MembershipRoom's key); those few rows are checked by key, never by reading every room.
  const mine = (roomId: Prisma.Sql) =>
    Prisma.sql`EXISTS (SELECT 1 FROM "MembershipRoom" mr WHERE mr."membershipId" = ${actor.membershipId} AND mr."roomId" = ${roomId})`;
  const inScope = (roomId: Prisma.Sql) =>
    Prisma.sql`EXISTS (SELECT 1 FROM "Room" r WHERE r."id" = ${roomId} AND r."hotelId" = ${hotelId} AND r."deletedAt" IS NULL)${actor.allRooms ? Prisma.empty : Prisma.sql` AND ${mine(roomId)}`}`;
  const low = Prisma.raw(String(LOW_BATTERY_PERCENT));
  return Prisma.sql`
    WITH
    active AS (
      -- Read from the index of active stays alone (Stay_active_day_idx holds every column used here).
      SELECT s."checkInAt", s."expectedCheckOutAt" FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" IN ${ACTIVE}${actor.allRooms ? Prisma.empty : Prisma.sql` AND ${mine(Prisma.raw('s."roomId"'))}`}
    ),
    waiting AS (
      -- Reservations that await their guest at the desk and whose check-in time has passed: still
      -- expected (not in house) until the desk records the arrival or they become no-shows. Few,
      -- found through the (hotelId, status, checkInAt) index; the figures below take them out of
      -- the stays whose check-in time has passed.
      SELECT s."expectedCheckOutAt" FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" = 'reserved' AND s."checkInAt" <= ${now} AND s."awaitsArrival"${actor.allRooms ? Prisma.empty : Prisma.sql` AND ${mine(Prisma.raw('s."roomId"'))}`}
    ),
    breakfast AS (
      -- The breakfast list's stays (stays/breakfast.ts: breakfast, not cancelled, began before the
      -- morning, still there at it), in three parts that each have their index: the active stays
      -- (whose rooms are not deleted), the moved reservations not begun, and the stays checked out
      -- or moved after the morning.
      SELECT s."id" FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" IN ${ACTIVE} AND s."breakfast" AND s."checkInAt" < ${dayStart}
        AND ((s."checkedOutAt" IS NULL AND s."expectedCheckOutAt" > ${dayStart}) OR s."checkedOutAt" > ${dayStart})${actor.allRooms ? Prisma.empty : Prisma.sql` AND ${mine(Prisma.raw('s."roomId"'))}`}
      UNION ALL
      SELECT s."id" FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."status" = 'moved' AND s."checkedOutAt" IS NULL AND s."breakfast" AND s."checkInAt" < ${dayStart} AND s."expectedCheckOutAt" > ${dayStart}
        AND ${inScope(Prisma.raw('s."roomId"'))}
      UNION ALL
      SELECT s."id" FROM "Stay" s
      WHERE s."hotelId" = ${hotelId} AND s."checkedOutAt" > ${dayStart} AND s."status" IN ('moved', 'checked_out') AND s."breakfast" AND s."checkInAt" < ${dayStart}
        AND ${inScope(Prisma.raw('s."roomId"'))}
    ),
    lock_rooms AS (
      -- A legacy battery reading under the threshold, or a lock report offline or under it (few of
      -- the hotel's locks, found before any room is read); then each room's latest report decides,
      -- as the room board shows it.
      SELECT x.* FROM (
        SELECT r."id", r."name", l."online", coalesce(l."battery", r."lockPower") AS "battery"
        FROM "Room" r
        LEFT JOIN "Lock" l ON l."id" = r."lockId"
        WHERE ${roomScopeSql(actor)} AND (r."lockPower" < ${low} OR r."lockId" IN (
          SELECT c."id" FROM "Lock" c WHERE c."hotelId" = ${hotelId} AND (c."online" = false OR c."battery" < ${low})))
      ) x
      WHERE x."online" = false OR x."battery" < ${low}
    ),
    failed AS (
      SELECT r."id", r."name", sum(f."passwords")::int AS "passwords", sum(f."faces")::int AS "faces", sum(f."cards")::int AS "cards"
      FROM (
        SELECT p."roomId", 1 AS "passwords", 0 AS "faces", 0 AS "cards" FROM "LockPassword" p
        WHERE p."hotelId" = ${hotelId} AND p."deliveryState" IN ('failed', 'remove_failed')
        UNION ALL
        SELECT fa."roomId", 0, 1, 0 FROM "FaceAuthorization" fa
        WHERE fa."hotelId" = ${hotelId} AND fa."deliveryState" IN ('failed', 'remove_failed')
        UNION ALL
        SELECT cg."roomId", 0, 0, 1 FROM "CardGrant" cg
        WHERE cg."hotelId" = ${hotelId} AND cg."deliveryState" IN ('failed', 'remove_failed') AND cg."roomId" IS NOT NULL AND cg."doorLockId" IS NULL
      ) f JOIN "Room" r ON r."id" = f."roomId"
      WHERE ${roomScopeSql(actor)}
      GROUP BY r."id", r."name"
    )
    SELECT
      (SELECT json_build_object(
         'arrivalsExpected', count(*) FILTER (WHERE "checkInAt" > ${now} AND "checkInAt" < ${dayEnd} AND "expectedCheckOutAt" > ${now})
           + (SELECT count(*) FROM waiting w WHERE w."expectedCheckOutAt" > ${now}),
         'inHouse', count(*) FILTER (WHERE "checkInAt" <= ${now} AND "expectedCheckOutAt" > ${now}) - (SELECT count(*) FROM waiting w WHERE w."expectedCheckOutAt" > ${now}),
         'overdue', count(*) FILTER (WHERE "expectedCheckOutAt" <= ${now}) - (SELECT count(*) FROM waiting w WHERE w."expectedCheckOutAt" <= ${now}),
         'departuresDue', count(*) FILTER (WHERE "expectedCheckOutAt" > ${now} AND "expectedCheckOutAt" < ${dayEnd})
           - (SELECT count(*) FROM waiting w WHERE w."expectedCheckOutAt" > ${now} AND w."expectedCheckOutAt" < ${dayEnd}))
       FROM active) AS "stays",
      (SELECT count(*)::int FROM "Stay" s
       WHERE s."hotelId" = ${hotelId} AND s."status" IN ('reserved', 'in_house', 'expired', 'moved', 'checked_out')
         AND s."checkInAt" >= ${dayStart} AND s."checkInAt" <= ${now} AND ${Prisma.raw(beginsVisitSql('s'))} AND NOT (s."status" = 'reserved' AND s."awaitsArrival")
         AND NOT (s."status" = 'moved' AND s."checkedOutAt" IS NULL)
         AND ${inScope(Prisma.raw('s."roomId"'))}) AS "arrived",
      (SELECT count(*)::int FROM "Stay" s
       WHERE s."hotelId" = ${hotelId} AND s."checkedOutAt" >= ${dayStart} AND s."checkedOutAt" < ${dayEnd} AND s."status" = 'checked_out'
         AND ${inScope(Prisma.raw('s."roomId"'))}) AS "departed",
      (SELECT json_build_object(
         'stays', (SELECT count(*) FROM breakfast),
         'guests', (SELECT count(*) FROM "StayGuest" g WHERE g."hotelId" = ${hotelId} AND g."stayId" IN (SELECT b."id" FROM breakfast b)),
         'served', (SELECT coalesce(sum(br."guests"), 0) FROM "BreakfastRecord" br
                    WHERE br."hotelId" = ${hotelId} AND br."date" = ${date}::date AND br."servedAt" IS NOT NULL AND br."stayId" IN (SELECT b."id" FROM breakfast b)))) AS "breakfast",
      (SELECT json_build_object(
         'offline', count(*) FILTER (WHERE "online" = false),
         'lowBattery', count(*) FILTER (WHERE "battery" < ${low}),
         'total', count(*),
         'rooms', (SELECT json_agg(x) FROM (SELECT "id", "name", "online", "battery" FROM lock_rooms ORDER BY "name", "id" LIMIT ${TODAY_ROOMS_LISTED}) x))
       FROM lock_rooms) AS "locks",
      (SELECT json_build_object(
         'passwords', coalesce(sum("passwords"), 0), 'faces', coalesce(sum("faces"), 0), 'cards', coalesce(sum("cards"), 0), 'total', count(*),
         'rooms', (SELECT json_agg(x) FROM (SELECT * FROM failed ORDER BY "name", "id" LIMIT ${TODAY_ROOMS_LISTED}) x))
       FROM failed) AS "failed"`;
}

/**
 * Today's takings, from the journal (docs/journal.md): the money lines (a way of paying, never a
 * customer's balance: that money came in with its recharge) of today's entries, in the hotel's
 * currency. Received: deposits, payments and recharges; paid out: refunds; each net of the
 * corrections made today (a correction counts with the kind of the entry it reverses), so a payment
 * a manager corrected as never received is no taking. A member limited to some rooms counts the
 * entries of those rooms only. Null for members who do not manage orders.
 */
async function todayTakings(ctx: AuthedContext, date: string) {
  const { actor } = ctx;
  if (!actor.permissions.has('order.manage')) return null;
  const limited = actor.allRooms ? Prisma.empty : Prisma.sql` AND EXISTS (SELECT 1 FROM "Room" r WHERE r."id" = o."roomId" AND ${roomScopeSql(actor)})`;
  const [row] = await ctx.deps.prisma.$queryRaw<{ received: number; paidOut: number; entries: number }[]>`
    SELECT coalesce(sum(l."amount") FILTER (WHERE coalesce(c."kind", o."kind") <> 'refund'), 0)::float8 AS "received",
           coalesce(sum(l."amount") FILTER (WHERE coalesce(c."kind", o."kind") = 'refund'), 0)::float8 AS "paidOut",
           count(DISTINCT o."id") FILTER (WHERE o."kind" <> 'correction' AND NOT EXISTS (
             SELECT 1 FROM "OrderEntry" x WHERE x."hotelId" = o."hotelId" AND x."linkedEntryId" = o."id" AND x."kind" = 'correction'))::int AS "entries"
    FROM "JournalEntry" e
    JOIN "JournalLine" l ON l."journalEntryId" = e."id" AND l."account" = 'money'
    JOIN "OrderEntry" o ON o."hotelId" = e."hotelId" AND o."id" = e."orderEntryId"
    LEFT JOIN "OrderEntry" c ON o."kind" = 'correction' AND c."hotelId" = o."hotelId" AND c."id" = o."linkedEntryId"
    WHERE e."hotelId" = ${actor.hotelId} AND e."businessDate" = ${date} AND o."currency" = ${actor.currency}${limited}`;
  const received = Number(row?.received ?? 0);
  const paidOut = Number(row?.paidOut ?? 0);
  return { currency: actor.currency, total: received + paidOut, received, paidOut, entries: row?.entries ?? 0 };
}

export async function getToday(ctx: AuthedContext) {
  const { actor } = ctx;
  requirePermission(actor, 'room.read');
  const now = new Date();
  const date = localDate(now, actor.timeZone);
  const dayStart = zonedToInstant(`${date}T00:00`, actor.timeZone)!;
  const dayEnd = zonedToInstant(`${addDays(date, 1)}T00:00`, actor.timeZone)!;
  const [board, [day], [businessDate, takings], unpaid, notReady] = await Promise.all([
    listRooms(ctx, { pageSize: 1 }),
    ctx.deps.prisma.$queryRaw<DayRow[]>(todaySql(ctx, now, dayStart, dayEnd, date)),
    // The takings of the business date: in the night before the audit, the day before's.
    businessDateOf(ctx.deps.prisma, actor.hotelId, now).then((open) => Promise.all([open, todayTakings(ctx, open)])),
    unpaidDepartures(ctx),
    arrivalsNotReady(ctx.deps.prisma, actor, now, TODAY_ROOMS_LISTED),
  ]);
  const d = day!;
  const rooms = Object.fromEntries(ROOM_STATUSES.map((s) => [s, board.counts[s]])) as Record<TRoomStatus, number>;
  return {
    date,
    businessDate,
    timeZone: actor.timeZone,
    at: now.toISOString(),
    rooms: { total: ROOM_STATUSES.reduce((sum, s) => sum + rooms[s], 0), ...rooms },
    arrivals: { expected: d.stays.arrivalsExpected, arrived: d.arrived },
    departures: { due: d.stays.departuresDue, departed: d.departed },
    inHouse: d.stays.inHouse,
    overdue: d.stays.overdue,
    breakfast: { stays: d.breakfast.stays, guests: d.breakfast.guests, served: d.breakfast.served },
    locks: {
      offline: d.locks.offline,
      lowBattery: d.locks.lowBattery,
      lowBatteryBelow: LOW_BATTERY_PERCENT,
      roomsTotal: d.locks.total,
      rooms: d.locks.rooms ?? [],
    },
    deliveries: {
      failed: d.failed.passwords + d.failed.faces + d.failed.cards,
      passwords: d.failed.passwords,
      faces: d.failed.faces,
      cards: d.failed.cards,
      roomsTotal: d.failed.total,
      rooms: d.failed.rooms ?? [],
    },
    /** Arrivals within ARRIVAL_READY_HOURS whose credentials are not on their lock (access-rules/arrival-readiness.ts), each with "fix now". */
    notReady,
    takings,
    /** Bills left owing at check-out, to collect (null for members who take no payments). */
    unpaidDepartures: unpaid,
  };
}
