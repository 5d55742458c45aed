import {
  PAYMENT_METHODS,
  ZDayReportInput,
  ZReportRangeInput,
  addDays,
  localDate,
  zonedToInstant,
  type TOrderEntryKind,
  type TPaymentMethod,
} from '@console/shared';
import type { TCashLine, TDayFigures, TDayReport, TReportRange } from '@console/shared/dto';
import type { z } from 'zod';
import type { Actor, AuthedContext, ServiceContext } from '../../context';
import type { TPrisma } from '../../db/client';
import { recordEvent } from '../../db/events';
import { lockLedgerDay } from '../../db/ledger-day-lock';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { addTo, emptyLine, hotelDay } from '../orders/cash-lines';

/**
 * The manager's day (issue 26 §2, docs/reports.md): a hotel calendar day's figures, computed from
 * the stays and the ledger; the day close that freezes them once the day is over (a closed day is
 * never changed: a correction made later lands on the day it is made); a range of days summed.
 * Hotel-wide, so for managers of every room (`order.manage` and all rooms).
 */

type Db = TPrisma | Tx;

/** Statuses of a stay that had its guest in the room (a cancelled reservation and a no-show never did). */
const STAYED = `s."status" IN ('in_house', 'expired', 'checked_out') OR (s."status" = 'moved' AND s."checkedOutAt" IS NOT NULL)`;
/** When a stay that had its guest left (or leaves) the room. */
const LEFT_AT = `CASE WHEN s."status" IN ('checked_out', 'moved') THEN s."checkedOutAt" WHEN s."status" = 'expired' THEN greatest(s."expectedCheckOutAt", now()) ELSE s."expectedCheckOutAt" END`;

function requireManager(actor: Actor) {
  requirePermission(actor, 'order.manage');
  // Hotel-wide figures: not for a member limited to some rooms.
  if (!actor.allRooms) throw new AppError('FORBIDDEN');
}

const n = (v: bigint | number | null | undefined) => Number(v ?? 0);

/** A statement as it is sent: its text and its values ($1, $2...). */
export interface FigureStatement {
  text: string;
  values: unknown[];
}

/**
 * The statements of the figures of consecutive days, day i being [bounds[i-1], bounds[i]), as
 * `rangeFigures` sends them (the benchmark sends the same ones alone: bench/reports.ts), one statement
 * each for all the days: the rooms; the stays; the ledger's entries by day, kind, way of paying and,
 * for a correction, the kind it corrects (revenue and money by way of paying). Each row names its day
 * (`i`, from 1).
 */
