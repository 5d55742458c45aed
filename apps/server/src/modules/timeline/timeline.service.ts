import {
  TIMELINE_BLOCK,
  ZTimelineBarsInput,
  ZTimelineWindowInput,
  addDays,
  localDate,
  zonedToInstant,
  type TTimelineBarState,
  type TTimelineBars,
  type TTimelineBarsInput,
  type TTimelineWindow,
  type TTimelineWindowInput,
} from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { roomScopeSql } from '../base/room-access';
import { beginsVisitSql } from '../stays/visit-start';

/**
 * The timeline (issue 28 §1, docs/timeline.md, decision 052): one visible window of the hotel's
 * rooms and days. `timelineWindow`: four statements run side by side: the rooms of the window (the
 * board's order, the rooms the member may see), the room groups for the filter, the out-of-order
 * ranges, and each day's figures counted in SQL over all those rooms. `timelineBars`: the stays
 * overlapping the window in one block of rooms (the rows on screen), so that its cost depends on the
 * block, not on the hotel.
 */

interface RoomRow {
  id: number;
  name: string;
  groupId: number | null;
  groupName: string | null;
  maintenance: 'none' | 'out_of_order' | 'out_of_service';
}

/** A bar as the bars statement sends it (BAR_COLUMNS, in order). */
type BarTuple = [
  id: number,
  roomId: number,
  status: string,
  movedFromStayId: number | null,
  startMs: number,
  endMs: number,
  startDate: string,
  endDate: string,
  guestName: string | null,
  channel: string | null,
  owing: boolean,
  codeState: 'on_lock' | 'pending' | 'failed' | null,
];

/** Rooms of the actor's scope (and of one group), in the room board's order. */
function roomsSql(actor: Actor, groupId: number | undefined): Prisma.Sql {
  return Prisma.sql`
    SELECT r."id", r."name", r."groupId", r."groupName", r."maintenance"::text AS "maintenance"
    FROM "Room" r
    WHERE ${roomScopeSql(actor)}${groupId === undefined ? Prisma.empty : Prisma.sql` AND r."groupId" = ${groupId}`}
    ORDER BY r."groupSort" NULLS LAST, r."groupName" NULLS LAST, r."sortOrder", r."name", r."id"`;
}

/** The room groups that hold a room of the actor's scope. */
function groupsSql(actor: Actor): Prisma.Sql {
  return Prisma.sql`
    SELECT g."id", g."name" FROM "RoomGroup" g
    WHERE g."hotelId" = ${actor.hotelId}
      AND EXISTS (SELECT 1 FROM "Room" r WHERE r."groupId" = g."id" AND ${roomScopeSql(actor)})
    ORDER BY g."sort", g."name", g."id"`;
}

/**
 * The stays overlapping [start, end) in `rooms` (a filter on the room `r`), as the bars and the
 * header read them: the active stays (reserved, in house, overdue: an overdue stay runs to now at
 * least), and the stays that left after the window's start (checked out, or moved on to another
 * room after they began; a reservation moved before it began is the new stay's alone). Cancelled
 * reservations and no-shows are not read. `byRoom`: the block's form, one index range per room
 * (`(hotelId, roomId, checkInAt)`); otherwise the two parts that each have their hotel-wide index.
 */
function staysSql(actor: Actor, start: Date, end: Date, now: Date, rooms: Prisma.Sql, roomIds?: Prisma.Sql): Prisma.Sql {
  const h = actor.hotelId;
  const endAt = (alias: string) =>
    Prisma.sql`CASE WHEN ${Prisma.raw(alias)}."status" = 'expired' THEN greatest(${Prisma.raw(alias)}."expectedCheckOutAt", ${now}) WHEN ${Prisma.raw(alias)}."status" IN ('checked_out', 'moved') THEN ${Prisma.raw(alias)}."checkedOutAt" ELSE ${Prisma.raw(alias)}."expectedCheckOutAt" END`;
  const source =
    roomIds !== undefined
      ? Prisma.sql`
      SELECT a."id", a."roomId", a."status"::text AS "status", a."movedFromStayId", a."visitStayId", a."checkInAt", ${endAt('a')} AS "endAt"
      FROM "Stay" a
      WHERE a."hotelId" = ${h} AND a."roomId" = ANY(${roomIds}) AND a."checkInAt" < ${end}
        AND ((a."status" IN ('reserved', 'in_house', 'expired') AND (a."expectedCheckOutAt" > ${start} OR (a."status" = 'expired' AND ${now}::timestamptz > ${start})))
          OR (a."status" IN ('checked_out', 'moved') AND a."checkedOutAt" > ${start}))`
      : Prisma.sql`
      SELECT a."id", a."roomId", a."status"::text AS "status", a."movedFromStayId", a."visitStayId", a."checkInAt", ${endAt('a')} AS "endAt"
      FROM "Stay" a
      WHERE a."hotelId" = ${h} AND a."status" IN ('reserved', 'in_house', 'expired') AND a."checkInAt" < ${end}
        AND (a."expectedCheckOutAt" > ${start} OR (a."status" = 'expired' AND ${now}::timestamptz > ${start}))
      UNION ALL
      SELECT l."id", l."roomId", l."status"::text, l."movedFromStayId", l."visitStayId", l."checkInAt", l."checkedOutAt"
      FROM "Stay" l
      WHERE l."hotelId" = ${h} AND l."checkedOutAt" > ${start} AND l."status" IN ('checked_out', 'moved') AND l."checkInAt" < ${end}`;
  return Prisma.sql`
    SELECT s.*, r."maintenance" = 'none' AS "sellable" FROM (${source}) s
    JOIN "Room" r ON r."id" = s."roomId"
    WHERE ${roomScopeSql(actor)}${rooms}`;
}

