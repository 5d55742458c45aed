/**
 * `pnpm --filter @console/bench run reports`: issue 26 ("Faces and numbers"), the manager's day
 * (docs/reports.md) on a hotel of 10,000 rooms with 3 years of stays.
 *
 * Generated with set-based SQL in its own database (staging tables first, then each table written
 * in time order with its ids given; every row through the triggers of the schema: the ledger rules
 * (OrderEntry_rules: an entry only on a folio not settled, a refund within its deposit, a correction
 * that reverses its entry exactly, a member's balance that covers what it pays), the visit
 * (visitStayId), a reservation's arrival day, the room board's counts; the secondary indexes and the
 * foreign keys of Stay, Folio and OrderEntry are made again afterwards, the keys each checked by one
 * statement over the table):
 *   - 10,000 rooms over 20 floors, 20,000 to 26,000 a night; 12 desk clerks, 2,000 members;
 *   - each room's past 3 years as a chain of stays (1 to 7 nights, 40 % one night; 0 to 5 nights
 *     empty between two: about 77 % occupancy), each checked out, with its bill: the room charge
 *     posted at check-in and paid at once (wechat, alipay, bank card, cash, transfer; 8 % in two
 *     ways of paying; 3 % from a member's balance, recharged just before), a deposit (75 %) refunded
 *     at check-out less the extra it paid, extras (15 %, a tenth of them corrected), the folio
 *     settled at check-out; 0.1 % of bills left owing ("company"), half of them paid weeks later;
 *   - in the empty nights, a quarter were a reservation cancelled a few days before, or a no-show;
 *   - the last nights: a full house (every room's guest in house at the end of yesterday, in since
 *     1 to 6 days), 15 % of them checked out this morning (their room reserved again for tonight),
 *     the others leaving in 1 to 4 days; one room in ten reserved after its guest leaves; but in one
 *     room in 25 (ABSENT_EVERY: 400 of 10,000) yesterday's guest never came: a reservation due
 *     yesterday, still awaited (its no-show time, midnight, passed), booked at its nights' rates, in
 *     a hotel whose no-show policy is `charge_first_night` (decision 059).
 * Then VACUUM ANALYZE. No room changes (moves) and no guests' names: the reports read neither.
 *
 * Checked first (so that a smoke run fails where a full one would): the reports of today, of a past
 * day and of yesterday against a recount made apart in SQL (every figure, money by way of paying
 * included), yesterday sold out but for its awaited reservations, each day of a month equal to its
 * own report and the month's room-nights and room revenue recounted.
 *
 * The close, the night audit: `closeDay` of yesterday (every room in house but the 400 whose guest
 * never came), timed once, against the same day's figures and trial balance alone just before. It
 * must release each awaited reservation as a no-show and post its fee (its room's rate of that night:
 * one charge, booked as other revenue and owed on the bill's ledgers; reports-ledger.ts
 * `checkNightAudit`); its frozen figures must equal the open report before it (its no-shows added)
 * and a recount after it; the trial balances of the day closed and of the fees' day must tie, and
 * today's report, the fees in it, its recount. Then each day of the month before last closed one
 * after the other (timed: more samples), its frozen days and sums equal to its open ones. Target:
 * under 30 s.
 *
 * Timed, one call after another, interleaved in rounds (cases shuffled in each round), p50 and p95:
 *   - `dayReport` (the service, in this process: what order.dayReport calls) of today and of a past
 *     day (open) and of yesterday (closed: its frozen row); `reportRange` of the last whole calendar
 *     month (open days) and of the month before (closed days); and the screen's calls of today and of
 *     the open month through tRPC over HTTP (the app built in this process, a session cookie);
 *   - the SAME statements alone (`figuresSql`, the kept days' rows (LedgerDaySum) and, for the days
 *     not kept, `entriesSql` and `standingSql`, the closed days' rows), sent with the service's pool
 *     as the service sends them (a range's open days in one span, the figures' statements and the kept
 *     rows side by side): the baseline of each, and the ratio of the p95s. Target: p95 under 200 ms.
 *   - then (reports-ledger.ts `timeLedger`, each case's calls as many as fit in BENCH_LEDGER_BUDGET_S,
 *     at least 3, at most the rounds' calls, shuffled call by call), after the nightly sweep's
 *     checkpoints of the days since the last one are kept in order (as an install keeps one a night):
 *     the trial balance page's `order.trialBalance` (in process and over HTTP) of the open past day
 *     and of the day closed, against the service's own statements alone (trial-balance-sums.ts), each
 *     first checked against a recount over every line; `standingByDay` (decision 062) of the past day
 *     (and, in a smoke run, of the month and of a day a year back: minutes a call at full size) against
 *     `standingSql` alone. Target: a day's trial balance p95 under 200 ms.
 *
 * Smoke run (BENCH_SMOKE=1): the same generation, checks, closes and cases on 20 rooms (one a
 * floor; 2 of them awaited yesterday, ABSENT_EVERY 10) over 92 days (the least that holds the month
 * before last, up to 91 days back, whose first days are closed), bills left owing at 2 % instead of 0.1 % (so that some are owing, and some paid
 * later, among its 600 bills: the recount's owing figures have something to count), the month's
 * days checked one in five, 3 days of the month before closed one by one instead of the whole
 * month, one call of each case, no warm-up.
 *
 * Environment: BENCH_ROUNDS (default 20, 5 calls each), BENCH_LEDGER_BUDGET_S (default 30 s a
 * case), BENCH_TZ (the hotel's zone, default Asia/Shanghai: a run must end on the day it generated;
 * a long one begun in Shanghai's evening runs in a zone whose midnight is hours away), BENCH_ROOMS,
 * BENCH_DAYS (of stays, default 1095), BENCH_ADMIN_DATABASE_URL, BENCH_DATABASE_URL (reuse a
 * database this benchmark generated and kept, on the day it was made: the close is then timed on
 * the first day not closed yet, with the no-shows it finds awaited, none once yesterday is closed),
 * BENCH_KEEP_DB=1, BENCH_EXPLAIN=1 (EXPLAIN ANALYZE of a past day's statements), BENCH_VERBOSE=1
 * (the generation's steps, timed).
 */
import os from 'node:os';
import pg from 'pg';
import { COOKIES, addDays, localDate, zonedToInstant, type TPaymentMethod } from '@console/shared';
import type { TDayFigures } from '@console/shared/dto';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { applyMigrations } from '../apps/server/src/db/migrate.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { dayReport, reportRange } from '../apps/server/src/modules/reports/day-report.ts';
import { dayFiguresSql, entriesSql, extrasSql, figuresSql, standingSql } from '../apps/server/src/modules/reports/figures-sql.ts';
import { closeDay } from '../apps/server/src/modules/reports/day-close.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { fmt, median, percentile, root, sized, SMOKE, target } from './lib.ts';
import { journalTriggers, postJournal } from './reports-journal.ts';
import { checkNightAudit, pendingNoShows, timeLedger, trialBalanceAlone, keepSweepCheckpoints } from './reports-ledger.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROOMS = Number(process.env.BENCH_ROOMS ?? sized(10_000, 20));
/** A smoke run's 92: the month before last, whose first days are closed, begins at most 91 days back. */
const DAYS = Number(process.env.BENCH_DAYS ?? sized(1095, 92));
/** The share of bills left owing: a smoke run's few hundred bills would have none at the full run's 0.1 %. */
const OWING = sized(0.001, 0.02);
/** The hotel's zone: BENCH_TZ runs it where midnight is hours away (a run must end on the day it generated). */
const TZ = process.env.BENCH_TZ ?? 'Asia/Shanghai';
const OWNER_MOBILE = '13312345692';
const STAFF = 12;
const MEMBERS = Math.max(20, Math.round(ROOMS / 5));
/** One room in this many had yesterday's guest never come: a reservation the close ends as a no-show, its first night charged (4 %; a smoke run 2 of 20). */
const ABSENT_EVERY = sized(25, 10);