export function figuresSql(hotelId: number, bounds: Date[]) {
  const starts = bounds.slice(0, -1);
  const ends = bounds.slice(1);
  const from = bounds[0]!;
  const to = bounds[bounds.length - 1]!;
  return {
    // The rooms grouped by the day they were made and the day they were deleted (a few groups however
    // many rooms), each group counted for the days between: a room counts on day i when it was made
    // before the day's end and not deleted before it.
    rooms: {
      text: `SELECT d.i, coalesce(sum(r.n), 0)::bigint AS total, coalesce(sum(r.out_of_order), 0)::bigint AS out_of_order
     FROM unnest($2::timestamptz[]) WITH ORDINALITY AS d(t, i)
     LEFT JOIN (SELECT width_bucket(r."createdAt", $2::timestamptz[]) AS made,
                       CASE WHEN r."deletedAt" IS NOT NULL THEN width_bucket(r."deletedAt", $2::timestamptz[]) END AS gone,
                       count(*) AS n, count(*) FILTER (WHERE r."maintenance" <> 'none') AS out_of_order
                  FROM "Room" r WHERE r."hotelId" = $1 GROUP BY 1, 2) r ON d.i > r.made AND (r.gone IS NULL OR d.i <= r.gone)
    GROUP BY d.i`,
      values: [hotelId, ends],
    },
    // The stays with a guest in a room at a day's end (the night), read once for the whole span in
    // two parts each by its own index (those that left, by the range of their nights, Stay_night_idx;
    // those still in, among the active stays), each counted for the days whose end falls strictly
    // inside its time in the room: from the first end after its check-in to the last end before it
    // left (width_bucket counts the ends at or before a time). And, for the whole span at once, the
    // arrivals by check-in and the departures, no-shows and cancellations by when they happened (a
    // reservation cancelled today for next week is today's), each put in its day.
    stays: {
      text: `SELECT d.i, coalesce(n.sold, 0) AS sold, coalesce(n.stay_overs, 0) AS stay_overs, coalesce(a.arrivals, 0) AS arrivals,
            coalesce(o.departures, 0) AS departures, coalesce(o.no_shows, 0) AS no_shows, coalesce(o.cancellations, 0) AS cancellations
     FROM unnest($2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS d(f, t, i)
     LEFT JOIN (
       SELECT x.i, count(DISTINCT x."roomId") AS sold,
              count(DISTINCT x."roomId") FILTER (WHERE NOT (x."checkInAt" >= ($2::timestamptz[])[x.i] AND x."visitStayId" = x."id")) AS stay_overs
         FROM (SELECT s."roomId", s."checkInAt", s."visitStayId", s."id",
                      generate_series(width_bucket(s."checkInAt", $3::timestamptz[]) + 1,
                                      width_bucket(s.left_at, $3::timestamptz[]) - (s.left_at = ANY($3::timestamptz[]))::int) AS i
                 FROM (SELECT s."roomId", s."checkInAt", s."visitStayId", s."id", s."checkedOutAt" AS left_at FROM "Stay" s
                        WHERE s."hotelId" = $1 AND s."status" IN ('checked_out', 'moved') AND s."checkedOutAt" IS NOT NULL
                          AND tstzrange(s."checkInAt", greatest(s."checkInAt", s."checkedOutAt"), '()') && tstzrange($6, $7, '[]')
                       UNION ALL
                       SELECT s."roomId", s."checkInAt", s."visitStayId", s."id", ${LEFT_AT} FROM "Stay" s
                        WHERE s."hotelId" = $1 AND s."status" IN ('in_house', 'expired') AND s."checkInAt" < $7 AND ${LEFT_AT} > $6) s) x
        GROUP BY x.i) n ON n.i = d.i
     LEFT JOIN (SELECT width_bucket(s."checkInAt", $2::timestamptz[]) AS i, count(*) AS arrivals FROM "Stay" s
                 WHERE s."hotelId" = $1 AND s."checkInAt" >= $4 AND s."checkInAt" < $5 AND (${STAYED}) AND s."visitStayId" = s."id"
                 GROUP BY 1) a ON a.i = d.i
     LEFT JOIN (SELECT width_bucket(s."checkedOutAt", $2::timestamptz[]) AS i,
                       count(*) FILTER (WHERE s."status" = 'checked_out') AS departures,
                       count(*) FILTER (WHERE s."status" = 'no_show') AS no_shows,
                       count(*) FILTER (WHERE s."status" = 'ended') AS cancellations
                  FROM "Stay" s WHERE s."hotelId" = $1 AND s."checkedOutAt" >= $4 AND s."checkedOutAt" < $5
                 GROUP BY 1) o ON o.i = d.i`,
      values: [hotelId, starts, ends, from, to, ends[0]!, to],
    },
    // The day's entries summed by kind and way of paying (a correction by the entry it corrects,
    // whose kind is read once a group after the sums: a few thousand rows of a month, not each entry).
    entries: {
      text: `SELECT g.i, g."kind"::text AS kind, g."method"::text AS method,
            CASE WHEN g.link IS NOT NULL THEN (SELECT l."kind"::text FROM "OrderEntry" l WHERE l."hotelId" = $1 AND l."id" = g.link) END AS corrects,
            g.amount::bigint AS amount, g.count
       FROM (SELECT width_bucket(e."createdAt", $2::timestamptz[]) AS i, e."kind", e."method",
                    CASE WHEN e."kind" = 'correction' THEN e."linkedEntryId" END AS link, sum(e."amount") AS amount, count(*) AS count
               FROM "OrderEntry" e WHERE e."hotelId" = $1 AND e."createdAt" >= $3 AND e."createdAt" < $4
              GROUP BY 1, 2, 3, 4) g`,
      values: [hotelId, starts, from, to],
    },
  } satisfies Record<string, FigureStatement>;
}