/** The bars of a block of rooms (those of the actor's scope among `roomIds`, an int[] expression), as one JSON array of `BarTuple`s. */
function barsSql(actor: Actor, start: Date, end: Date, now: Date, roomIds: Prisma.Sql): Prisma.Sql {
  const h = actor.hotelId;
  const tz = actor.timeZone;
  const credentials = (table: string, alias: string) =>
    Prisma.sql`SELECT ${Prisma.raw(`${alias}."deliveryState"::text`)} AS st FROM ${Prisma.raw(`"${table}" ${alias}`)}
      WHERE ${Prisma.raw(`${alias}."hotelId"`)} = ${h} AND ${Prisma.raw(`${alias}."stayId"`)} = s."id" AND ${Prisma.raw(`${alias}."revokeReason"`)} IS NULL
        AND ${Prisma.raw(`${alias}."doorLockId"`)} IS NULL AND ${Prisma.raw(`${alias}."deliveryState"`)} IN ('pending', 'on_lock', 'failed', 'unknown')`;
  // One row: the bars as a JSON array of arrays (`BarTuple`), read with one JSON.parse rather
  // than thousands of rows decoded column by column; instants as epoch milliseconds.
  return Prisma.sql`
    SELECT coalesce(json_agg(json_build_array(
      s."id", s."roomId", s."status", s."movedFromStayId",
      floor(extract(epoch FROM s."checkInAt") * 1000)::int8, floor(extract(epoch FROM s."endAt") * 1000)::int8,
      to_char(s."checkInAt" AT TIME ZONE ${tz}, 'YYYY-MM-DD'),
      to_char(s."endAt" AT TIME ZONE ${tz}, 'YYYY-MM-DD'),
      (SELECT g."name" FROM "StayGuest" g WHERE g."hotelId" = ${h} AND g."stayId" = s."id" ORDER BY g."isPrimary" DESC, g."id" LIMIT 1),
      (SELECT f."label" FROM "CalendarFeedBooking" b JOIN "CalendarFeed" f ON f."id" = b."feedId" WHERE b."stayId" = s."id" LIMIT 1),
      (s."status" IN ('checked_out', 'moved') AND EXISTS (
        SELECT 1 FROM "Folio" fo WHERE fo."hotelId" = ${h} AND fo."stayId" = s."visitStayId" AND fo."owedAt" IS NOT NULL AND fo."settledAt" IS NULL)),
      CASE WHEN s."status" IN ('reserved', 'in_house', 'expired') THEN (
        SELECT CASE WHEN bool_or(c.st = 'failed') THEN 'failed' WHEN bool_or(c.st IN ('pending', 'unknown')) THEN 'pending' WHEN count(*) > 0 THEN 'on_lock' END
        FROM (${credentials('LockPassword', 'p')} UNION ALL ${credentials('FaceAuthorization', 'fa')} UNION ALL ${credentials('CardGrant', 'cg')}) c)
      END) ORDER BY s."roomId", s."checkInAt", s."id"), '[]')::text AS "bars"
    FROM (${staysSql(actor, start, end, now, Prisma.sql` AND r."id" = ANY(${roomIds})`, roomIds)}) s`;
}

/**
 * Each day's figures over the rooms of the actor's scope (and of one group), whatever block is on
 * screen, counted in SQL without reading a bar's guest, channel or codes: the rooms that can be
 * sold that night (not out of order by the room's axis or by a range that day), those of them a
 * stay covers over the night (the day's closing midnight in the hotel's zone: the stay's first
 * night is its check-in's day, its last the day before the day of the moment before it ends), and
 * the arrivals (a stay that begins its guest's visit: not a room change, but a reservation moved to
 * another room before its guest came is one) and departures (not a stay that moved on) by day in the
 * hotel's zone.
 */