/** A step of the generation, timed. */
async function step(client: pg.Client, label: string, sql: string, values: unknown[] = []): Promise<number> {
  const t = performance.now();
  const result = await client.query(sql, values);
  if (process.env.BENCH_VERBOSE) console.log(`  ${label}: ${result.rowCount ?? ''} rows, ${fmt((performance.now() - t) / 1000)} s`);
  return result.rowCount ?? 0;
}

/**
 * The hotel, its staff, members and rooms, then its stays and bills over `DAYS` days up to now (see
 * the head of this file). Day numbers count from the first day of the stays (its local midnight,
 * `start`); today is day `DAYS`.
 */
async function generate(client: pg.Client) {
  const today = localDate(new Date(), TZ);
  const start = zonedToInstant(`${addDays(today, -DAYS)}T00:00`, TZ)!;
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Hotel" ("name", "timeZone", "currency", "noShowPolicy", "updatedAt") VALUES ('Bench Grand', $1, 'CNY', 'charge_first_night', now()) RETURNING "id"`,
    [TZ],
  );
  const hotelId = hotel!.id;
  const {
    rows: [owner],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, 'x', 'Manager', now()) RETURNING "id"`,
    [OWNER_MOBILE],
  );
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [owner!.id, hotelId]);
  const { rows: staff } = await client.query<{ id: number }>(
    `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt")
     SELECT '1331234' || lpad(i::text, 4, '0'), 'x', 'Desk ' || i, now() FROM generate_series(1, ${STAFF}) i RETURNING "id"`,
  );
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") SELECT a, $1, 'staff', now() FROM unnest($2::int[]) a`, [
    hotelId,
    staff.map((s) => s.id),
  ]);
  await client.query(
    `INSERT INTO "Customer" ("hotelId", "nickname", "mobile", "registeredAt", "updatedAt")
     SELECT $1, 'Member ' || i, '1380000' || lpad(i::text, 4, '0'), $2::timestamptz - interval '60 days', now() FROM generate_series(1, ${MEMBERS}) i`,
    [hotelId, start],
  );
  await client.query(`INSERT INTO "RoomGroup" ("hotelId", "name", "sort", "updatedAt") SELECT $1, 'Floor ' || g, g, now() FROM generate_series(1, 20) g`, [
    hotelId,
  ]);
  await client.query(
    `INSERT INTO "Room" ("hotelId", "groupId", "name", "sortOrder", "usualPrice", "weekendPrice", "createdAt", "updatedAt")
     SELECT $1, (SELECT id FROM "RoomGroup" WHERE "hotelId" = $1 AND "sort" = 1 + (i % 20)), 'R' || lpad(i::text, 5, '0'), i, 20000 + (i % 7) * 1000, 25000,
            $2::timestamptz - interval '30 days', now()
     FROM generate_series(1, ${ROOMS}) i`,
    [hotelId, start],
  );
  await client.query(`SELECT setseed(0.26)`);

  // 1. Each room's chain of nights: stays and the empty nights before each. `cutoff`: the day the
  //    room's last guest arrived (1 to 6 days before today; yesterday in a room whose guest never
  //    came: one in ABSENT_EVERY), the chain's stays end by then.
  await step(
    client,
    'chains',
    `CREATE TEMP TABLE gen_chain AS
     WITH r AS (
       SELECT r."id" AS room_id, r."usualPrice" AS price, r."sortOrder" % ${ABSENT_EVERY} = 0 AS absent,
              ${DAYS} - 1 - CASE WHEN r."sortOrder" % ${ABSENT_EVERY} = 0 THEN 0 ELSE floor(random() * 6)::int END AS cutoff
       FROM "Room" r WHERE r."hotelId" = $1
     ), c AS (
       SELECT r.*, k, random() AS u1, random() AS u2, random() AS u3, random() AS u4
       FROM r CROSS JOIN generate_series(1, ${Math.ceil(DAYS / 2) + 20}) k
     ), n AS (
       SELECT *, CASE WHEN u1 < 0.40 THEN 1 WHEN u1 < 0.65 THEN 2 WHEN u1 < 0.80 THEN 3 WHEN u1 < 0.88 THEN 4 ELSE 5 + floor((u1 - 0.88) / 0.12 * 3)::int END AS nights,
                 CASE WHEN u2 < 0.55 THEN 0 WHEN u2 < 0.85 THEN 1 WHEN u2 < 0.95 THEN 2 ELSE 3 + floor((u2 - 0.95) / 0.05 * 3)::int END AS gap
       FROM c
     )
     SELECT * FROM (
       SELECT n.*, (sum(nights + gap) OVER (PARTITION BY room_id ORDER BY k) - nights)::int AS first_day FROM n
     ) x WHERE first_day + nights <= cutoff`,
    [hotelId],
  );

  // 2. The stays, ids given in the order they were made. Kinds: past (checked out), cancelled
  //    (ended) or no-show reservations in an empty night, now (the guest of the last nights: in
  //    house, or left this morning), absent (in place of now, one room in ABSENT_EVERY: due
  //    yesterday, never came, still awaited: the close's no-show), tonight (reserved again where
  //    the guest left this morning), later (a reservation after the guest of now leaves).
  await step(
    client,
    'stays (staged)',
    `CREATE TEMP TABLE gen_stay0 AS
     SELECT 'past' AS kind, room_id, price, nights, u3 AS u, u4 AS v,
            $1::timestamptz + first_day * interval '1 day' + interval '14 hours' + u3 * interval '8 hours' AS check_in,
            $1::timestamptz + (first_day + nights) * interval '1 day' + interval '12 hours' AS expected,
            $1::timestamptz + (first_day + nights) * interval '1 day' + interval '7 hours' + u4 * interval '295 minutes' AS left_at
       FROM gen_chain
     UNION ALL
     SELECT CASE WHEN u4 < 0.65 THEN 'cancelled' ELSE 'no_show' END, room_id, price, 1, u3, u4,
            $1::timestamptz + (first_day - gap) * interval '1 day' + interval '14 hours',
            $1::timestamptz + (first_day - gap + 1) * interval '1 day' + interval '12 hours',
            CASE WHEN u4 < 0.65 THEN $1::timestamptz + (first_day - gap) * interval '1 day' - u3 * interval '5 days' + interval '9 hours'
                 ELSE $1::timestamptz + (first_day - gap + 1) * interval '1 day' END
       FROM gen_chain WHERE gap >= 1 AND first_day - gap >= 0 AND u3 < 0.25
     UNION ALL
     SELECT CASE WHEN absent THEN 'absent' ELSE 'now' END, room_id, price, nights, u, v,
            $1::timestamptz + cutoff * interval '1 day' + interval '14 hours' + u * interval '8 hours',
            $1::timestamptz + (cutoff + nights) * interval '1 day' + interval '12 hours',
            CASE WHEN cutoff + nights = ${DAYS} AND NOT absent THEN $2::timestamptz + (0.2 + 0.7 * v) * (now() - $2::timestamptz) END
       FROM (SELECT DISTINCT ON (room_id) room_id, price, cutoff, absent, random() AS u, random() AS v, ${DAYS} - cutoff + CASE WHEN random() < 0.15 THEN 0 ELSE 1 + floor(random() * 4)::int END AS nights
               FROM gen_chain ORDER BY room_id) x`,
    [start, zonedToInstant(`${today}T00:00`, TZ)],
  );
  await step(
    client,
    'reservations (staged)',
    `INSERT INTO gen_stay0 (kind, room_id, price, nights, u, v, check_in, expected, left_at)
     SELECT 'tonight', room_id, price, 2 + floor(u * 3)::int, u, v, $1::timestamptz + interval '14 hours' + v * interval '6 hours', $1::timestamptz + (2 + floor(u * 3)::int) * interval '1 day' + interval '12 hours', NULL::timestamptz
       FROM gen_stay0 WHERE kind = 'now' AND left_at IS NOT NULL
     UNION ALL
     SELECT 'later', room_id, price, 2, u, v, expected + interval '2 hours' + floor(v * 3) * interval '1 day', expected + (2 + floor(v * 3)) * interval '1 day', NULL::timestamptz
       FROM gen_stay0 WHERE kind = 'now' AND left_at IS NULL AND u < 0.1`,
    [zonedToInstant(`${today}T00:00`, TZ)],
  );
  const {
    rows: [next],
  } = await client.query<{ stay: number; entry: number; folio: number }>(
    `SELECT (SELECT coalesce(max(id), 0) FROM "Stay") AS stay, (SELECT coalesce(max(id), 0) FROM "OrderEntry") AS entry, (SELECT coalesce(max(id), 0) FROM "Folio") AS folio`,
  );
  await step(
    client,
    'stays (ids)',
    `CREATE TEMP TABLE gen_stay AS
     SELECT ${next!.stay} + row_number() OVER (ORDER BY created, room_id)::int AS id, x.*,
            x.kind IN ('past', 'now') AS stayed,
            (x.price * x.nights)::int AS amount
       FROM (SELECT s.*, CASE WHEN kind IN ('past', 'now') AND u < 0.7 THEN check_in ELSE least(check_in - interval '1 hour' - v * interval '9 days', coalesce(left_at, check_in) - interval '1 hour', now() - interval '1 minute') END AS created
               FROM gen_stay0 s) x`,
  );
  await client.query(`CREATE INDEX ON gen_stay (id)`);
  // Of the stays with a guest: how they paid (m1, m2: a way of paying from the mix), a deposit, extras, a member's balance, a bill left owing.
  await step(
    client,
    'bills (staged)',
    `CREATE TEMP TABLE gen_bill AS
     SELECT s.id AS stay_id, s.room_id, s.kind, s.check_in, s.expected, s.left_at, s.amount,
            ${next!.folio} + row_number() OVER (ORDER BY s.id)::int AS folio_id,
            s.id % ${STAFF} AS desk,
            (ARRAY['wechat', 'wechat', 'wechat', 'wechat', 'alipay', 'alipay', 'alipay', 'bank_card', 'bank_card', 'cash', 'cash', 'transfer'])[1 + floor(random() * 12)::int] AS m1,
            (ARRAY['wechat', 'wechat', 'alipay', 'alipay', 'bank_card', 'cash', 'cash', 'other'])[1 + floor(random() * 8)::int] AS m2,
            random() AS r_split, random() AS r_deposit, random() AS r_extra, random() AS r_fix, random() AS r_member, random() AS r_owing, random() AS r_late,
            (ARRAY[20000, 30000, 50000])[1 + floor(random() * 3)::int] AS deposit,
            -(1500 + floor(random() * 66)::int * 100) AS extra,
            (ARRAY['Minibar', 'Laundry', 'Breakfast', 'Late check-out'])[1 + floor(random() * 4)::int] AS extra_note
       FROM gen_stay s WHERE s.stayed`,
  );
  await step(
    client,
    'bills (kinds)',
    `CREATE TEMP TABLE gen_folio AS
     SELECT b.*,
            b.r_member < 0.03 AS member,
            b.r_member >= 0.03 AND NOT b.owing AND b.r_split < 0.08 AS split,
            b.r_deposit < 0.75 AND NOT b.owing AS has_deposit,
            b.r_extra < 0.15 AS has_extra,
            b.r_extra < 0.15 AND b.r_fix < 0.1 AS extra_fixed,
            b.owing AND b.r_late < 0.5 AND b.left_at + (5 + floor(b.r_late * 100)) * interval '1 day' < now() AS owing_paid,
            1 + (b.stay_id % ${MEMBERS}) AS member_no
       FROM (SELECT b.*, b.r_owing < ${OWING} AND b.r_member >= 0.03 AND b.left_at IS NOT NULL AS owing FROM gen_bill b) b`,
  );

  // 3. The ledger, staged: each entry with its slot in its stay's bill (a refund or correction names the slot it gives back).
  await step(
    client,
    'entries (staged)',
    `CREATE TEMP TABLE gen_entry0 AS
     -- the room charge, at check-in (the posting rule: the whole price when the stay begins)
     SELECT f.stay_id, 1 AS slot, 'room_charge' AS kind, -f.amount AS amount, NULL AS method, '' AS note, NULL AS note_key, NULL::int AS link_slot, false AS to_member,
            f.check_in + interval '1 minute' AS at, f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f
     UNION ALL -- a member tops up the balance just before, then pays from it
     SELECT f.stay_id, 0, 'recharge', ((f.amount / 100000) + 1) * 100000, f.m2, '', NULL, NULL, true, f.check_in - interval '5 minutes', f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.member
     UNION ALL -- paid at check-in: what is owed later stays unpaid
     SELECT f.stay_id, 2, 'payment', CASE WHEN f.split THEN f.amount / 2 WHEN f.owing THEN f.amount - f.amount * 3 / 10 ELSE f.amount END,
            CASE WHEN f.member THEN 'balance' ELSE f.m1 END, '', NULL, NULL, f.member, f.check_in + interval '2 minutes', f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f
     UNION ALL
     SELECT f.stay_id, 3, 'payment', f.amount - f.amount / 2, f.m2, '', NULL, NULL, false, f.check_in + interval '3 minutes', f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.split
     UNION ALL
     SELECT f.stay_id, 4, 'deposit', f.deposit, f.m2, '', NULL, NULL, false, f.check_in + interval '4 minutes', f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.has_deposit
     UNION ALL -- an extra during the stay, and a tenth of them corrected an hour later
     SELECT f.stay_id, 5, 'charge', f.extra, NULL, f.extra_note, NULL, NULL, false,
            f.check_in + (least(f.expected, coalesce(f.left_at, now())) - f.check_in) * (0.2 + 0.6 * f.r_fix), f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.has_extra
     UNION ALL
     SELECT f.stay_id, 6, 'correction', -f.extra, NULL, 'Not taken', NULL, 5, false,
            f.check_in + (least(f.expected, coalesce(f.left_at, now())) - f.check_in) * (0.2 + 0.6 * f.r_fix + (0.8 - 0.6 * f.r_fix) * 0.5 * f.r_late), f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.extra_fixed
     UNION ALL -- at check-out: the deposit back, less the extra it paid
     SELECT f.stay_id, 7, 'refund', -(f.deposit + CASE WHEN f.has_extra AND NOT f.extra_fixed THEN f.extra ELSE 0 END), f.m2, '', 'orders.notes.depositRefund', 4, false,
            f.left_at - interval '1 minute', f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.left_at IS NOT NULL AND f.has_deposit
     UNION ALL -- or the extra paid at check-out
     SELECT f.stay_id, 8, 'payment', -f.extra, f.m1, '', 'orders.notes.settlementPayment', NULL, false, f.left_at - interval '2 minutes', f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.left_at IS NOT NULL AND NOT f.has_deposit AND f.has_extra AND NOT f.extra_fixed AND NOT f.owing
     UNION ALL -- a bill left owing, paid weeks later
     SELECT f.stay_id, 9, 'payment', f.amount * 3 / 10 - CASE WHEN f.has_extra AND NOT f.extra_fixed THEN f.extra ELSE 0 END, 'transfer', '', NULL, NULL, false,
            f.left_at + (5 + floor(f.r_late * 100)) * interval '1 day', f.desk, f.folio_id, f.room_id, f.member_no
       FROM gen_folio f WHERE f.owing_paid`,
  );
  await step(
    client,
    'entries (ids)',
    `CREATE TEMP TABLE gen_entry AS
     SELECT ${next!.entry} + row_number() OVER (ORDER BY at, stay_id, slot)::int AS id, e.* FROM gen_entry0 e`,
  );
  await client.query(`CREATE INDEX ON gen_entry (stay_id, slot)`);
  await client.query(`ANALYZE gen_stay; ANALYZE gen_folio; ANALYZE gen_entry`);

  // 4. Into the schema, in time order, through its triggers and foreign keys, but for the journal:
  //    posted set-based after the order entries (reports-journal.ts: its row triggers would take 4
  //    hours). The secondary indexes that no trigger reads are made again afterwards (faster than
  //    kept up row by row).
  const keep = [
    'Stay_pkey',
    'Stay_hotelId_id_key',
    'OrderEntry_pkey',
    'OrderEntry_hotelId_id_key',
    'OrderEntry_hotelId_linkedEntryId_idx',
    'OrderEntry_hotelId_customerId_createdAt_idx',
    'OrderEntry_one_correction_key',
    'Folio_pkey',
    'Folio_hotelId_id_key',
    // The journal's nights of a room charge find its visit by it (Journal_even_nights).
    'Stay_hotelId_visitStayId_idx',
    'JournalEntry_hotelId_id_key',
  ];
  const tables = ['Stay', 'OrderEntry', 'Folio', 'JournalEntry', 'JournalLine'];
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename = ANY($2) AND NOT (i.indexname = ANY($1))
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [keep, tables],
  );
  for (const i of indexes) await client.query(`DROP INDEX "${i.indexname}"`);
  // Their foreign keys too: added again afterwards, each checked in one statement over the table
  // (a row's check of its room locks the room's row: 50 µs a row).
  const { rows: foreignKeys } = await client.query<{ name: string; table: string; def: string }>(
    `SELECT conname AS name, conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE contype = 'f' AND conrelid = ANY($1::text[]::regclass[])`,
    [tables.map((t) => `"${t}"`)],
  );
  for (const f of foreignKeys) await client.query(`ALTER TABLE ${f.table} DROP CONSTRAINT "${f.name}"`);
  await step(
    client,
    'Stay',
    `INSERT INTO "Stay" ("id", "hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "checkedOutAt", "priceAmount", "depositAmount",
                         "awaitsArrival", "noShowAt", "cancelReason", "createdByAccountId", "createdAt", "updatedAt")
     SELECT s.id, $1, s.room_id,
            (CASE s.kind WHEN 'past' THEN 'checked_out' WHEN 'cancelled' THEN 'ended' WHEN 'no_show' THEN 'no_show'
                         WHEN 'now' THEN CASE WHEN s.left_at IS NULL THEN 'in_house' ELSE 'checked_out' END ELSE 'reserved' END)::"StayStatus",
            s.check_in, s.expected, s.left_at,
            -- an absent guest's booking: its nights at the room's rates (the weekend's on Friday and Saturday nights), so its first night's fee is that night's rate
            CASE WHEN s.stayed THEN s.amount
                 WHEN s.kind = 'absent' THEN (SELECT sum(CASE WHEN extract(dow FROM $4::date + k) IN (5, 6) THEN r."weekendPrice" ELSE r."usualPrice" END)::int
                                                FROM "Room" r CROSS JOIN generate_series(0, s.nights - 1) k WHERE r."id" = s.room_id)
                 ELSE s.price * s.nights END, 0,
            s.kind IN ('no_show', 'tonight', 'absent'),
            CASE s.kind WHEN 'no_show' THEN s.left_at WHEN 'tonight' THEN $3::timestamptz + interval '1 day' WHEN 'absent' THEN $3::timestamptz END,
            CASE WHEN s.kind = 'cancelled' THEN (ARRAY['guest_request', 'guest_request', 'duplicate', 'no_deposit'])[1 + floor(s.v * 4)::int] END,
            ($2::int[])[1 + s.id % ${STAFF}], s.created, coalesce(s.left_at, s.created)
       FROM gen_stay s ORDER BY s.id`,
    [hotelId, staff.map((s) => s.id), zonedToInstant(`${today}T00:00`, TZ), addDays(today, -1)],
  );
  await step(
    client,
    'Folio',
    `INSERT INTO "Folio" ("id", "hotelId", "stayId", "currency", "createdAt")
     SELECT f.folio_id, $1, f.stay_id, 'CNY', f.check_in FROM gen_folio f ORDER BY f.folio_id`,
    [hotelId],
  );
  const {
    rows: [span],
  } = await client.query<{ lo: number; hi: number }>(`SELECT min(id) AS lo, max(id) AS hi FROM gen_entry`);
  const chunk = 1_000_000;
  await journalTriggers(client, false);
  for (let lo = span!.lo; lo <= span!.hi; lo += chunk) {
    await step(
      client,
      `OrderEntry ${lo}`,
      `INSERT INTO "OrderEntry" ("id", "hotelId", "kind", "amount", "currency", "stayId", "roomId", "customerId", "folioId", "linkedEntryId", "method", "note",
                                 "noteKey", "createdByAccountId", "createdAt")
       SELECT e.id, $1, e.kind::"OrderEntryKind", e.amount, 'CNY', CASE WHEN e.kind <> 'recharge' THEN e.stay_id END, CASE WHEN e.kind <> 'recharge' THEN e.room_id END,
              CASE WHEN e.to_member THEN ($3::int[])[e.member_no] END, CASE WHEN e.kind <> 'recharge' THEN e.folio_id END, l.id, e.method::"PaymentMethod",
              e.note, e.note_key, ($2::int[])[1 + e.desk], e.at
         FROM gen_entry e LEFT JOIN gen_entry l ON e.link_slot IS NOT NULL AND l.stay_id = e.stay_id AND l.slot = e.link_slot
        WHERE e.id >= ${lo} AND e.id < ${lo + chunk} ORDER BY e.id`,
      [
        hotelId,
        staff.map((s) => s.id),
        (await client.query<{ id: number }>(`SELECT id FROM "Customer" WHERE "hotelId" = $1 ORDER BY id`, [hotelId])).rows.map((c) => c.id),
      ],
    );
  }
  await postJournal(client, hotelId, step);
  await journalTriggers(client, true);
  // The journal's indexes before the bills are settled: a bill left owing moves its balance to receivables (Folio_owing_journal reads its ledgers).
  const journalFirst = (i: { indexdef: string }) => /ON public\."Journal/.test(i.indexdef);
  for (const i of indexes.filter(journalFirst)) await step(client, i.indexname, i.indexdef);
  // Settled at check-out; left owing (and settled by the later payment, when paid).
  await step(
    client,
    'Folio settled',
    `UPDATE "Folio" f SET
       "settledAt" = CASE WHEN g.owing AND NOT g.owing_paid THEN NULL
                          WHEN g.owing THEN g.left_at + (5 + floor(g.r_late * 100)) * interval '1 day' ELSE g.left_at END,
       "settledByAccountId" = ($2::int[])[1 + g.desk],
       "owedAt" = CASE WHEN g.owing THEN g.left_at END,
       "owedAmount" = CASE WHEN g.owing THEN g.amount * 3 / 10 - CASE WHEN g.has_extra AND NOT g.extra_fixed THEN g.extra ELSE 0 END END,
       "owedReason" = CASE WHEN g.owing THEN 'company' END,
       "owedByAccountId" = CASE WHEN g.owing THEN ($2::int[])[1 + g.desk] END
     FROM gen_folio g WHERE f."hotelId" = $1 AND f."id" = g.folio_id AND g.left_at IS NOT NULL`,
    [hotelId, staff.map((s) => s.id)],
  );
  for (const i of indexes.filter((i) => !journalFirst(i))) await step(client, i.indexname, i.indexdef);
  for (const f of foreignKeys) await client.query(`ALTER TABLE ${f.table} ADD CONSTRAINT "${f.name}" ${f.def}`);
  await client.query(`SELECT setval(pg_get_serial_sequence('"Stay"', 'id'), (SELECT max(id) FROM "Stay"))`);
  await client.query(`SELECT setval(pg_get_serial_sequence('"Folio"', 'id'), (SELECT max(id) FROM "Folio"))`);
  await client.query(`SELECT setval(pg_get_serial_sequence('"OrderEntry"', 'id'), (SELECT max(id) FROM "OrderEntry"))`);
  await client.query(`DROP TABLE gen_chain, gen_stay0, gen_stay, gen_bill, gen_folio, gen_entry0, gen_entry`);
  return { hotelId, ownerId: owner!.id };
}