/** The statements of one day's figures, [from, to) (`figuresSql` of one day). */
export function dayFiguresSql(hotelId: number, from: Date, to: Date) {
  return figuresSql(hotelId, [from, to]);
}

/**
 * The statement of what a hotel stands at now, whatever the day: the bills left owing (how many, what
 * they owe) and the deposits held on bills not settled. The same for every open day of a range, so a
 * range counts it once.
 */
export function standingSql(hotelId: number) {
  return {
    // One pass over the entries of the bills not settled (Folio_hotelId_open_idx: the guests in house
    // and the bills left owing, a few thousand of millions). Owing: a bill left owing that still owes.
    // Held: each deposit's "OrderEntry_refundable" (nothing once corrected, else its amount less its
    // refunds not themselves corrected), counted over the same entries: a refund or a correction is on
    // the bill of the entry it names (the ledger's rule OrderEntry_link_same_account).
    standing: {
      text: `WITH e AS MATERIALIZED (
      SELECT f."id" AS folio, f."owedAt" IS NOT NULL AS owing, e."id", e."kind", e."amount", e."linkedEntryId" AS link
      FROM "Folio" f JOIN "OrderEntry" e ON e."hotelId" = f."hotelId" AND e."folioId" = f."id"
      WHERE f."hotelId" = $1 AND f."settledAt" IS NULL
    ), corrected AS (SELECT DISTINCT e.link AS id FROM e WHERE e."kind" = 'correction'),
    owed AS (SELECT sum(e."amount") AS balance FROM e WHERE e.owing GROUP BY e.folio)
    SELECT (SELECT count(*) FROM owed WHERE owed.balance < 0) AS owing_count,
           (SELECT coalesce(sum(-owed.balance), 0)::bigint FROM owed WHERE owed.balance < 0) AS owing_total,
           (SELECT coalesce(sum(d."amount" + coalesce(r.refunded, 0)), 0)::bigint FROM e d
              LEFT JOIN (SELECT r.link, sum(r."amount") AS refunded FROM e r
                          WHERE r."kind" = 'refund' AND NOT EXISTS (SELECT 1 FROM corrected c WHERE c.id = r."id") GROUP BY r.link) r ON r.link = d."id"
             WHERE d."kind" = 'deposit' AND NOT EXISTS (SELECT 1 FROM corrected c WHERE c.id = d."id")) AS held`,
      values: [hotelId],
    },
  } satisfies Record<string, FigureStatement>;
}

const run = <T>(db: Db, q: FigureStatement) => db.$queryRawUnsafe<T[]>(q.text, ...q.values);

/** What the hotel stands at now: bills owing and deposits held (`standingSql`). */
export type Standing = Pick<TDayFigures, 'owing' | 'depositsHeld'>;

export async function standing(db: Db, hotelId: number): Promise<Standing> {
  const [row] = await run<{ owing_count: bigint; owing_total: bigint; held: bigint }>(db, standingSql(hotelId).standing);
  return { owing: { count: n(row?.owing_count), total: n(row?.owing_total) }, depositsHeld: n(row?.held) };
}

/**
 * The figures of [from, to): a room is sold for the day when a guest is in it at the day's end (the
 * night). `now`: what the hotel stands at (bills owing, deposits held), when the caller has it already.
 */
export async function dayFigures(db: Db, hotelId: number, from: Date, to: Date, now?: Promise<Standing>): Promise<TDayFigures> {
  return (await rangeFigures(db, hotelId, [from, to], now))[0]!;
}

/**
 * The figures of consecutive days, day i being [bounds[i-1], bounds[i]), in three statements however
 * many days (`figuresSql`), with what the hotel stands at counted once.
 */
