import {
  ZTimelineWindowInput,
  addDays,
  localDate,
  zonedToInstant,
  type TTimelineBarState,
  type TTimelineWindow,
  type TTimelineWindowInput,
} from '@console/shared';
import { Prisma } from '../../generated/prisma/client';
import type { Actor, AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { roomScopeSql } from '../base/room-access';

/**
 * The timeline (issue 28 §1, docs/timeline.md): one visible window of the hotel's rooms and days.
 * Three statements, run side by side: the rooms of the window (the board's order, the rooms the
 * member may see), the room groups for the filter, and the stays overlapping the window as bars.
 * The header's figures per day are counted from those bars, so a figure and the bars agree.
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
 * The stays overlapping [start, end) in rooms of the actor's scope, in two parts that each have
 * their index: the active stays (reserved, in house, overdue: an overdue stay runs to now at
 * least), and the stays that left after the window's start (checked out, or moved on to another
 * room after they began; a reservation moved before it began is the new stay's alone). Cancelled
 * reservations and no-shows are not read.
 */
function barsSql(actor: Actor, start: Date, end: Date, now: Date, groupId: number | undefined): Prisma.Sql {
  const h = actor.hotelId;
  const tz = actor.timeZone;
  const credentials = (table: string, alias: string) =>
    Prisma.sql`SELECT ${Prisma.raw(`${alias}."deliveryState"::text`)} AS st FROM ${Prisma.raw(`"${table}" ${alias}`)}
      WHERE ${Prisma.raw(`${alias}."hotelId"`)} = ${h} AND ${Prisma.raw(`${alias}."stayId"`)} = s."id" AND ${Prisma.raw(`${alias}."revokeReason"`)} IS NULL
        AND ${Prisma.raw(`${alias}."doorLockId"`)} IS NULL AND ${Prisma.raw(`${alias}."deliveryState"`)} IN ('pending', 'on_lock', 'failed', 'unknown')`;
  // One row: the bars as a JSON array of arrays (`BarTuple`), read with one JSON.parse rather
  // than 20,000 rows decoded column by column; instants as epoch milliseconds.
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
      END)), '[]')::text AS "bars"
    FROM (
      SELECT a."id", a."roomId", a."status"::text AS "status", a."movedFromStayId", a."visitStayId", a."checkInAt",
             CASE WHEN a."status" = 'expired' THEN greatest(a."expectedCheckOutAt", ${now}) ELSE a."expectedCheckOutAt" END AS "endAt"
      FROM "Stay" a
      WHERE a."hotelId" = ${h} AND a."status" IN ('reserved', 'in_house', 'expired') AND a."checkInAt" < ${end}
        AND (a."expectedCheckOutAt" > ${start} OR (a."status" = 'expired' AND ${now}::timestamptz > ${start}))
      UNION ALL
      SELECT l."id", l."roomId", l."status"::text, l."movedFromStayId", l."visitStayId", l."checkInAt", l."checkedOutAt"
      FROM "Stay" l
      WHERE l."hotelId" = ${h} AND l."checkedOutAt" > ${start} AND l."status" IN ('checked_out', 'moved') AND l."checkInAt" < ${end}
    ) s
    JOIN "Room" r ON r."id" = s."roomId"
    WHERE ${roomScopeSql(actor)}${groupId === undefined ? Prisma.empty : Prisma.sql` AND r."groupId" = ${groupId}`}`;
}

/** The window's three statements (what `timelineWindow` sends side by side; bench/timeline.ts sends them alone). */
export function windowStatements(actor: Actor, w: { start: Date; end: Date; now: Date; groupId: number | undefined }) {
  return { rooms: roomsSql(actor, w.groupId), groups: groupsSql(actor), bars: barsSql(actor, w.start, w.end, w.now, w.groupId) };
}

function barState(status: string, owing: boolean): TTimelineBarState {
  if (status === 'reserved') return 'reserved';
  if (status === 'in_house' || status === 'expired') return 'in_house';
  return owing ? 'owing' : 'checked_out';
}

/** One window of the timeline: rooms grouped, bars, and each day's rooms free, occupancy, arrivals and departures. */
export async function timelineWindow(ctx: AuthedContext, raw: TTimelineWindowInput): Promise<TTimelineWindow> {
  const { actor, deps } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZTimelineWindowInput.parse(raw);
  const tz = actor.timeZone;
  const days = input.days;
  const to = addDays(input.from, days);
  const start = zonedToInstant(`${input.from}T00:00`, tz)!;
  const end = zonedToInstant(`${to}T00:00`, tz)!;
  const now = new Date();
  const statements = windowStatements(actor, { start, end, now, groupId: input.groupId });
  const [rooms, roomGroups, barsJson, ranges] = await Promise.all([
    deps.prisma.$queryRaw<RoomRow[]>(statements.rooms),
    deps.prisma.$queryRaw<{ id: number; name: string }[]>(statements.groups),
    deps.prisma.$queryRaw<{ bars: string }[]>(statements.bars),
    // The rooms' out-of-order ranges overlapping the window (docs/housekeeping.md).
    deps.prisma.$queryRaw<{ roomId: number; kind: 'out_of_order' | 'out_of_service'; startDate: string; endDate: string; reason: string }[]>`
      SELECT o."roomId", o."kind"::text AS "kind", o."startDate"::text AS "startDate", o."endDate"::text AS "endDate", o."reason"
      FROM "RoomOutOfOrder" o JOIN "Room" r ON r."id" = o."roomId"
      WHERE o."hotelId" = ${actor.hotelId} AND o."startDate" < ${to}::date AND o."endDate" >= ${input.from}::date AND ${roomScopeSql(actor)}
      ORDER BY o."roomId", o."startDate"`,
  ]);
  const rows = JSON.parse(barsJson[0]?.bars ?? '[]') as BarTuple[];
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

  // Each day's night ends at the next day's midnight in the hotel's zone: a room is sold that night
  // when a bar covers that moment.
  const dates = Array.from({ length: days }, (_, i) => addDays(input.from, i));
  const nightEnds = dates.map((d) => zonedToInstant(`${addDays(d, 1)}T00:00`, tz)!.getTime());
  const dayIndex = new Map(dates.map((d, i) => [d, i]));
  const sellable = new Set(rooms.filter((r) => r.maintenance === 'none').map((r) => r.id));
  const sold = dates.map(() => new Set<number>());
  const arrivals = dates.map(() => 0);
  const departures = dates.map(() => 0);
  for (const [, roomId, status, movedFromStayId, s, e, startDate, endDate] of rows) {
    for (let i = 0; i < days; i++) if (s < nightEnds[i]! && e > nightEnds[i]!) sold[i]!.add(roomId);
    const a = dayIndex.get(startDate);
    // A stay that continues one moved from another room is not an arrival; the moved one's end is not a departure.
    if (a !== undefined && movedFromStayId === null) arrivals[a]! += 1;
    const d = dayIndex.get(endDate);
    if (d !== undefined && status !== 'moved') departures[d]! += 1;
  }
  const header = dates.map((date, i) => {
    // A room out of order that day by a range cannot be sold that night either.
    const sellableToday = new Set([...sellable].filter((id) => !ranges.some((o) => o.roomId === id && o.startDate <= date && o.endDate >= date)));
    const occupied = [...sold[i]!].filter((id) => sellableToday.has(id)).length;
    return {
      date,
      free: sellableToday.size - occupied,
      occupancy: sellableToday.size === 0 ? 0 : Math.round((occupied / sellableToday.size) * 100),
      arrivals: arrivals[i]!,
      departures: departures[i]!,
    };
  });

  return {
    from: input.from,
    to,
    days,
    timeZone: tz,
    today: localDate(now, tz),
    groups,
    roomGroups,
    outOfOrder: ranges,
    bars: rows.map(([stayId, roomId, status, , startMs, endMs, startDate, endDate, guestName, channel, owing, codeState]) => ({
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
    })),
    header,
  };
}
