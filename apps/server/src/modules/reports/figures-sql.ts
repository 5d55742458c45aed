import { beginsVisitSql } from '../stays/visit-start';

/**
 * The statements of the manager's day (docs/reports.md): a span of days' figures and what the hotel
 * stands at now, as `day-figures.ts` sends them and the benchmark sends them alone (bench/reports.ts).
 */

/** Statuses of a stay that had its guest in the room (a cancelled reservation and a no-show never did). */
const stayed = (a: string) => `${a}."status" IN ('in_house', 'expired', 'checked_out') OR (${a}."status" = 'moved' AND ${a}."checkedOutAt" IS NOT NULL)`;
/** When a stay that had its guest left (or leaves) the room. */
const LEFT_AT = `CASE WHEN s."status" IN ('checked_out', 'moved') THEN s."checkedOutAt" WHEN s."status" = 'expired' THEN greatest(s."expectedCheckOutAt", now()) ELSE s."expectedCheckOutAt" END`;

/** A statement as it is sent: its text and its values ($1, $2...). */
export interface FigureStatement {
  text: string;
  values: unknown[];
}

/**
 * The statements of the figures of consecutive days, day i being [bounds[i-1], bounds[i]), as
 * `rangeFigures` sends them (the benchmark sends the same ones alone: bench/reports.ts), one statement
 * each for all the days: the rooms; the stays; the ledger's entries by business date, kind, way of paying and,
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
    // A stay's first and last day are computed once (`OFFSET 0`: flattened, the planner copied their
    // expressions, lookups included, into each of the four groupings: a month at 10,000 rooms 206 ms, 141 ms once).
    stays: {
      text: `SELECT CASE WHEN GROUPING(v.first) = 0 THEN 'first' WHEN GROUPING(v.after) = 0 THEN 'after'
                 WHEN GROUPING(v.arrival) = 0 THEN 'arrival' ELSE 'departure' END AS kind,
            coalesce(v.first, v.after, v.arrival, v.departure) AS i, count(*) AS n, sum(v.arrived) AS arrived
       FROM (SELECT CASE WHEN v.first <= v.last THEN v.first END AS first, CASE WHEN v.first <= v.last THEN v.last + 1 END AS after,
                    (v.first <= v.last AND v."checkInAt" >= $4 AND v.visit)::int AS arrived,
                    CASE WHEN v."checkInAt" >= $4 AND v."checkInAt" < $5 AND v.visit THEN width_bucket(v."checkInAt", $2::timestamptz[]) END AS arrival,
                    CASE WHEN v."status" = 'checked_out' AND v.left_at >= $4 AND v.left_at < $5 THEN width_bucket(v.left_at, $2::timestamptz[]) END AS departure
               FROM (SELECT s."checkInAt", s."status", s.left_at, ${beginsVisitSql('s')} AS visit,
                            width_bucket(s."checkInAt", $3::timestamptz[]) + 1 AS first,
                            width_bucket(s.night_end, $3::timestamptz[]) - coalesce(($3::timestamptz[])[width_bucket(s.night_end, $3::timestamptz[])] = s.night_end, false)::int AS last
                       FROM (SELECT s.*, CASE WHEN s.left_at > s."expectedCheckOutAt" AND s.left_at > $7 AND s."checkInAt" < $5 THEN least(s.left_at, coalesce((
                                      SELECT min(o."checkInAt") FROM "Stay" o
                                       WHERE o."hotelId" = $1 AND o."roomId" = s."roomId" AND o."checkInAt" >= s."expectedCheckOutAt"
                                         AND o."checkInAt" < s.left_at AND o."id" <> s."id" AND (${stayed('o')})), s.left_at))
                                    ELSE s.left_at END AS night_end
                               FROM (SELECT s."roomId", s."checkInAt", s."expectedCheckOutAt", s."visitStayId", s."movedFromStayId", s."id", s."status", s."checkedOutAt" AS left_at FROM "Stay" s
                                      WHERE s."hotelId" = $1 AND s."status" IN ('checked_out', 'moved') AND s."checkedOutAt" IS NOT NULL
                                        AND tstzrange(s."checkInAt", greatest(s."checkInAt", s."checkedOutAt"), '()') && tstzrange($6, $5, '[]')
                                     UNION ALL
                                     SELECT s."roomId", s."checkInAt", s."expectedCheckOutAt", s."visitStayId", s."movedFromStayId", s."id", s."status", ${LEFT_AT} FROM "Stay" s
                                      WHERE s."hotelId" = $1 AND s."status" IN ('in_house', 'expired') AND s."checkInAt" < $5 AND ${LEFT_AT} > $6) s) s OFFSET 0) v) v
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
    entries: entriesSql(hotelId, dates),
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

/**
 * Other revenue and the taxes included in the price, by business date: the journal's lines of the
 * day's entries on revenue_extras and tax_payable (net of what corrections of that day took back).
 * Every entry of each day is read (a month: about 370,000 at 10,000 rooms, 1.4 s): a day that is over
 * is summed once and kept (kept-sums.ts).
 */
export function extrasSql(hotelId: number, dates: string[]): FigureStatement {
  return {
    text: `SELECT array_position($2::text[], j."businessDate"::text) AS i, l."account"::text AS account, -sum(l."amount")::bigint AS amount
       FROM "JournalEntry" j JOIN "JournalLine" l ON l."journalEntryId" = j."id"
      WHERE j."hotelId" = $1 AND j."businessDate" = ANY($2::text[]) AND l."account" IN ('revenue_extras', 'tax_payable')
      GROUP BY 1, 2`,
    values: [hotelId, dates],
  };
}