export async function rangeFigures(db: Db, hotelId: number, bounds: Date[], now?: Promise<Standing>): Promise<TDayFigures[]> {
  const sql = figuresSql(hotelId, bounds);
  const [rooms, stays, entries, stands] = await Promise.all([
    run<{ i: bigint; total: bigint; out_of_order: bigint }>(db, sql.rooms),
    run<{ i: bigint; sold: bigint; stay_overs: bigint; arrivals: bigint; departures: bigint; no_shows: bigint; cancellations: bigint }>(db, sql.stays),
    run<{ i: number; kind: TOrderEntryKind; method: TPaymentMethod | null; corrects: TOrderEntryKind | null; amount: bigint; count: bigint }>(db, sql.entries),
    now ?? standing(db, hotelId),
  ]);
  const days = bounds.length - 1;
  const roomsOf = new Map(rooms.map((r) => [n(r.i), r]));
  const staysOf = new Map(stays.map((r) => [n(r.i), r]));
  const entriesOf = new Map<number, typeof entries>();
  for (const e of entries) entriesOf.set(n(e.i), [...(entriesOf.get(n(e.i)) ?? []), e]);
  return Array.from({ length: days }, (_, k) => {
    const i = k + 1;
    const room = roomsOf.get(i);
    const stay = staysOf.get(i);
    let roomCharges = 0;
    let charges = 0;
    const lines = new Map<TPaymentMethod, TCashLine>();
    for (const g of entriesOf.get(i) ?? []) {
      const amount = n(g.amount);
      const of = g.kind === 'correction' ? g.corrects : g.kind;
      if (of === 'room_charge') roomCharges -= amount;
      if (of === 'charge') charges -= amount;
      if (g.method === null) continue;
      const line = lines.get(g.method) ?? emptyLine(g.method);
      lines.set(g.method, line);
      addTo(line, g.kind, amount, n(g.count));
    }
    const methods = PAYMENT_METHODS.filter((m) => lines.has(m)).map((m) => lines.get(m)!);
    const total = n(room?.total);
    const outOfOrder = n(room?.out_of_order);
    return figuresOf({
      rooms: { total, outOfOrder, available: Math.max(0, total - outOfOrder), sold: n(stay?.sold) },
      arrivals: n(stay?.arrivals),
      departures: n(stay?.departures),
      stayOvers: n(stay?.stay_overs),
      noShows: n(stay?.no_shows),
      cancellations: n(stay?.cancellations),
      // Never -0 (nothing counted).
      roomCharges: roomCharges || 0,
      charges: charges || 0,
      methods,
      ...stands,
    });
  });
}

/** The derived figures (occupancy, ADR, RevPAR, received, refunded) of the counted ones. */
function figuresOf(c: {
  rooms: TDayFigures['rooms'];
  arrivals: number;
  departures: number;
  stayOvers: number;
  noShows: number;
  cancellations: number;
  roomCharges: number;
  charges: number;
  methods: TCashLine[];
  owing: TDayFigures['owing'];
  depositsHeld: number;
}): TDayFigures {
  // Money taken from a customer's balance came in with the recharge: not received again.
  const handed = c.methods.filter((l) => l.method !== 'balance');
  return {
    rooms: c.rooms,
    occupancy: c.rooms.available ? Math.round((c.rooms.sold * 1000) / c.rooms.available) / 10 : 0,
    adr: c.rooms.sold ? Math.round(c.roomCharges / c.rooms.sold) : 0,
    revpar: c.rooms.available ? Math.round(c.roomCharges / c.rooms.available) : 0,
    arrivals: c.arrivals,
    departures: c.departures,
    stayOvers: c.stayOvers,
    noShows: c.noShows,
    cancellations: c.cancellations,
    revenue: { roomCharges: c.roomCharges, charges: c.charges, total: c.roomCharges + c.charges },
    methods: c.methods,
    received: handed.reduce((s, l) => s + l.deposits + l.payments + l.recharges, 0),
    // Never -0 (a sum of nothing negated).
    refunded: 0 - handed.reduce((s, l) => s + l.refunds, 0) || 0,
    owing: c.owing,
    depositsHeld: c.depositsHeld,
  };
}

async function closerName(db: Db, id: number | null) {
  if (id === null) return null;
  const account = await db.account.findUnique({ where: { id }, select: { id: true, nickname: true } });
  return account ?? { id, nickname: '' };
}