/** Whether a stay begins its guest's visit (stays/visit-start.ts). */
const beginsVisit = (alias: string) => Prisma.raw(beginsVisitSql(alias));

function headerSql(actor: Actor, w: { from: string; to: string; start: Date; end: Date; now: Date; groupId: number | undefined }): Prisma.Sql {
  const tz = actor.timeZone;
  const group = w.groupId === undefined ? Prisma.empty : Prisma.sql` AND r."groupId" = ${w.groupId}`;
  return Prisma.sql`
    WITH st AS MATERIALIZED (${staysSql(actor, w.start, w.end, w.now, group)}),
    ooo AS MATERIALIZED (
      SELECT o."roomId", o."startDate", o."endDate" FROM "RoomOutOfOrder" o JOIN "Room" r ON r."id" = o."roomId"
      WHERE o."hotelId" = ${actor.hotelId} AND o."startDate" < ${w.to}::date AND o."endDate" >= ${w.from}::date AND r."maintenance" = 'none' AND ${roomScopeSql(actor)}${group}),
    days AS (SELECT d::date AS "day" FROM generate_series(${w.from}::date::timestamp, (${w.to}::date - 1)::timestamp, interval '1 day') d),
    nights AS (
      SELECT n::date AS "day", st."roomId" FROM st
      CROSS JOIN LATERAL generate_series(
        greatest((st."checkInAt" AT TIME ZONE ${tz})::date, ${w.from}::date)::timestamp,
        least(((st."endAt" - interval '1 microsecond') AT TIME ZONE ${tz})::date - 1, ${w.to}::date - 1)::timestamp, interval '1 day') n
      WHERE st."sellable"),
    occupied AS (
      SELECT n."day", count(DISTINCT n."roomId")::int AS "n" FROM nights n
      WHERE NOT EXISTS (SELECT 1 FROM ooo o WHERE o."roomId" = n."roomId" AND o."startDate" <= n."day" AND o."endDate" >= n."day")
      GROUP BY n."day"),
    arrivals AS (SELECT (st."checkInAt" AT TIME ZONE ${tz})::date AS "day", count(*)::int AS "n" FROM st WHERE ${beginsVisit('st')} GROUP BY 1),
    departures AS (SELECT (st."endAt" AT TIME ZONE ${tz})::date AS "day", count(*)::int AS "n" FROM st WHERE st."status" <> 'moved' GROUP BY 1),
    sellable AS (SELECT count(*)::int AS "n" FROM "Room" r WHERE ${roomScopeSql(actor)}${group} AND r."maintenance" = 'none')
    SELECT to_char(d."day", 'YYYY-MM-DD') AS "date",
           (SELECT "n" FROM sellable) - (SELECT count(DISTINCT o."roomId") FROM ooo o WHERE o."startDate" <= d."day" AND o."endDate" >= d."day")::int AS "sellable",
           coalesce(oc."n", 0) AS "occupied", coalesce(a."n", 0) AS "arrivals", coalesce(dp."n", 0) AS "departures"
    FROM days d
    LEFT JOIN occupied oc ON oc."day" = d."day"
    LEFT JOIN arrivals a ON a."day" = d."day"
    LEFT JOIN departures dp ON dp."day" = d."day"
    ORDER BY d."day"`;
}

/** The window's statements (what `timelineWindow` sends side by side; bench/timeline.ts sends them alone). */
export function windowStatements(actor: Actor, w: { from: string; to: string; start: Date; end: Date; now: Date; groupId: number | undefined }) {
  // The first block's rooms: the grid opens on them, so their bars come with the window (one request to the first paint).
  const firstBlock = Prisma.sql`ARRAY(SELECT b."id" FROM (${roomsSql(actor, w.groupId)} LIMIT ${TIMELINE_BLOCK}) b)`;
  return {
    rooms: roomsSql(actor, w.groupId),
    groups: groupsSql(actor),
    header: headerSql(actor, w),
    outOfOrder: outOfOrderSql(actor, w.from, w.to),
    bars: barsSql(actor, w.start, w.end, w.now, firstBlock),
  };
}

/** The statement of `timelineBars` (bench/timeline.ts sends it alone). */
export function barsStatement(actor: Actor, w: { start: Date; end: Date; now: Date; roomIds: number[] }) {
  return barsSql(actor, w.start, w.end, w.now, Prisma.sql`${w.roomIds}::int[]`);
}

/** The rooms' out-of-order ranges overlapping the window (docs/housekeeping.md). */
function outOfOrderSql(actor: Actor, from: string, to: string): Prisma.Sql {
  return Prisma.sql`
      SELECT o."roomId", o."kind"::text AS "kind", o."startDate"::text AS "startDate", o."endDate"::text AS "endDate", o."reason"
      FROM "RoomOutOfOrder" o JOIN "Room" r ON r."id" = o."roomId"
      WHERE o."hotelId" = ${actor.hotelId} AND o."startDate" < ${to}::date AND o."endDate" >= ${from}::date AND ${roomScopeSql(actor)}
      ORDER BY o."roomId", o."startDate"`;
}

