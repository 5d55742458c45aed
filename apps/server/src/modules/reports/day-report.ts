import { PAYMENT_METHODS, ZDayReportInput, ZReportRangeInput, addDays, localDate, type TOrderEntryKind, type TPaymentMethod } from '@console/shared';
import type { TCashLine, TDayFigures, TDayReport, TReportRange } from '@console/shared/dto';
import type { z } from 'zod';
import type { Actor, AuthedContext, Deps } from '../../context';
import type { TPrisma } from '../../db/client';
import { lockLedgerDay } from '../../db/ledger-day-lock';
import { transaction, type Tx } from '../../db/transaction';
import { requirePermission } from '../../permissions';
import { addTo, emptyLine, hotelDay } from '../orders/cash-lines';

/**
 * The manager's day (issue 26 §2, docs/reports.md): a hotel calendar day's figures, computed from
 * the stays and the ledger; the day close that freezes them once the day is over (a closed day is
 * never changed: a correction made later lands on the day it is made); a range of days summed.
 * Hotel-wide, so for managers of every room (`order.manage` and all rooms).
 */

type Db = TPrisma | Tx;

/** Statuses of a stay that had its guest in the room (a cancelled reservation and a no-show never did). */
const stayed = (a: string) => `${a}."status" IN ('in_house', 'expired', 'checked_out') OR (${a}."status" = 'moved' AND ${a}."checkedOutAt" IS NOT NULL)`;
/** When a stay that had its guest left (or leaves) the room. */
const LEFT_AT = `CASE WHEN s."status" IN ('checked_out', 'moved') THEN s."checkedOutAt" WHEN s."status" = 'expired' THEN greatest(s."expectedCheckOutAt", now()) ELSE s."expectedCheckOutAt" END`;