async function reportOf(db: Db, actor: Actor, date: string): Promise<TDayReport> {
  const closed = await db.dayClose.findUnique({ where: { hotelId_date: { hotelId: actor.hotelId, date } } });
  const head = { date, timeZone: actor.timeZone, currency: actor.currency };
  if (closed) {
    return {
      ...(closed.report as unknown as TDayFigures),
      ...head,
      closed: true,
      closedAt: closed.closedAt.toISOString(),
      closedBy: await closerName(db, closed.closedByAccountId),
      closedAutomatically: closed.automatic,
    };
  }
  const { from, to } = hotelDay(date, actor.timeZone);
  return { ...(await dayFigures(db, actor.hotelId, from, to)), ...head, closed: false, closedAt: null, closedBy: null, closedAutomatically: false };
}

/** A day's report: frozen when the day is closed, else as the stays and the ledger say now. */
export async function dayReport(ctx: AuthedContext, raw: z.input<typeof ZDayReportInput>): Promise<TDayReport> {
  requireManager(ctx.actor);
  const { date } = ZDayReportInput.parse(raw);
  return reportOf(ctx.deps.prisma, ctx.actor, date);
}

/**
 * Closes a day that is over: its figures frozen, audited. Closed once: a second close, or two at
 * once, answers the same closed report. Every ledger entry waits for the close (the shared lock),
 * so an entry at the instant of the close is in the frozen figures or dated after the day.
 */
export async function closeDay(ctx: AuthedContext, raw: z.input<typeof ZDayReportInput>): Promise<TDayReport> {
  const { deps, actor } = ctx;
  requireManager(actor);
  const { date } = ZDayReportInput.parse(raw);
  if (new Date() < hotelDay(date, actor.timeZone).to) {
    throw new AppError('VALIDATION', { messageKey: 'reports.validation.dayNotOver', fields: { date: 'reports.validation.dayNotOver' } });
  }
  await freezeDay(ctx, { id: actor.hotelId, timeZone: actor.timeZone }, date, actor.accountId);
  return reportOf(deps.prisma, actor, date);
}

/** The close itself, by a manager (`accountId`) or by the hotel's set hour (null). Whether this call closed it. */
async function freezeDay(ctx: ServiceContext, hotel: { id: number; timeZone: string }, date: string, accountId: number | null): Promise<boolean> {
  const { from, to } = hotelDay(date, hotel.timeZone);
  return transaction(ctx.deps, async (tx) => {
    await lockLedgerDay(tx, hotel.id);
    if (await tx.dayClose.findUnique({ where: { hotelId_date: { hotelId: hotel.id, date } }, select: { id: true } })) return false;
    const figures = await dayFigures(tx, hotel.id, from, to);
    const row = await tx.dayClose.create({
      data: { hotelId: hotel.id, date, closedByAccountId: accountId, automatic: accountId === null, report: figures as object },
      select: { id: true },
    });
    await recordEvent(tx, { hotelId: hotel.id, kind: 'day.closed' });
    await recordAudit(tx, ctx, {
      hotelId: hotel.id,
      action: 'order.closeDay',
      entityType: 'DayClose',
      entityId: row.id,
      after: {
        date,
        automatic: accountId === null,
        roomsSold: figures.rooms.sold,
        revenue: figures.revenue.total,
        received: figures.received,
        refunded: figures.refunded,
      },
    });
    return true;
  });
}

/**
 * The day closed by itself (docs/reports.md): for each hotel with a `dayCloseTime`, once the hotel's
 * clock has passed that time today, the day before is closed if no manager closed it (run by the
 * install's stay sweep, after it released the no-shows due). Only the day before: a day left open
 * longer (the install was down) waits for a manager. Returns how many days it closed.
 */