function barState(status: string, owing: boolean): TTimelineBarState {
  if (status === 'reserved') return 'reserved';
  if (status === 'in_house' || status === 'expired') return 'in_house';
  return owing ? 'owing' : 'checked_out';
}

function windowBounds(tz: string, from: string, days: number) {
  const to = addDays(from, days);
  return { to, start: zonedToInstant(`${from}T00:00`, tz)!, end: zonedToInstant(`${to}T00:00`, tz)! };
}

/**
 * One window of the timeline: the rooms grouped (every room of the member's scope, in the board's
 * order: the grid's rows), the groups for the filter, the out-of-order ranges, and each day's rooms
 * free, occupancy, arrivals and departures over all those rooms; and the bars of the first block of
 * rooms (TIMELINE_BLOCK), on which the grid opens. `timelineBars` reads the other blocks' bars.
 */
export async function timelineWindow(ctx: AuthedContext, raw: TTimelineWindowInput): Promise<TTimelineWindow> {
  const { actor, deps } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZTimelineWindowInput.parse(raw);
  const tz = actor.timeZone;
  const days = input.days;
  const { to, start, end } = windowBounds(tz, input.from, days);
  const now = new Date();
  const statements = windowStatements(actor, { from: input.from, to, start, end, now, groupId: input.groupId });
  const [rooms, roomGroups, header, ranges, barsJson] = await Promise.all([
    deps.prisma.$queryRaw<RoomRow[]>(statements.rooms),
    deps.prisma.$queryRaw<{ id: number; name: string }[]>(statements.groups),
    deps.prisma.$queryRaw<{ date: string; sellable: number; occupied: number; arrivals: number; departures: number }[]>(statements.header),
    deps.prisma.$queryRaw<{ roomId: number; kind: 'out_of_order' | 'out_of_service'; startDate: string; endDate: string; reason: string }[]>(
      statements.outOfOrder,
    ),
    deps.prisma.$queryRaw<{ bars: string }[]>(statements.bars),
  ]);
  // Another hotel's group, or one with none of the member's rooms, is not found.
  if (input.groupId !== undefined && !roomGroups.some((g) => g.id === input.groupId))
    throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });

  const groups: TTimelineWindow['groups'] = [];
  for (const r of rooms) {
    let last = groups[groups.length - 1];
    if (!last || last.id !== r.groupId) {
      last = { id: r.groupId, name: r.groupName, rooms: [] };
      groups.push(last);
    }
    last.rooms.push({ id: r.id, name: r.name, maintenance: r.maintenance });
  }

  return {
    from: input.from,
    to,
    days,
    timeZone: tz,
    today: localDate(now, tz),
    groups,
    roomGroups,
    outOfOrder: ranges,
    bars: toBars(barsJson),
    header: header.map((d) => ({
      date: d.date,
      free: d.sellable - d.occupied,
      occupancy: d.sellable <= 0 ? 0 : Math.round((d.occupied / d.sellable) * 100),
      arrivals: d.arrivals,
      departures: d.departures,
    })),
  };
}

/**
 * The bars of one block of the window's rooms (the rows on screen and the next ones): the stays
 * overlapping the window in those of `roomIds` the member may see. A room of another hotel, or
 * outside the member's rooms, gives no bar (its id says nothing: no error either).
 */
export async function timelineBars(ctx: AuthedContext, raw: TTimelineBarsInput): Promise<TTimelineBars> {
  const { actor, deps } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZTimelineBarsInput.parse(raw);
  const { start, end } = windowBounds(actor.timeZone, input.from, input.days);
  const [row] = await deps.prisma.$queryRaw<{ bars: string }[]>(barsStatement(actor, { start, end, now: new Date(), roomIds: [...new Set(input.roomIds)] }));
  return { from: input.from, days: input.days, bars: toBars([row]) };
}

function toBars(result: ({ bars: string } | undefined)[]): TTimelineBars['bars'] {
  const rows = JSON.parse(result[0]?.bars ?? '[]') as BarTuple[];
  return rows.map(([stayId, roomId, status, , startMs, endMs, startDate, endDate, guestName, channel, owing, codeState]) => ({
    stayId,
    roomId,
    startAt: new Date(startMs).toISOString(),
    endAt: new Date(endMs).toISOString(),
    startDate,
    endDate,
    state: barState(status, owing),
    isActive: status === 'reserved' || status === 'in_house' || status === 'expired',
    guestName,
    channel,
    codeState,
  }));
}