type Figures = TDayFigures;

/** The figures a recount and a report must agree on, flat: `methods.cash.net` and the like. */
function flat(f: Figures): Record<string, number> {
  const out: Record<string, number> = {
    'rooms.total': f.rooms.total,
    'rooms.outOfOrder': f.rooms.outOfOrder,
    'rooms.available': f.rooms.available,
    'rooms.sold': f.rooms.sold,
    occupancy: f.occupancy,
    adr: f.adr,
    revpar: f.revpar,
    arrivals: f.arrivals,
    departures: f.departures,
    stayOvers: f.stayOvers,
    noShows: f.noShows,
    cancellations: f.cancellations,
    'revenue.roomCharges': f.revenue.roomCharges,
    'revenue.charges': f.revenue.charges,
    'revenue.total': f.revenue.total,
    received: f.received,
    refunded: f.refunded,
    'owing.count': f.owing.count,
    'owing.total': f.owing.total,
    depositsHeld: f.depositsHeld,
  };
  for (const l of f.methods)
    for (const k of ['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net', 'count'] as const) out[`methods.${l.method}.${k}`] = l[k];
  return out;
}

/** Throws naming every figure that differs (a figure missing on one side counts as 0). */
function same(what: string, a: Figures, b: Figures, aName: string, bName: string) {
  const x = flat(a);
  const y = flat(b);
  const diffs = [...new Set([...Object.keys(x), ...Object.keys(y)])]
    .filter((k) => (x[k] ?? 0) !== (y[k] ?? 0))
    .map((k) => `${k}: ${x[k] ?? 0} ${aName}, ${y[k] ?? 0} ${bName}`);
  if (diffs.length) throw new Error(`${what}: ${diffs.length} figures differ\n  ${diffs.join('\n  ')}`);
}