export async function closeDaysOnTime(ctx: ServiceContext, now: Date, scope: { hotelId?: number } = {}): Promise<number> {
  const hotels = await ctx.deps.prisma.hotel.findMany({
    where: { dayCloseTime: { not: null }, ...(scope.hotelId === undefined ? {} : { id: scope.hotelId }) },
    select: { id: true, timeZone: true, dayCloseTime: true },
  });
  let closed = 0;
  for (const hotel of hotels) {
    const today = localDate(now, hotel.timeZone);
    const due = zonedToInstant(`${today}T${hotel.dayCloseTime}`, hotel.timeZone);
    if (!due || now < due) continue;
    if (await freezeDay(ctx, hotel, addDays(today, -1), null)) closed += 1;
  }
  return closed;
}

/** The days of a range (a week, a month) and their sums: room-nights, revenue and money summed; owing and deposits as of the last day. */
export async function reportRange(ctx: AuthedContext, raw: z.input<typeof ZReportRangeInput>): Promise<TReportRange> {
  requireManager(ctx.actor);
  const { from, to } = ZReportRangeInput.parse(raw);
  const { prisma } = ctx.deps;
  const { hotelId, timeZone, currency } = ctx.actor;
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  // The closed days' frozen rows and their closers at once; the open days' figures in three statements
  // for all of them (`rangeFigures`, over the span from the first open day to the last).
  const closedRows = await prisma.dayClose.findMany({ where: { hotelId, date: { in: dates } } });
  const closedOn = new Map(closedRows.map((c) => [c.date, c]));
  const closerIds = [...new Set(closedRows.flatMap((c) => (c.closedByAccountId === null ? [] : [c.closedByAccountId])))];
  const closers = new Map(
    (closerIds.length ? await prisma.account.findMany({ where: { id: { in: closerIds } }, select: { id: true, nickname: true } }) : []).map((a) => [a.id, a]),
  );
  const open = dates.filter((d) => !closedOn.has(d));
  const openFigures = new Map<string, TDayFigures>();
  if (open.length) {
    const span = dates.slice(dates.indexOf(open[0]!), dates.indexOf(open[open.length - 1]!) + 1);
    const bounds = [...span.map((d) => hotelDay(d, timeZone).from), hotelDay(span[span.length - 1]!, timeZone).to];
    const figures = await rangeFigures(prisma, hotelId, bounds);
    span.forEach((d, i) => openFigures.set(d, figures[i]!));
  }
  const days: TDayReport[] = dates.map((date) => {
    const head = { date, timeZone, currency };
    const closed = closedOn.get(date);
    if (!closed) return { ...openFigures.get(date)!, ...head, closed: false, closedAt: null, closedBy: null, closedAutomatically: false };
    const closer = closed.closedByAccountId === null ? null : (closers.get(closed.closedByAccountId) ?? { id: closed.closedByAccountId, nickname: '' });
    return {
      ...(closed.report as unknown as TDayFigures),
      ...head,
      closed: true,
      closedAt: closed.closedAt.toISOString(),
      closedBy: closer,
      closedAutomatically: closed.automatic,
    };
  });
  const sum = (f: (d: TDayReport) => number) => days.reduce((s, d) => s + f(d), 0);
  const lines = new Map<TPaymentMethod, TCashLine>();
  for (const day of days) {
    for (const l of day.methods) {
      const line = lines.get(l.method) ?? emptyLine(l.method);
      lines.set(l.method, line);
      for (const k of ['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net', 'count'] as const) line[k] += l[k];
    }
  }
  const last = days[days.length - 1]!;
  const total = figuresOf({
    rooms: {
      total: sum((d) => d.rooms.total),
      outOfOrder: sum((d) => d.rooms.outOfOrder),
      available: sum((d) => d.rooms.available),
      sold: sum((d) => d.rooms.sold),
    },
    arrivals: sum((d) => d.arrivals),
    departures: sum((d) => d.departures),
    stayOvers: sum((d) => d.stayOvers),
    noShows: sum((d) => d.noShows),
    cancellations: sum((d) => d.cancellations),
    roomCharges: sum((d) => d.revenue.roomCharges),
    charges: sum((d) => d.revenue.charges),
    methods: PAYMENT_METHODS.filter((m) => lines.has(m)).map((m) => lines.get(m)!),
    owing: last.owing,
    depositsHeld: last.depositsHeld,
  });
  return { from, to, currency, days, total };
}