/** Hotel-wide figures: for managers of every room (not a member limited to some rooms). */
export function requireManager(actor: Actor) {
  requirePermission(actor, 'order.manage', { wholeHotel: true });
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
 * for a correction, the kind it corrects (other revenue and money by way of paying); the journal's room
 * revenue by the night it is for (`dates`, the days' dates). Each row names its day (`i`, from 1).
 */
export function figuresSql(hotelId: number, bounds: Date[], dates: string[]) {
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
    // The stays that had a guest in a room during the span, read once (those that left, by the range of
    // their time in the room, Stay_night_idx; those still in, among the active stays), and from them, in
    // one pass grouped four ways (rows of a kind, a day and a count; `stayFigures` puts them together):
    // - `first` and `after`: the rooms sold. A stay is counted for the days whose end falls strictly
    //   inside its time in the room, from the first end after its check-in to the last end before it
    //   left (width_bucket counts the ends at or before a time): it adds one on its first day and takes
    //   it away the day after its last, and a day's rooms sold are the running sum (a row a stay, not
    //   one a night). A room holds one stay at a time (Stay_no_overlap, until each one's expected
    //   check-out), except after a guest stayed past it: a guest checked in after that time ends such a
    //   stay's count (a lookup for those stays only), so a day's stays are its rooms. `arrived`: of
    //   those counted from a day, the visits begun that day (the rooms sold less them: stay-overs);
    // - `arrival`: visits begun in the day; `departure`: stays checked out in the day.
    // Then the no-shows by the day they were due (Stay_no_show_idx), and the cancellations by when they
    // happened (a reservation cancelled today for next week is today's; Stay_not_come_idx).
    stays: {
      text: `SELECT CASE WHEN GROUPING(v.first) = 0 THEN 'first' WHEN GROUPING(v.after) = 0 THEN 'after'
                 WHEN GROUPING(v.arrival) = 0 THEN 'arrival' ELSE 'departure' END AS kind,
            coalesce(v.first, v.after, v.arrival, v.departure) AS i, count(*) AS n, sum(v.arrived) AS arrived
       FROM (SELECT CASE WHEN v.first <= v.last THEN v.first END AS first, CASE WHEN v.first <= v.last THEN v.last + 1 END AS after,
                    (v.first <= v.last AND v."checkInAt" >= $4 AND v.visit)::int AS arrived,
                    CASE WHEN v."checkInAt" >= $4 AND v."checkInAt" < $5 AND v.visit THEN width_bucket(v."checkInAt", $2::timestamptz[]) END AS arrival,
                    CASE WHEN v."status" = 'checked_out' AND v.left_at >= $4 AND v.left_at < $5 THEN width_bucket(v.left_at, $2::timestamptz[]) END AS departure
               FROM (SELECT s."checkInAt", s."status", s.left_at, s."visitStayId" = s."id" AS visit,
                            width_bucket(s."checkInAt", $3::timestamptz[]) + 1 AS first,
                            width_bucket(s.night_end, $3::timestamptz[]) - coalesce(($3::timestamptz[])[width_bucket(s.night_end, $3::timestamptz[])] = s.night_end, false)::int AS last
                       FROM (SELECT s.*, CASE WHEN s.left_at > s."expectedCheckOutAt" AND s.left_at > $7 AND s."checkInAt" < $5 THEN least(s.left_at, coalesce((
                                      SELECT min(o."checkInAt") FROM "Stay" o
                                       WHERE o."hotelId" = $1 AND o."roomId" = s."roomId" AND o."checkInAt" >= s."expectedCheckOutAt"
                                         AND o."checkInAt" < s.left_at AND o."id" <> s."id" AND (${stayed('o')})), s.left_at))
                                    ELSE s.left_at END AS night_end
                               FROM (SELECT s."roomId", s."checkInAt", s."expectedCheckOutAt", s."visitStayId", s."id", s."status", s."checkedOutAt" AS left_at FROM "Stay" s
                                      WHERE s."hotelId" = $1 AND s."status" IN ('checked_out', 'moved') AND s."checkedOutAt" IS NOT NULL
                                        AND tstzrange(s."checkInAt", greatest(s."checkInAt", s."checkedOutAt"), '()') && tstzrange($6, $5, '[]')
                                     UNION ALL
                                     SELECT s."roomId", s."checkInAt", s."expectedCheckOutAt", s."visitStayId", s."id", s."status", ${LEFT_AT} FROM "Stay" s
                                      WHERE s."hotelId" = $1 AND s."status" IN ('in_house', 'expired') AND s."checkInAt" < $5 AND ${LEFT_AT} > $6) s) s) v) v
      GROUP BY GROUPING SETS ((v.first), (v.after), (v.arrival), (v.departure))
     UNION ALL
     SELECT 'no_show', width_bucket(s."checkInAt", $2::timestamptz[]), count(*), 0 FROM "Stay" s
      WHERE s."hotelId" = $1 AND s."status" = 'no_show' AND s."checkInAt" >= $4 AND s."checkInAt" < $5
      GROUP BY 2
     UNION ALL
     SELECT 'ended', width_bucket(s."checkedOutAt", $2::timestamptz[]), count(*), 0 FROM "Stay" s
      WHERE s."hotelId" = $1 AND s."status" = 'ended' AND s."checkedOutAt" >= $4 AND s."checkedOutAt" < $5
      GROUP BY 2`,
      // $6: a millisecond before the span (a departure at its very first instant is in it); $7: the first day's end.
      values: [hotelId, starts, ends, from, to, new Date(from.getTime() - 1), ends[0]!],
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
    // Room revenue by the night it is for: the journal's revenue lines of each date, whenever they were
    // posted (JournalLine_hotelId_serviceDate_idx, which holds the amounts).
    nights: {
      text: `SELECT d.i, -sum(l."amount")::bigint AS amount
       FROM unnest($2::text[]) WITH ORDINALITY AS d(date, i)
       JOIN "JournalLine" l ON l."hotelId" = $1 AND l."account" = 'revenue_rooms' AND l."serviceDate" = d.date
      GROUP BY d.i`,
      values: [hotelId, dates],
    },
  } satisfies Record<string, FigureStatement>;
}

/** The statements of one day's figures, `date` being [from, to) (`figuresSql` of one day). */
export function dayFiguresSql(hotelId: number, date: string, from: Date, to: Date) {
  return figuresSql(hotelId, [from, to], [date]);
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
export async function dayFigures(db: Db, hotelId: number, date: string, from: Date, to: Date, now?: Promise<Standing>): Promise<TDayFigures> {
  return (await rangeFigures(db, hotelId, [from, to], [date], now))[0]!;
}

/** A row of `figuresSql`'s `stays`: a kind of count, its day (`i`, from 1) and how many. */
type StayCount = { kind: 'first' | 'after' | 'arrival' | 'departure' | 'no_show' | 'ended'; i: number | null; n: bigint; arrived: bigint | null };

/** Each day's stay figures from `stays`' rows: the rooms sold as the running sum of stays counted from a day less those no longer. */
function stayFigures(rows: StayCount[], days: number) {
  const of = new Map(rows.filter((r) => r.i !== null).map((r) => [`${r.kind}:${r.i}`, r]));
  const count = (kind: StayCount['kind'], i: number) => n(of.get(`${kind}:${i}`)?.n);
  let sold = 0;
  return Array.from({ length: days }, (_, k) => {
    const i = k + 1;
    sold += count('first', i) - count('after', i);
    return {
      sold,
      stayOvers: sold - n(of.get(`first:${i}`)?.arrived),
      arrivals: count('arrival', i),
      departures: count('departure', i),
      noShows: count('no_show', i),
      cancellations: count('ended', i),
    };
  });
}

/** A day's ledger entries summed by kind and way of paying (a correction: with the kind it corrects). */
interface EntrySum {
  kind: TOrderEntryKind;
  method: TPaymentMethod | null;
  corrects: TOrderEntryKind | null;
  amount: number;
  count: number;
}

/** The entries of each day of `bounds` summed (`figuresSql`'s `entries`), one list a day. */
async function entrySums(db: Db, hotelId: number, bounds: Date[]): Promise<EntrySum[][]> {
  const rows = await run<{ i: number; kind: TOrderEntryKind; method: TPaymentMethod | null; corrects: TOrderEntryKind | null; amount: bigint; count: bigint }>(
    db,
    figuresSql(hotelId, bounds, []).entries,
  );
  const days: EntrySum[][] = Array.from({ length: bounds.length - 1 }, () => []);
  for (const r of rows) days[n(r.i) - 1]?.push({ kind: r.kind, method: r.method, corrects: r.corrects, amount: n(r.amount), count: n(r.count) });
  return days;
}

/**
 * The ledger's sums of consecutive days (`dates`, day k being [bounds[k], bounds[k+1])): a day that is
 * over is summed once and kept (LedgerDaySum, migration 20261209051000), since its entries never change
 * (the ledger is append-only, an entry is dated when it is written); the others are summed each time.
 * Before summing a day to keep, the day lock is taken and let go at once: every entry dated before now
 * has then been committed (db/ledger-day-lock.ts), so none of a kept day's is missing. An entry written
 * later with an earlier date (an import) removes its day's kept sums in the database.
 */
async function keptEntrySums(deps: Deps, hotelId: number, dates: string[], bounds: Date[]): Promise<EntrySum[][]> {
  const { prisma } = deps;
  const kept = await prisma.ledgerDaySum.findMany({ where: { hotelId, date: { in: dates } } });
  const keptOn = new Map(kept.map((k) => [k.date, k]));
  const days: (EntrySum[] | undefined)[] = dates.map((date, k) => {
    const row = keptOn.get(date);
    // Kept for these very bounds (a hotel that changed its time zone has other days).
    return row && row.dayStart.getTime() === bounds[k]!.getTime() && row.dayEnd.getTime() === bounds[k + 1]!.getTime()
      ? (row.sums as unknown as EntrySum[])
      : undefined;
  });
  const missing = days.flatMap((d, k) => (d ? [] : [k]));
  if (missing.length) {
    const first = missing[0]!;
    const last = missing[missing.length - 1]!;
    const now = new Date();
    const over = missing.filter((k) => bounds[k + 1]! <= now);
    if (over.length) await transaction(deps, (tx) => lockLedgerDay(tx, hotelId));
    const summed = await entrySums(prisma, hotelId, bounds.slice(first, last + 2));
    summed.forEach((d, j) => (days[first + j] ??= d));
    if (over.length) {
      await prisma.$executeRawUnsafe(
        `INSERT INTO "LedgerDaySum" ("hotelId", "date", "dayStart", "dayEnd", "sums")
         SELECT $1, d.date, d.start, d.end, d.sums FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::jsonb[]) AS d(date, start, "end", sums)
         ON CONFLICT ("hotelId", "date") DO UPDATE SET "dayStart" = excluded."dayStart", "dayEnd" = excluded."dayEnd", "sums" = excluded."sums", "createdAt" = now()`,
        hotelId,
        over.map((k) => dates[k]!),
        over.map((k) => bounds[k]!),
        over.map((k) => bounds[k + 1]!),
        over.map((k) => JSON.stringify(days[k]!)),
      );
    }
  }
  return days.map((d) => d!);
}

/**
 * The days before today of the hotels whose ledger has entries, summed and kept by the install's sweep
 * (`keptEntrySums`) once they are over, unless closed: a month's report then reads kept sums even the
 * first time. Only yesterday: older days are summed the first time a report asks for them. How many
 * days it summed.
 */
export async function sumDaysOnTime(deps: Deps, now: Date, scope: { hotelId?: number } = {}): Promise<number> {
  const hotels = await deps.prisma.$queryRawUnsafe<{ id: number; timeZone: string }[]>(
    `SELECT h."id", h."timeZone" FROM "Hotel" h WHERE ($1::int IS NULL OR h."id" = $1) AND EXISTS (SELECT 1 FROM "OrderEntry" e WHERE e."hotelId" = h."id")`,
    scope.hotelId ?? null,
  );
  if (!hotels.length) return 0;
  const yesterdays = hotels.map((h) => addDays(localDate(now, h.timeZone), -1));
  const done = await deps.prisma.$queryRawUnsafe<{ hotelId: number }[]>(
    `SELECT d."hotelId" FROM unnest($1::int[], $2::text[]) AS d("hotelId", date)
      WHERE EXISTS (SELECT 1 FROM "LedgerDaySum" s WHERE s."hotelId" = d."hotelId" AND s."date" = d.date)
         OR EXISTS (SELECT 1 FROM "DayClose" c WHERE c."hotelId" = d."hotelId" AND c."date" = d.date)`,
    hotels.map((h) => h.id),
    yesterdays,
  );
  const skip = new Set(done.map((d) => d.hotelId));
  let summed = 0;
  for (const [k, hotel] of hotels.entries()) {
    if (skip.has(hotel.id)) continue;
    const { from, to } = hotelDay(yesterdays[k]!, hotel.timeZone);
    await keptEntrySums(deps, hotel.id, [yesterdays[k]!], [from, to]);
    summed += 1;
  }
  return summed;
}

/**
 * The figures of consecutive days, day i being [bounds[i-1], bounds[i]), in three statements however
 * many days (`figuresSql`), with what the hotel stands at counted once.
 */
export async function rangeFigures(
  db: Db,
  hotelId: number,
  bounds: Date[],
  dates: string[],
  now?: Promise<Standing>,
  sums?: Promise<EntrySum[][]>,
): Promise<TDayFigures[]> {
  const sql = figuresSql(hotelId, bounds, dates);
  const [rooms, stays, entriesByDay, stands, nights] = await Promise.all([
    run<{ i: bigint; total: bigint; out_of_order: bigint }>(db, sql.rooms),
    run<StayCount>(db, sql.stays).then((rows) => stayFigures(rows, bounds.length - 1)),
    sums ?? entrySums(db, hotelId, bounds),
    now ?? standing(db, hotelId),
    run<{ i: bigint; amount: bigint }>(db, sql.nights),
  ]);
  const nightOf = new Map(nights.map((r) => [n(r.i), n(r.amount)]));
  const days = bounds.length - 1;
  const roomsOf = new Map(rooms.map((r) => [n(r.i), r]));
  const entriesOf = new Map(entriesByDay.map((e, k) => [k + 1, e]));
  return Array.from({ length: days }, (_, k) => {
    const i = k + 1;
    const room = roomsOf.get(i);
    const stay = stays[k]!;
    // Room revenue: the journal's, by the night it is for; other revenue: charges posted that day.
    const roomCharges = nightOf.get(i) ?? 0;
    let charges = 0;
    const lines = new Map<TPaymentMethod, TCashLine>();
    for (const g of entriesOf.get(i) ?? []) {
      const of = g.kind === 'correction' ? g.corrects : g.kind;
      if (of === 'charge') charges -= g.amount;
      if (g.method === null) continue;
      const line = lines.get(g.method) ?? emptyLine(g.method);
      lines.set(g.method, line);
      addTo(line, g.kind, g.amount, g.count);
    }
    const methods = PAYMENT_METHODS.filter((m) => lines.has(m)).map((m) => lines.get(m)!);
    const total = n(room?.total);
    const outOfOrder = n(room?.out_of_order);
    return figuresOf({
      rooms: { total, outOfOrder, available: Math.max(0, total - outOfOrder), sold: stay.sold },
      arrivals: stay.arrivals,
      departures: stay.departures,
      stayOvers: stay.stayOvers,
      noShows: stay.noShows,
      cancellations: stay.cancellations,
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

export async function reportOf(deps: Deps, actor: Actor, date: string): Promise<TDayReport> {
  const db = deps.prisma;
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
  const [figures] = await rangeFigures(db, actor.hotelId, [from, to], [date], undefined, keptEntrySums(deps, actor.hotelId, [date], [from, to]));
  return { ...figures!, ...head, closed: false, closedAt: null, closedBy: null, closedAutomatically: false };
}

/** A day's report: frozen when the day is closed, else as the stays and the ledger say now. */
export async function dayReport(ctx: AuthedContext, raw: z.input<typeof ZDayReportInput>): Promise<TDayReport> {
  requireManager(ctx.actor);
  const { date } = ZDayReportInput.parse(raw);
  return reportOf(ctx.deps, ctx.actor, date);
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
    const figures = await rangeFigures(prisma, hotelId, bounds, span, undefined, keptEntrySums(ctx.deps, hotelId, span, bounds));
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
