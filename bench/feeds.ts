/**
 * `pnpm --filter @console/bench run feeds`: issue 20 §1 at scale, calendar feeds.
 *   A hotel of BENCH_FEED_ROOMS rooms (default 1,000), each with a feed served by this process on
 *   127.0.0.1 (an Airbnb-shaped .ics of BENCH_FEED_BOOKINGS bookings, default 10: 10,000 in all,
 *   two nights each, from the day after tomorrow on).
 *   - baseline: the same feeds read alone, as any reader of them must (`fetchFeedText` +
 *     `parseFeed`: HTTP, the size check, ical.js), 4 at a time like the feeds worker;
 *   - cycle: one import cycle, `readFeed` of every feed, 4 at a time (the worker's concurrency): the
 *     first makes the reservations, the next find nothing changed, the last after one booking in ten
 *     moved a day.
 *   Baselines and unchanged cycles alternate (A B B A, three times) so the machine's load hits
 *   them alike. The database work of each cycle is read from pg_stat_database (transactions, rows
 *   read, written), 11 s after the cycle so that every connection has reported its counts.
 *
 * Environment: BENCH_FEED_ROOMS, BENCH_FEED_BOOKINGS, BENCH_KEEP_DB=1. A smoke run (BENCH_SMOKE=1): 10
 * rooms of 2 bookings (20 reservations, 2 of them moved), no warm-up, one round, and no wait for
 * pg_stat_database (its figures are not read then); every count checked the same.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { addDays, localDate } from '@console/shared';
import { loadConfig } from '../apps/server/src/config.ts';
import { jobContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { fetchFeedText } from '../apps/server/src/modules/feeds/feed-fetch.ts';
import { readFeed, type FeedReadResult } from '../apps/server/src/modules/feeds/feed-import.ts';
import { parseFeed } from '../apps/server/src/modules/feeds/ical-parse.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { fmt, median, sized, SMOKE } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
// A smoke run: 10 rooms of 2 bookings (a feed of several bookings, a block between them): one in ten
// moved is 2 of them.
const ROOMS = Number(process.env.BENCH_FEED_ROOMS ?? sized(1_000, 10));
const BOOKINGS = Number(process.env.BENCH_FEED_BOOKINGS ?? sized(10, 2));
const CONCURRENCY = 4;
const TZ = 'Asia/Shanghai';
const HOTEL_TIMES = { timeZone: TZ, checkInTime: '15:00', checkOutTime: '11:00' };

/** Which bookings have moved a day (room index -> booking indexes). */
const moved = new Set<string>();