/**
 * A day's figures recounted in SQL written apart from the service's (docs/reports.md's definitions,
 * room by room and entry by entry), and derived as the doc says.
 */
async function recount(client: pg.Client, hotelId: number, date: string, from: Date, to: Date): Promise<Figures> {
  // The stays with a guest in the room at instant $3 (the night), by state: when the guest left or
  // leaves (read by when they left, or among the active stays, not by the range index the report uses).
  const night = `
      SELECT s."roomId", s."visitStayId" FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" IN ('checked_out', 'moved') AND s."checkedOutAt" > $3 AND s."checkInAt" < $3
      UNION ALL
      SELECT s."roomId", s."visitStayId" FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" = 'in_house' AND s."checkInAt" < $3 AND s."expectedCheckOutAt" > $3
      UNION ALL
      SELECT s."roomId", s."visitStayId" FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" = 'expired' AND s."checkInAt" < $3 AND greatest(s."expectedCheckOutAt", now()) > $3`;
  const {
    rows: [c],
  } = await client.query<Record<string, string>>(
    `SELECT
       (SELECT count(*) FROM "Room" r WHERE r."hotelId" = $1 AND r."createdAt" < $3 AND coalesce(r."deletedAt", 'infinity') >= $3) AS total,
       (SELECT count(*) FROM "Room" r WHERE r."hotelId" = $1 AND r."createdAt" < $3 AND coalesce(r."deletedAt", 'infinity') >= $3 AND r."maintenance" IN ('out_of_order', 'out_of_service')) AS out_of_order,
       (SELECT count(DISTINCT n."roomId") FROM (${night}) n) AS sold,
       (SELECT count(DISTINCT n."roomId") FROM (${night}) n JOIN "Stay" v ON v."hotelId" = $1 AND v."id" = n."visitStayId" WHERE v."checkInAt" < $2) AS stay_overs,
       (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = $1 AND s."id" = s."visitStayId" AND s."checkInAt" >= $2 AND s."checkInAt" < $3
          AND (s."status" IN ('in_house', 'expired', 'checked_out') OR (s."status" = 'moved' AND s."checkedOutAt" IS NOT NULL))) AS arrivals,
       (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" = 'checked_out' AND s."checkedOutAt" >= $2 AND s."checkedOutAt" < $3) AS departures,
       (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" = 'no_show' AND s."checkInAt" >= $2 AND s."checkInAt" < $3) AS no_shows,
       (SELECT count(*) FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" = 'ended' AND s."checkedOutAt" >= $2 AND s."checkedOutAt" < $3) AS cancellations,
       (SELECT coalesce(-sum(l."amount"), 0) FROM "JournalEntry" e JOIN "JournalLine" l ON l."journalEntryId" = e."id"
          WHERE e."hotelId" = $1 AND l."account" = 'revenue_rooms' AND l."serviceDate" = $4) AS room,
       (SELECT coalesce(-sum(e."amount"), 0) FROM "OrderEntry" e WHERE e."hotelId" = $1 AND e."createdAt" >= $2 AND e."createdAt" < $3 AND (e."kind" = 'charge'
          OR (e."kind" = 'correction' AND EXISTS (SELECT 1 FROM "OrderEntry" l WHERE l."hotelId" = $1 AND l."id" = e."linkedEntryId" AND l."kind" = 'charge')))) AS other,
       (SELECT coalesce(-sum(l."amount"), 0) FROM "JournalEntry" e JOIN "JournalLine" l ON l."journalEntryId" = e."id"
          WHERE e."hotelId" = $1 AND e."businessDate" = $4 AND l."account" = 'tax_payable') AS taxes,
       -- Bills owing and deposits held as the day ended ($3): the entries written before it, on the bills
       -- not settled by then (the bench's hotels have no audit hour: the business date is the calendar's).
       (SELECT count(*) FROM (SELECT f."id" FROM "Folio" f JOIN "OrderEntry" e ON e."hotelId" = $1 AND e."folioId" = f."id" AND e."createdAt" < $3
          WHERE f."hotelId" = $1 AND f."owedAt" < $3 AND coalesce(f."settledAt", 'infinity') >= $3 GROUP BY f."id" HAVING sum(e."amount") < 0) o) AS owing_count,
       (SELECT coalesce(-sum(b), 0) FROM (SELECT sum(e."amount") AS b FROM "Folio" f JOIN "OrderEntry" e ON e."hotelId" = $1 AND e."folioId" = f."id" AND e."createdAt" < $3
          WHERE f."hotelId" = $1 AND f."owedAt" < $3 AND coalesce(f."settledAt", 'infinity') >= $3 GROUP BY f."id" HAVING sum(e."amount") < 0) o) AS owing_total,
       (SELECT coalesce(sum(CASE WHEN EXISTS (SELECT 1 FROM "OrderEntry" c WHERE c."hotelId" = $1 AND c."linkedEntryId" = d."id" AND c."kind" = 'correction' AND c."createdAt" < $3) THEN 0
                                 ELSE d."amount" + coalesce((SELECT sum(r."amount") FROM "OrderEntry" r WHERE r."hotelId" = $1 AND r."linkedEntryId" = d."id" AND r."kind" = 'refund' AND r."createdAt" < $3
                                   AND NOT EXISTS (SELECT 1 FROM "OrderEntry" rc WHERE rc."hotelId" = $1 AND rc."linkedEntryId" = r."id" AND rc."kind" = 'correction' AND rc."createdAt" < $3)), 0) END), 0)
          FROM "Folio" f JOIN "OrderEntry" d ON d."hotelId" = $1 AND d."folioId" = f."id" AND d."kind" = 'deposit' AND d."createdAt" < $3
          WHERE f."hotelId" = $1 AND coalesce(f."settledAt", 'infinity') >= $3) AS held`,
    [hotelId, from, to, date],
  );
  const { rows: money } = await client.query<{ method: TPaymentMethod; kind: string; amount: string; count: string }>(
    `SELECT e."method"::text AS method, e."kind"::text AS kind, sum(e."amount") AS amount, count(*) AS count FROM "OrderEntry" e
      WHERE e."hotelId" = $1 AND e."createdAt" >= $2 AND e."createdAt" < $3 AND e."method" IS NOT NULL GROUP BY 1, 2`,
    [hotelId, from, to],
  );
  const num = (k: string) => Number(c![k]);
  const methods = new Map<TPaymentMethod, Figures['methods'][number]>();
  let received = 0;
  let refunded = 0;
  for (const m of money) {
    const line = methods.get(m.method) ?? { method: m.method, deposits: 0, payments: 0, recharges: 0, refunds: 0, corrections: 0, net: 0, count: 0 };
    methods.set(m.method, line);
    const amount = Number(m.amount);
    const field = ({ deposit: 'deposits', payment: 'payments', recharge: 'recharges', refund: 'refunds', correction: 'corrections' } as const)[
      m.kind as 'deposit'
    ];
    if (field) line[field] += amount;
    line.net += amount;
    line.count += Number(m.count);
    if (m.method === 'balance') continue;
    if (['deposit', 'payment', 'recharge'].includes(m.kind)) received += amount;
    if (m.kind === 'refund') refunded -= amount;
  }
  const total = num('total');
  const available = total - num('out_of_order');
  const sold = num('sold');
  const room = num('room');
  return {
    rooms: { total, outOfOrder: num('out_of_order'), available, sold },
    occupancy: available ? Math.round((sold * 1000) / available) / 10 : 0,
    adr: sold ? Math.round(room / sold) : 0,
    revpar: available ? Math.round(room / available) : 0,
    arrivals: num('arrivals'),
    departures: num('departures'),
    stayOvers: num('stay_overs'),
    noShows: num('no_shows'),
    cancellations: num('cancellations'),
    revenue: { roomCharges: room, charges: num('other'), total: room + num('other'), taxes: num('taxes') },
    methods: [...methods.values()],
    received,
    refunded,
    owing: { count: num('owing_count'), total: num('owing_total') },
    depositsHeld: num('held'),
  };
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const hotelDay = (date: string) => ({ from: zonedToInstant(`${date}T00:00`, TZ)!, to: zonedToInstant(`${addDays(date, 1)}T00:00`, TZ)! });

async function main() {
  console.log(
    `# The manager's day on a ${ROOMS.toLocaleString('en')}-room hotel (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`,
  );
  const reuse = process.env.BENCH_DATABASE_URL;
  const db = reuse ? { url: reuse, drop: async () => {} } : await createScratchDatabase(adminUrl, 'benchreports', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await applyMigrations(db.url);
    await client.connect();
    const {
      rows: [pgVersion],
    } = await client.query<{ server_version: string }>('SHOW server_version');
    const t = performance.now();
    let g: { hotelId: number; ownerId: number };
    if (reuse) {
      const {
        rows: [o],
      } = await client.query<{ id: number; hotelId: number }>(
        `SELECT a."id", m."hotelId" FROM "Account" a JOIN "Membership" m ON m."accountId" = a."id" WHERE a."mobile" = $1`,
        [OWNER_MOBILE],
      );
      g = { hotelId: o!.hotelId, ownerId: o!.id };
    } else {
      g = await generate(client);
    }
    const genMs = performance.now() - t;
    const tv = performance.now();
    if (!reuse) await client.query('VACUUM ANALYZE');
    const vacuumMs = performance.now() - tv;
    const {
      rows: [counts],
    } = await client.query<{ rooms: number; stays: number; in_house: number; folios: number; entries: number; size: string }>(
      `SELECT (SELECT count(*)::int FROM "Room" WHERE "hotelId" = $1) AS rooms, (SELECT count(*)::int FROM "Stay" WHERE "hotelId" = $1) AS stays,
              (SELECT count(*)::int FROM "Stay" WHERE "hotelId" = $1 AND "status" = 'in_house') AS in_house,
              (SELECT count(*)::int FROM "Folio" WHERE "hotelId" = $1) AS folios, (SELECT count(*)::int FROM "OrderEntry" WHERE "hotelId" = $1) AS entries,
              pg_size_pretty(pg_database_size(current_database())) AS size`,
      [g.hotelId],
    );
    console.log(
      `PostgreSQL ${pgVersion!.server_version}. ${reuse ? 'Reused' : 'Generated'} ${counts!.rooms.toLocaleString('en')} rooms, ${counts!.stays.toLocaleString('en')} stays over ${DAYS} days (${counts!.in_house.toLocaleString('en')} in house now), ${counts!.folios.toLocaleString('en')} bills, ${counts!.entries.toLocaleString('en')} ledger entries${reuse ? '' : ` in ${fmt(genMs / 1000)} s, then VACUUM ANALYZE in ${fmt(vacuumMs / 1000)} s`} (database ${counts!.size}).\n`,
    );

    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: `benchreports:${process.pid}`,
      LOCK_PROVIDER: 'none',
      SCHEDULE_SWEEPS: 'false',
    });
    deps = await createDeps(config, db.url, createLogger(config), { locks: null });
    const d = deps;
    app = await buildApp(d);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
    const { token } = await createSession(d, { accountId: g.ownerId, hotelId: g.hotelId, kind: 'web', meta });
    const owner: AuthedContext = { deps: d, meta, actor: await resolveSession(d, token, 'web') };
    const headers = { cookie: `${COOKIES.session}=${token}`, origin: base, language: 'en' };
    const viaHttp = async <T>(procedure: string, input: unknown): Promise<T> => {
      const response = await fetch(`${base}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
      const body = (await response.json()) as { result?: { data: T }; error?: unknown };
      if (!response.ok || !body.result) throw new Error(`${procedure}: ${response.status} ${JSON.stringify(body.error)}`);
      return body.result.data;
    };

    // The days: today (open), yesterday (every room in house: closed below), a past day and the last whole calendar month (open).
    const today = localDate(new Date(), TZ);
    const yesterday = addDays(today, -1);
    const monthFrom = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
    const monthTo = addDays(`${today.slice(0, 7)}-01`, -1);
    const pastDay = `${monthFrom.slice(0, 7)}-15`;
    // The month before: its days closed one by one below, as a hotel that closes its days (by hand or at its set hour) has them.
    const closedFrom = `${addDays(monthFrom, -1).slice(0, 7)}-01`;
    const closedTo = sized(addDays(monthFrom, -1), addDays(closedFrom, 2)); // a smoke run closes 3 days
    const { rows: closedRows } = await client.query<{ date: string }>(`SELECT "date" FROM "DayClose" WHERE "hotelId" = $1`, [g.hotelId]);
    const closedDays = new Set(closedRows.map((r) => r.date));
    let closeDate = yesterday;
    while (closedDays.has(closeDate)) closeDate = addDays(closeDate, -1); // a reused database: the first day not closed yet
    if (closeDate < monthTo) throw new Error(`the days after ${monthTo} are closed: generate the database anew`);

    // Checks: each report against its recount; the full house; a month against its days.
    const checkDay = async (date: string) => {
      const { from, to } = hotelDay(date);
      const report = await dayReport(owner, { date });
      same(`${date}`, report, await recount(client, g.hotelId, date, from, to), 'in the report', 'recounted');
      return report;
    };
    const checked = { today: await checkDay(today), past: await checkDay(pastDay), close: await checkDay(closeDate) };
    // The day to close: every room in house but those whose guest never came, awaited still (the close's no-shows).
    const { from: closeFrom, to: closeTo } = hotelDay(closeDate);
    const pending = await pendingNoShows(client, g.hotelId, closeDate, closeFrom, closeTo);
    const absent = Math.floor(ROOMS / ABSENT_EVERY);
    if (!reuse && (pending.size !== absent || checked.close.rooms.sold !== ROOMS - absent))
      throw new Error(
        `${closeDate}: ${checked.close.rooms.sold} rooms sold and ${pending.size} reservations awaited, the generator filled ${ROOMS - absent} and left ${absent} awaited`,
      );
    // The month's first report: its days over summed and kept (keptEntrySums), once; then read.
    await client.query(`DELETE FROM "LedgerDaySum" WHERE "hotelId" = $1 AND "date" >= $2 AND "date" <= $3`, [g.hotelId, monthFrom, monthTo]);
    const firstStart = performance.now();
    const month = await reportRange(owner, { from: monthFrom, to: monthTo });
    const firstMonthMs = performance.now() - firstStart;
    // Each day (a smoke run: one in five, the same code).
    for (const day of month.days.filter((_, i) => i % sized(1, 5) === 0))
      same(`${day.date} in the month`, day, await dayReport(owner, { date: day.date }), 'in the month', 'its day');
    const {
      rows: [nights],
    } = await client.query<{ nights: number; room: string }>(
      `SELECT (SELECT count(*)::int FROM generate_series($2::timestamptz + interval '1 day', $3::timestamptz, interval '1 day') t
                JOIN (SELECT s."checkInAt" AS "in", s."checkedOutAt" AS "out" FROM "Stay" s
                       WHERE s."hotelId" = $1 AND s."status" = 'checked_out' AND s."checkedOutAt" > $2 AND s."checkInAt" < $3
                      UNION ALL
                      SELECT s."checkInAt", s."expectedCheckOutAt" FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" = 'in_house' AND s."checkInAt" < $3) s
                  ON s."in" < t AND s."out" > t) AS nights,
              (SELECT -sum(l."amount") FROM "JournalEntry" e JOIN "JournalLine" l ON l."journalEntryId" = e."id"
                WHERE e."hotelId" = $1 AND l."account" = 'revenue_rooms' AND l."serviceDate" BETWEEN $4 AND $5) AS room`,
      [g.hotelId, hotelDay(monthFrom).from, hotelDay(monthTo).to, monthFrom, monthTo],
    );
    if (month.total.rooms.sold !== nights!.nights || month.total.revenue.roomCharges !== Number(nights!.room))
      throw new Error(
        `${monthFrom} to ${monthTo}: ${month.total.rooms.sold} room-nights and ${month.total.revenue.roomCharges} room revenue in the report, ${nights!.nights} and ${nights!.room} recounted`,
      );
    console.log(
      `Checked against a recount in SQL: today ${today} (${checked.today.rooms.sold} sold, revenue ${checked.today.revenue.total / 100} CNY), ${pastDay} (${checked.past.rooms.sold} sold, occupancy ${checked.past.occupancy} %, revenue ${checked.past.revenue.total / 100} CNY, ${checked.past.methods.length} ways of paying), ${closeDate} (${checked.close.rooms.sold} of ${checked.close.rooms.total} sold, ${checked.close.arrivals} arrivals, ${checked.close.departures} departures, ${checked.close.noShows} no-shows, ${checked.close.cancellations} cancellations); the month ${monthFrom} to ${monthTo}: ${sized('each', 'one in five')} of its ${month.days.length} days equal to its day's report, ${month.total.rooms.sold} room-nights and ${month.total.revenue.roomCharges / 100} CNY of room revenue recounted.\n`,
    );

    // The statements alone, on the service's pool, as the service sends them (the baseline).
    const pool = d.pool;
    const dayCloseSql = `SELECT "id", "hotelId", "date", "closedAt", "closedByAccountId", "automatic", "report" FROM "DayClose" WHERE "hotelId" = $1 AND "date" = $2 LIMIT 1`;
    const standingAlone = async (dates: string[]) => {
      for (const q of Object.values(
        standingSql(
          g.hotelId,
          dates,
          dates.map((x) => hotelDay(x).to),
        ),
      ))
        await pool.query(q.text, q.values);
    };
    // As rangeFigures with keptDays: the rooms, the stays, the nights, and the ledger's sums and what the
    // hotel stood at, those kept of the days that are over read, the others' computed (the entries of the
    // span of them summed; the standing of each), side by side.
    const spanAlone = async (dates: string[]) => {
      const bounds = [...dates.map((x) => hotelDay(x).from), hotelDay(dates[dates.length - 1]!).to];
      const sql = figuresSql(g.hotelId, bounds, dates);
      const keptAlone = async () => {
        const { rows } = await pool.query<{ date: string; sums: unknown; standing: unknown; extras: unknown }>(
          `SELECT "hotelId", "date", "dayStart", "dayEnd", "sums", "standing", "extras", "createdAt" FROM "LedgerDaySum" WHERE "hotelId" = $1 AND "date" = ANY($2::text[])`,
          [g.hotelId, dates],
        );
        const kept = new Map(rows.map((r) => [r.date, r]));
        const noSums = dates.flatMap((x, k) => (kept.get(x)?.sums ? [] : [k]));
        const noStand = dates.filter((x) => !kept.get(x)?.standing);
        const noExtras = dates.filter((x) => !kept.get(x)?.extras);
        if (!noSums.length && !noStand.length && !noExtras.length) return;
        // Which of them are over (the business date), then the entries of the span of them, the standing and the other revenue of each.
        await pool.query(`SELECT "Hotel_business_date"($1::int, $2::timestamptz)::text AS "date"`, [g.hotelId, new Date()]);
        const entries = noSums.length ? entriesSql(g.hotelId, dates.slice(noSums[0]!, noSums[noSums.length - 1]! + 1)) : null;
        const extras = noExtras.length ? extrasSql(g.hotelId, noExtras) : null;
        await Promise.all([
          entries && pool.query(entries.text, entries.values),
          noStand.length ? standingAlone(noStand) : null,
          extras && pool.query(extras.text, extras.values),
        ]);
      };
      await Promise.all([
        pool.query(sql.rooms.text, sql.rooms.values),
        pool.query(sql.stays.text, sql.stays.values),
        pool.query(sql.nights.text, sql.nights.values),
        keptAlone(),
      ]);
    };
    const figuresAlone = (date: string) => spanAlone([date]);
    const dayAlone = async (date: string) => {
      const {
        rows: [closed],
      } = await pool.query<{ closedByAccountId: number | null }>(dayCloseSql, [g.hotelId, date]);
      if (closed) {
        if (closed.closedByAccountId !== null) await pool.query(`SELECT "id", "nickname" FROM "Account" WHERE "id" = $1 LIMIT 1`, [closed.closedByAccountId]);
        return;
      }
      await figuresAlone(date);
    };
    // As reportRange: the closed days' rows and their closers at once, the open days' span in one go.
    const rangeAlone = async (from: string, to: string) => {
      const dates: string[] = [];
      for (let x = from; x <= to; x = addDays(x, 1)) dates.push(x);
      const { rows: closed } = await pool.query<{ date: string; closedByAccountId: number | null }>(
        `SELECT "id", "hotelId", "date", "closedAt", "closedByAccountId", "automatic", "report" FROM "DayClose" WHERE "hotelId" = $1 AND "date" = ANY($2::text[])`,
        [g.hotelId, dates],
      );
      const closers = [...new Set(closed.flatMap((c) => (c.closedByAccountId === null ? [] : [c.closedByAccountId])))];
      if (closers.length) await pool.query(`SELECT "id", "nickname" FROM "Account" WHERE "id" = ANY($1::int[])`, [closers]);
      const shut = new Set(closed.map((c) => c.date));
      const open = dates.filter((x) => !shut.has(x));
      if (open.length) await spanAlone(dates.slice(dates.indexOf(open[0]!), dates.indexOf(open[open.length - 1]!) + 1));
    };

    if (process.env.BENCH_EXPLAIN) {
      const { from, to } = hotelDay(pastDay);
      for (const [name, q] of [...Object.entries(dayFiguresSql(g.hotelId, pastDay, from, to)), ...Object.entries(standingSql(g.hotelId, [pastDay], [to]))]) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values);
        console.log(`EXPLAIN ANALYZE, ${name} of ${pastDay}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
      }
    }

    // An install's nightly sweep keeps a checkpoint of the books every night (decision 067); a hotel
    // generated here has none. Its first reads the whole journal, once (the sweep's job: nobody waits
    // for it), timed; then the month before last is closed day by day (each close keeps its day), and
    // the sweep's checkpoints are kept from there to the day before the close: the books as a hotel
    // running this version has them when its manager closes a day.
    const firstCheckpoint = await keepSweepCheckpoints(owner, g.hotelId, addDays(closedFrom, -1), addDays(closedFrom, -1));
    // Each day of the month before closed, one after the other, each timed; then the month's frozen days are its open days.
    const openMonth = await reportRange(owner, { from: closedFrom, to: closedTo });
    const closes: { date: string; sold: number; ms: number }[] = [];
    for (const day of openMonth.days) {
      if (day.closed) continue;
      const start = performance.now();
      const closed = await closeDay(owner, { date: day.date });
      closes.push({ date: day.date, sold: closed.rooms.sold, ms: performance.now() - start });
    }
    const closedMonth = await reportRange(owner, { from: closedFrom, to: closedTo });
    for (const [i, day] of closedMonth.days.entries()) {
      if (!day.closed) throw new Error(`${day.date}: not closed`);
      same(`${day.date} closed`, day, openMonth.days[i]!, 'frozen', 'open before the close');
    }
    same(`${closedFrom} to ${closedTo}`, closedMonth.total, openMonth.total, 'closed', 'open before the close');
    console.log(`Closed the ${closes.length} days of ${closedFrom} to ${closedTo} one by one: the month's frozen days and sums equal its open ones.\n`);

    const sweep = await keepSweepCheckpoints(owner, g.hotelId, addDays(closedTo, 1), addDays(closeDate, -1));
    console.log(
      `The hotel's first checkpoint (${addDays(closedFrom, -1)}, its whole journal read once): ${fmt(firstCheckpoint.ms / 1000, 1)} s; the nightly sweep's of the ${sweep.kept} days from ${addDays(closedTo, 1)} to ${addDays(closeDate, -1)}: ${fmt(sweep.ms / 1000, 1)} s.\n`,
    );

    // The night audit: the close of a day with every room in house but the no-shows it releases and
    // charges, against the same day's figures and trial balance computed alone just before.
    const aloneStart = performance.now();
    await figuresAlone(closeDate);
    const aloneMs = performance.now() - aloneStart;
    const tbAloneStart = performance.now();
    await trialBalanceAlone(pool, g.hotelId, closeDate);
    const tbAloneMs = performance.now() - tbAloneStart;
    const closeStart = performance.now();
    const closedReport = await closeDay(owner, { date: closeDate });
    const closeMs = performance.now() - closeStart;
    if (!closedReport.closed) throw new Error(`${closeDate}: not closed`);
    same(
      `${closeDate} closed`,
      closedReport,
      { ...checked.close, noShows: checked.close.noShows + pending.size },
      'frozen',
      'open before the close, its no-shows released',
    );
    same(
      `${closeDate} closed`,
      await dayReport(owner, { date: closeDate }),
      await recount(client, g.hotelId, closeDate, closeFrom, closeTo),
      'frozen',
      'recounted',
    );
    // Each no-show with its fee, at its first night's rate, in the journal; the books of the day closed and of the fees' day tie; today's report with the fees recounted.
    const fees = await checkNightAudit(client, d.prisma, g.hotelId, closeDate, pending, reuse ? null : absent);
    await checkDay(localDate(new Date(), TZ));
    console.log(
      `Closed ${closeDate}: ${fees.count} no-shows released, ${fees.charged} charged their first night (${fees.total / 100} CNY, each its room's rate of that night, booked as other revenue on ${fees.dates.join(', ') || 'no day'}); the frozen figures equal the open report before the close (its no-shows added) and a recount after it; the trial balances of ${[...new Set([closeDate, ...fees.dates])].join(' and ')} tie; today's report, the fees in it, equals its recount.\n`,
    );

    const rounds = Number(process.env.BENCH_ROUNDS ?? sized(20, 1));
    const perRound = sized(5, 1);
    const cases: { name: string; base?: string; fn: () => Promise<unknown> }[] = [
      { name: `dayReport, today ${today} (open)`, base: 'today alone', fn: () => dayReport(owner, { date: today }) },
      { name: 'order.dayReport over HTTP, today', base: 'today alone', fn: () => viaHttp('order.dayReport', { date: today }) },
      { name: 'today alone', fn: () => dayAlone(today) },
      { name: `dayReport, ${pastDay} (open)`, base: `${pastDay} alone`, fn: () => dayReport(owner, { date: pastDay }) },
      { name: `${pastDay} alone`, fn: () => dayAlone(pastDay) },
      { name: `dayReport, ${closeDate} (closed)`, base: `${closeDate} alone`, fn: () => dayReport(owner, { date: closeDate }) },
      { name: `${closeDate} alone`, fn: () => dayAlone(closeDate) },
      { name: `reportRange, ${monthFrom} to ${monthTo} (open)`, base: 'the month alone', fn: () => reportRange(owner, { from: monthFrom, to: monthTo }) },
      { name: 'order.reportRange over HTTP, the month', base: 'the month alone', fn: () => viaHttp('order.reportRange', { from: monthFrom, to: monthTo }) },
      { name: 'the month alone', fn: () => rangeAlone(monthFrom, monthTo) },
      {
        name: `reportRange, ${closedFrom} to ${closedTo} (closed)`,
        base: 'the closed month alone',
        fn: () => reportRange(owner, { from: closedFrom, to: closedTo }),
      },
      { name: 'the closed month alone', fn: () => rangeAlone(closedFrom, closedTo) },
    ];
    if (!SMOKE) for (const c of cases) await c.fn(); // warm-up
    const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const c of shuffle(cases)) {
        for (let i = 0; i < perRound; i++) {
          const start = performance.now();
          await c.fn();
          times.get(c.name)!.push(performance.now() - start);
        }
      }
    }
    const stat = (name: string) => ({ p50: median(times.get(name)!), p95: percentile(times.get(name)!, 95) });
    console.log(`${rounds} rounds of ${perRound} calls each, one after another, cases shuffled in each round; the statements alone on the service's pool.\n`);
    console.log('| call | p50 ms | p95 ms | the statements alone p50 / p95 ms | p95 ratio |');
    console.log('|---|---:|---:|---:|---:|');
    for (const c of cases) {
      if (!c.base) continue;
      const s = stat(c.name);
      const b = stat(c.base);
      console.log(`| ${c.name} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(b.p50)} / ${fmt(b.p95)} | ${fmt(s.p95 / b.p95, 2)} |`);
    }
    const worst = Math.max(...cases.filter((c) => c.base).map((c) => stat(c.name).p95));
    target("A report's p95 under 200 ms", worst < 200, `worst ${fmt(worst)} ms`);
    console.log(`The month's first report, its ${month.days.length} days' ledgers summed and kept on the way: ${fmt(firstMonthMs)} ms (once).\n`);
    console.log(
      '| day closed | rooms in house (sold) | no-shows released (charged, CNY) | its figures alone ms | its trial balance alone ms | closeDay ms | ratio to both alone |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${closeDate} | ${closedReport.rooms.sold.toLocaleString('en')} | ${fees.count} (${fees.charged}, ${(fees.total / 100).toLocaleString('en')}) | ${fmt(aloneMs)} | ${fmt(tbAloneMs)} | ${fmt(closeMs)} | ${fmt(closeMs / (aloneMs + tbAloneMs), 2)} |`,
    );
    const closeTimes = closes.map((c) => c.ms);
    const sold = closes.map((c) => c.sold);
    if (closes.length)
      console.log(
        `| the ${closes.length} days of ${closedFrom.slice(0, 7)}, one by one: median (max) | ${Math.min(...sold).toLocaleString('en')} to ${Math.max(...sold).toLocaleString('en')} | 0 | | | ${fmt(median(closeTimes))} (${fmt(Math.max(...closeTimes))}) | |`,
      );
    const slowest = Math.max(closeMs, ...closeTimes);
    target('The close under 30 s', slowest < 30_000, `slowest ${fmt(slowest / 1000, 2)} s`);
    target(
      `The night audit with ${fees.charged} no-shows charged under 30 s`,
      closeMs < 30_000,
      `${fmt(closeMs / 1000, 2)} s (${fees.count} no-shows released)`,
    );

    // The trial balance page's call and the standing-by-day statement (decision 062), each against its statements alone.
    await timeLedger({ owner, pool, hotelId: g.hotelId, viaHttp, hotelDay, today, pastDay, closeDate, month, most: rounds * perRound });
  } finally {
    if (app) await app.close();
    if (deps) await closeDeps(deps);
    await client.end().catch(() => {});
    if (process.env.BENCH_KEEP_DB) console.log(`Kept ${db.url}`);
    else await db.drop();
  }
}

process.chdir(root);
await main();