/**
 * The entries of each business date summed by kind and way of paying (a correction by the entry it
 * corrects, whose kind is read once a group after the sums: a few thousand rows of a month, not
 * each entry). An entry's day is its journal entry's business date (JournalEntry_hotelId_businessDate_idx):
 * what was posted in the night before the audit is the day before's.
 */
export function entriesSql(hotelId: number, dates: string[]): FigureStatement {
  return {
    text: `SELECT g.i, g."kind"::text AS kind, g."method"::text AS method,
          CASE WHEN g.link IS NOT NULL THEN (SELECT l."kind"::text FROM "OrderEntry" l WHERE l."hotelId" = $1 AND l."id" = g.link) END AS corrects,
          g.amount::bigint AS amount, g.count
     FROM (SELECT array_position($2::text[], j."businessDate"::text) AS i, e."kind", e."method",
                  CASE WHEN e."kind" = 'correction' THEN e."linkedEntryId" END AS link, sum(e."amount") AS amount, count(*) AS count
             FROM "JournalEntry" j JOIN "OrderEntry" e ON e."hotelId" = j."hotelId" AND e."id" = j."orderEntryId"
            WHERE j."hotelId" = $1 AND j."businessDate" = ANY($2::text[]) AND j."source" = 'order'
            GROUP BY 1, 2, 3, 4) g`,
    values: [hotelId, dates],
  };
}

/** The statements of one day's figures, `date` being [from, to) (`figuresSql` of one day). */
export function dayFiguresSql(hotelId: number, date: string, from: Date, to: Date) {
  return figuresSql(hotelId, [from, to], [date]);
}

/**
 * The statement of what a hotel stood at at the end of each day of a report (issue 36 §5): the bills
 * left owing that still owed (how many, what they owed) and the deposits held on bills not settled,
 * as the documents stood then: the entries whose business date is that day or before (the journal's
 * date; an entry it lacks, by its calendar day), on the bills not settled by the day's end. A past
 * day shows what it held then, not what the hotel holds today; the open date what it holds now. One
 * row per day (`i`, from 1), each counted over the bills open at its end only. Those bills are read
 * once, for the earliest end (`$4`, a value of its own: the planner reads the open bills by
 * Folio_hotelId_open_idx and those settled since by Folio_hotelId_settledAt_idx, and their entries by
 * their indexes, knowing how few they are; with the end of each day read from the list it planned for
 * a third of every bill ever, and read every entry of three years, 7 s a day at 10,000 rooms:
 * bench/README §18), then each day keeps its own.
 */
export function standingSql(hotelId: number, dates: string[], ends: Date[]) {
  const earliest = ends.length ? new Date(Math.min(...ends.map((e) => e.getTime()))) : new Date(0);
  return {
    // Held: each deposit less its refunds, neither corrected by that day (the rule of
    // "OrderEntry_refundable" as it stood then); a refund or a correction is on the bill of the entry
    // it names (the ledger's rule OrderEntry_link_same_account).
    standing: {
      text: `WITH open_bills AS MATERIALIZED (
      SELECT f."id" AS folio, f."settledAt", f."owedAt", oe."id", oe."kind", oe."amount", oe."linkedEntryId" AS link,
             coalesce(je."businessDate", to_char(oe."createdAt" AT TIME ZONE h."timeZone", 'YYYY-MM-DD')) AS posted
      FROM "Folio" f
      JOIN "Hotel" h ON h."id" = f."hotelId"
      JOIN "OrderEntry" oe ON oe."hotelId" = f."hotelId" AND oe."folioId" = f."id"
      LEFT JOIN "JournalEntry" je ON je."orderEntryId" = oe."id"
      WHERE f."hotelId" = $1 AND (f."settledAt" IS NULL OR f."settledAt" >= $4::timestamptz)
    ), days AS (SELECT t.d, t.e, t.i FROM unnest($2::text[], $3::timestamptz[]) WITH ORDINALITY AS t(d, e, i))
    SELECT days.i, s.owing_count, s.owing_total, s.held
    FROM days CROSS JOIN LATERAL (
      WITH e AS MATERIALIZED (
        SELECT b.folio, b."owedAt" IS NOT NULL AND b."owedAt" < days.e AS owing, b."id", b."kind", b."amount", b.link
        FROM open_bills b
        WHERE (b."settledAt" IS NULL OR b."settledAt" >= days.e) AND b.posted <= days.d
      ), corrected AS (SELECT DISTINCT e.link AS id FROM e WHERE e."kind" = 'correction'),
      owed AS (SELECT sum(e."amount") AS balance FROM e WHERE e.owing GROUP BY e.folio)
      SELECT (SELECT count(*) FROM owed WHERE owed.balance < 0) AS owing_count,
             (SELECT coalesce(sum(-owed.balance), 0)::bigint FROM owed WHERE owed.balance < 0) AS owing_total,
             (SELECT coalesce(sum(d."amount" + coalesce(r.refunded, 0)), 0)::bigint FROM e d
                LEFT JOIN (SELECT r.link, sum(r."amount") AS refunded FROM e r
                            WHERE r."kind" = 'refund' AND NOT EXISTS (SELECT 1 FROM corrected c WHERE c.id = r."id") GROUP BY r.link) r ON r.link = d."id"
               WHERE d."kind" = 'deposit' AND NOT EXISTS (SELECT 1 FROM corrected c WHERE c.id = d."id")) AS held
    ) s
    ORDER BY days.i`,
      values: [hotelId, dates, ends, earliest],
    },
  } satisfies Record<string, FigureStatement>;
}