function ics(room: number): string {
  const today = localDate(new Date(), TZ);
  const day = (n: number) => addDays(today, n).replaceAll('-', '');
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN', 'CALSCALE:GREGORIAN'];
  for (let k = 0; k < BOOKINGS; k++) {
    const shift = moved.has(`${room}:${k}`) ? 1 : 0;
    const from = 2 + 4 * k + shift;
    lines.push(
      'BEGIN:VEVENT',
      'DTSTAMP:20261101T000000Z',
      `DTSTART;VALUE=DATE:${day(from)}`,
      `DTEND;VALUE=DATE:${day(from + 2)}`,
      `UID:${room}-${k}@airbnb.com`,
      'SUMMARY:Reserved',
      `DESCRIPTION:Reservation URL: https://www.airbnb.com/hosting/reservations/details/HM${String(room).padStart(4, '0')}${k}\\nPhone Number (Last 4 Digits): ${String(1000 + k)}`,
      'END:VEVENT',
    );
    // A block between bookings, as channels send them.
    lines.push(
      'BEGIN:VEVENT',
      'DTSTAMP:20261101T000000Z',
      `DTSTART;VALUE=DATE:${day(from + 2)}`,
      `DTEND;VALUE=DATE:${day(from + 3)}`,
      `UID:${room}-${k}-block@airbnb.com`,
      'SUMMARY:Airbnb (Not available)',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

async function inParallel<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

interface DbWork {
  transactions: number;
  rowsRead: number;
  rowsWritten: number;
  /** Rows read by sequential scans, by table (the largest). */
  seqRead: Record<string, number>;
}

async function main() {
  console.log(`# Calendar feeds at scale (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const server = createServer((req, res) => {
    const m = /^\/feed\/(\d+)\.ics$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(ics(Number(m[1])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const db = await createScratchDatabase(adminUrl, 'benchfeed', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  try {
    await client.connect();
    const {
      rows: [hotel],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Hotel" ("name", "timeZone", "checkInTime", "checkOutTime", "updatedAt") VALUES ('Feeds', $1, $2, $3, now()) RETURNING "id"`,
      [TZ, HOTEL_TIMES.checkInTime, HOTEL_TIMES.checkOutTime],
    );
    const hotelId = hotel!.id;
    const { rows: rooms } = await client.query<{ id: number; i: number }>(
      `INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "updatedAt")
       SELECT $1, 'F' || lpad(i::text, 4, '0'), i, 30000, now() FROM generate_series(1, $2::int) i ORDER BY i RETURNING "id", "sortOrder" AS i`,
      [hotelId, ROOMS],
    );
    const { rows: feeds } = await client.query<{ id: number }>(
      `INSERT INTO "CalendarFeed" ("hotelId", "roomId", "label", "url", "updatedAt")
       SELECT $1, r.id, 'Airbnb', $2 || '/feed/' || r.i || '.ics', now() FROM unnest($3::int[], $4::int[]) AS r(id, i) ORDER BY r.i RETURNING "id"`,
      [hotelId, base, rooms.map((r) => r.id), rooms.map((r) => r.i)],
    );
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: `benchfeed:${process.pid}`,
      LOCK_PROVIDER: 'none',
      FEED_PRIVATE_ADDRESSES: 'true',
    });
    deps = await createDeps(config, db.url, createLogger(config), { poolSize: CONCURRENCY + 2, locks: null });
    const d = deps;
    const ctx = jobContext(d, 'feed.read', 'bench');
    const urls = rooms.map((r) => `${base}/feed/${r.i}.ics`);

    const stats = async (): Promise<DbWork> => {
      const {
        rows: [s],
      } = await client.query<{ x: string; r: string; w: string }>(
        `SELECT xact_commit + xact_rollback AS x, tup_returned + tup_fetched AS r, tup_inserted + tup_updated + tup_deleted AS w FROM pg_stat_database WHERE datname = current_database()`,
      );
      const { rows: tables } = await client.query<{ relname: string; n: string }>(`SELECT relname, seq_tup_read AS n FROM pg_stat_user_tables`);
      return {
        transactions: Number(s!.x),
        rowsRead: Number(s!.r),
        rowsWritten: Number(s!.w),
        seqRead: Object.fromEntries(tables.map((t) => [t.relname, Number(t.n)])),
      };
    };
    // A smoke run reads no figure of the database's work: it does not wait for them.
    const settle = () => new Promise((resolve) => setTimeout(resolve, sized(11_000, 0)));

    async function baseline(): Promise<number> {
      const started = performance.now();
      let events = 0;
      await inParallel(urls, async (url) => {
        const text = await fetchFeedText(url, { privateAddresses: true });
        events += parseFeed(text, HOTEL_TIMES).events.length;
      });
      if (events !== ROOMS * BOOKINGS * 2) throw new Error(`the baseline read ${events} events`);
      return performance.now() - started;
    }
    async function cycle(): Promise<{ ms: number; totals: Pick<FeedReadResult, 'events' | 'created' | 'moved' | 'cancelled' | 'conflicts'>; work: DbWork }> {
      await settle();
      const before = await stats();
      const totals = { events: 0, created: 0, moved: 0, cancelled: 0, conflicts: 0 };
      const started = performance.now();
      await inParallel(feeds, async (f) => {
        const r = await readFeed(ctx, hotelId, f.id);
        if (!r.ok) throw new Error(`feed ${f.id}: ${r.error}`);
        totals.events += r.events;
        totals.created += r.created;
        totals.moved += r.moved;
        totals.cancelled += r.cancelled;
        totals.conflicts += r.conflicts;
      });
      const ms = performance.now() - started;
      await settle();
      const after = await stats();
      // The two reads of pg_stat_database are transactions of their own.
      return {
        ms,
        totals,
        work: {
          transactions: after.transactions - before.transactions - 2,
          rowsRead: after.rowsRead - before.rowsRead,
          rowsWritten: after.rowsWritten - before.rowsWritten,
          seqRead: Object.fromEntries(
            Object.entries(after.seqRead)
              .map(([t, n]) => [t, n - (before.seqRead[t] ?? 0)] as const)
              .filter(([, n]) => n > 0)
              .sort((a, b) => b[1] - a[1])
              .slice(0, 4),
          ),
        },
      };
    }

    console.log(
      `${ROOMS} rooms, a feed each, ${BOOKINGS} bookings and ${BOOKINGS} blocks a feed (${ROOMS * BOOKINGS} bookings); ${CONCURRENCY} reads at a time.\n`,
    );
    if (!SMOKE) await baseline(); // warm-up (HTTP agent, ical.js); a smoke run times nothing worth reading
    // This machine's PostgreSQL runs with autovacuum off; a real install's analyses a table once a
    // tenth of it changed, looking every minute (autovacuum_naptime): the same, while the first
    // cycle fills the empty tables.
    const autoanalyze = setInterval(() => void client.query('ANALYZE').catch(() => undefined), sized(60_000, 5_000));
    const first = await cycle().finally(() => clearInterval(autoanalyze));
    const reservations = Number((await client.query(`SELECT count(*) FROM "Stay" WHERE "hotelId" = $1 AND status = 'reserved'`, [hotelId])).rows[0].count);
    if (first.totals.created !== ROOMS * BOOKINGS || reservations !== ROOMS * BOOKINGS)
      throw new Error(`the first cycle made ${first.totals.created} reservations (${reservations} in the database)`);

    // What autovacuum does within a minute of the first cycle's last reservations on a real install:
    // without statistics the planner takes the tables for nearly empty and finds a feed's bookings by
    // reading every booking of the hotel (20,089 rows a feed where 95 are the feed's).
    await client.query('ANALYZE');

    const baselines: number[] = [];
    const steady: Awaited<ReturnType<typeof cycle>>[] = [];
    for (let round = 0; round < sized(3, 1); round++) {
      baselines.push(await baseline());
      const a = await cycle();
      const b = await cycle();
      baselines.push(await baseline());
      for (const c of [a, b]) {
        if (c.totals.created || c.totals.moved || c.totals.cancelled) throw new Error(`an unchanged cycle changed something: ${JSON.stringify(c.totals)}`);
        steady.push(c);
      }
    }
    // One booking in ten moves a day later.
    for (let room = 1; room <= ROOMS; room++) for (let k = 0; k < BOOKINGS; k++) if ((room * BOOKINGS + k) % 10 === 3) moved.add(`${room}:${k}`);
    const movedCycle = await cycle();
    const movedInDb = Number(
      (await client.query(`SELECT count(*) FROM "AuditLog" WHERE "hotelId" = $1 AND action = 'stay.reschedule'`, [hotelId])).rows[0].count,
    );
    if (movedCycle.totals.moved !== moved.size || movedInDb !== moved.size) throw new Error(`${movedCycle.totals.moved} moved of ${moved.size}`);

    const alone = median(baselines);
    const steadyMs = median(steady.map((c) => c.ms));
    const per = (w: DbWork, n: number) => `${fmt(w.transactions / n, 2)} | ${fmt(w.rowsRead / n, 0)} | ${fmt(w.rowsWritten / n, 1)}`;
    const steadyWork = steady[Math.floor(steady.length / 2)]!.work;
    console.log('| run | time s | vs reading alone | transactions a feed | rows read a feed | rows written a feed |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(`| reading the feeds alone (fetch + parse), median of ${baselines.length} | ${fmt(alone / 1000, 2)} | 1.00 | – | – | – |`);
    console.log(
      `| first cycle (${first.totals.created} reservations made) | ${fmt(first.ms / 1000, 2)} | ${fmt(first.ms / alone, 2)} | ${per(first.work, ROOMS)} |`,
    );
    console.log(`| unchanged cycle, median of ${steady.length} | ${fmt(steadyMs / 1000, 2)} | ${fmt(steadyMs / alone, 2)} | ${per(steadyWork, ROOMS)} |`);
    console.log(
      `| cycle with ${moved.size} bookings moved a day | ${fmt(movedCycle.ms / 1000, 2)} | ${fmt(movedCycle.ms / alone, 2)} | ${per(movedCycle.work, ROOMS)} |`,
    );
    for (const [name, c] of [
      ['first', first],
      ['unchanged', steady[0]!],
      ['moved', movedCycle],
    ] as const)
      console.log(`Rows read by sequential scans, ${name} cycle: ${JSON.stringify(c.work.seqRead)}`);
    console.log(
      `\nUnchanged cycles: ${steady.map((c) => fmt(c.ms / 1000, 2)).join(', ')} s; baselines: ${baselines.map((b) => fmt(b / 1000, 2)).join(', ')} s.`,
    );
    console.log(`A feed every 15 minutes: an unchanged cycle of ${ROOMS} feeds takes ${fmt((100 * steadyMs) / 900_000, 1)}% of the interval on this machine.`);
  } finally {
    if (deps) await closeDeps(deps);
    await client.end();
    server.close();
    if (process.env.BENCH_KEEP_DB === '1') console.log(`Kept the database: ${db.url}`);
    else await db.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
