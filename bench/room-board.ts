/**
 * `pnpm --filter @console/bench run room-board`: the room board at 1,000, 10,000 and 100,000 rooms,
 * in one run (issue 6 §7). Three hotels in one database, the same pages of each:
 *   - all rooms, default sort, first page;
 *   - a status filter (checked in), default sort, first page;
 *   - searches: a room name ("101", A-Z: more rooms match in a larger hotel), a guest ("guest
 *     0001": the guests of rooms 100-199, so the same rooms match in every hotel) and one character
 *     ("7": no trigram, so every room and active stay is looked at);
 * each through tRPC over HTTP (session cookie, as the web console calls it) and as the very same
 * SQL statement sent with `pg` alone (the baseline). Requests one after another, interleaved in
 * rounds over hotels and pages so that a disturbance hits all of them alike; p50 and p95, then
 * the ratios 10k/1k, 100k/1k and tRPC/plain SQL. Targets: p95 at 10k and 100k within 1.5x of 1k,
 * tRPC within 3x of plain SQL. Before timing, the counts each hotel's board shows are checked
 * against a recount from the stays (the rule of docs/room-status.md).
 *
 * In the same rounds, an authenticated tRPC call that does next to nothing (`roomGroup.list`, 20
 * groups): the fixed cost of the HTTP, session and tRPC layers, which is most of what tRPC adds.
 *
 * Environment: BENCH_SIZES (default 1000,10000,100000), BENCH_ROUNDS (default 20, 20 requests
 * each), BENCH_KEEP_DB=1 keeps the database and prints its URL. A smoke run (BENCH_SMOKE=1): two
 * hotels, of 100 and 200 rooms (two, so that the ratios of a larger hotel to the smallest are
 * computed as in the full run; 100 rooms or more hold every status, a room out of order being every
 * 97th) with one past stay a room, one round of one request per hotel, page and path, no warm-up;
 * the counts checked the same.
 */
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ZRoomListInput, ROLE_PERMISSIONS, ROOM_STATUSES } from '@console/shared';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { roomListSql } from '../apps/server/src/modules/room/room-list.ts';
import { fmt, median, percentile, root, startProcess, stopProcess, sized, target, RATIO_FLOOR_MS, bundledEntry } from './lib.ts';

// Smoke: two hotels (the larger-to-smallest ratios and their target need two), of 100 rooms or more
// (a room out of order is every 97th: every status is then on the board).
const SIZES = (process.env.BENCH_SIZES ?? sized('1000,10000,100000', '100,200')).split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(20, 1));
const PER_ROUND = sized(20, 1);
/** Requests of each run before the rounds (a smoke run's one timed request a run makes each anyway). */
const WARM_UP = sized(5, 0);
const MOBILE = '13312345679';
const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * Past stays per room: 20 up to 10,000 rooms, 5 at 100,000 (500,000 stays); one in a smoke run.
 * Past stays have a guest up to 10,000 rooms only: the board never reads them (its guest search
 * looks at active stays), and half a million guest rows took minutes to write.
 */
const pastStaysPerRoom = (rooms: number) => sized(rooms > 10_000 ? 5 : 20, 1);
const pastGuests = (rooms: number) => rooms <= 10_000;

const PAGES = [
  { name: 'all rooms, default sort, page 1', input: { sort: 'default', pageSize: 50 } },
  { name: 'checked in, default sort, page 1', input: { status: 'checked_in', sort: 'default', pageSize: 50 } },
  { name: 'search "101", A-Z', input: { search: '101', sort: 'name_asc', pageSize: 50 } },
  { name: 'search guest "guest 0001"', input: { search: 'guest 0001', sort: 'default', pageSize: 50 } },
  { name: 'search "7" (1 character)', input: { search: '7', sort: 'default', pageSize: 50 } },
] as const;

interface Hotel {
  rooms: number;
  hotelId: number;
  membershipId: number;
  stays: number;
  guests: number;
  ms: number;
}

async function generateHotel(client: pg.Client, accountId: number, rooms: number): Promise<Hotel> {
  const started = performance.now();
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ($1, 'Asia/Shanghai', now()) RETURNING "id"`, [
    `Bench ${rooms}`,
  ]);
  const hotelId = hotel!.id;
  const {
    rows: [membership],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now()) RETURNING "id"`,
    [accountId, hotelId],
  );
  await client.query(`INSERT INTO "RoomGroup" ("hotelId", "name", "sort", "updatedAt") SELECT $1, 'Floor ' || g, g, now() FROM generate_series(1, 20) g`, [
    hotelId,
  ]);
  // Rooms over 20 groups; every 17th dirty, every 97th out of order, every 50th with a remark.
  await client.query(
    `INSERT INTO "Room" ("hotelId", "groupId", "name", "remarkName", "sortOrder", "usualPrice", "weekendPrice", "cleanStatus", "maintenance", "updatedAt")
     SELECT $1, (SELECT id FROM "RoomGroup" WHERE "hotelId" = $1 AND "sort" = 1 + (i % 20)), 'R' || lpad(i::text, 6, '0'),
            CASE WHEN i % 50 = 0 THEN 'Sea view ' || i ELSE '' END, i, 20000 + (i % 7) * 1000, 25000,
            CASE WHEN i % 17 = 0 THEN 'dirty'::"CleanStatus" ELSE 'clean'::"CleanStatus" END,
            CASE WHEN i % 97 = 0 THEN 'out_of_order'::"MaintenanceStatus" ELSE 'none'::"MaintenanceStatus" END, now()
     FROM generate_series(1, $2::int) i`,
    [hotelId, rooms],
  );
  const past = pastStaysPerRoom(rooms);
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "checkedOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id, 'checked_out', now() - ((n * 20 + 2) || ' days')::interval, now() - ((n * 20) || ' days')::interval, now() - ((n * 20) || ' days')::interval, 40000, now()
     FROM "Room" r CROSS JOIN generate_series(1, $2::int) n WHERE r."hotelId" = $1`,
    [hotelId, past],
  );
  // A third of the rooms have a guest now, one in ten a reservation.
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id, 'in_house', now() - interval '5 hours', now() + interval '2 days', 40000, now() FROM "Room" r
     WHERE r."hotelId" = $1 AND r."sortOrder" % 3 = 0 AND r."maintenance" = 'none'`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id, 'reserved', now() + interval '3 days', now() + interval '5 days', 40000, now() FROM "Room" r
     WHERE r."hotelId" = $1 AND r."sortOrder" % 10 = 1`,
    [hotelId],
  );
  // One guest a stay, named after the room ("Guest 000123") so a search finds the same rooms in every hotel.
  await client.query(
    `INSERT INTO "StayGuest" ("hotelId", "stayId", "isPrimary", "name", "mobile")
     SELECT $1, s.id, true, 'Guest ' || lpad(r."sortOrder"::text, 6, '0'), '139' || lpad((s.id % 100000000)::text, 8, '0')
     FROM "Stay" s JOIN "Room" r ON r.id = s."roomId" WHERE s."hotelId" = $1 AND ($2 OR s."status" <> 'checked_out')`,
    [hotelId, pastGuests(rooms)],
  );
  const {
    rows: [count],
  } = await client.query<{ stays: number; guests: number }>(
    `SELECT (SELECT count(*)::int FROM "Stay" WHERE "hotelId" = $1) AS stays, (SELECT count(*)::int FROM "StayGuest" WHERE "hotelId" = $1) AS guests`,
    [hotelId],
  );
  return { rooms, hotelId, membershipId: membership!.id, stays: count!.stays, guests: count!.guests, ms: performance.now() - started };
}

/**
 * The counts by the rule of docs/room-status.md, recounted from the stays (what the board showed
 * before decision 008): a guest is in the room once an active stay has begun (a desk reservation
 * only once its guest has arrived); a room is reserved tonight when an active stay's arrival day
 * (the hotel's calendar day of its check-in) has come; a reservation from tomorrow on leaves it free.
 */
async function recount(client: pg.Client, hotelId: number): Promise<Record<string, number>> {
  const { rows } = await client.query<{ status: string; n: number }>(
    `WITH tonight AS (
       SELECT ((date_trunc('day', now() AT TIME ZONE h."timeZone") + interval '1 day') AT TIME ZONE h."timeZone") AS ends FROM "Hotel" h WHERE h."id" = $1),
     occupancy AS (
       SELECT s."roomId",
              bool_or(s."checkInAt" <= now() AND NOT (s."status" = 'reserved' AND s."awaitsArrival")) AS occupied,
              bool_or(s."checkInAt" < (SELECT ends FROM tonight)) AS arrived
       FROM "Stay" s WHERE s."hotelId" = $1 AND s."status" IN ('reserved', 'in_house', 'expired') GROUP BY s."roomId")
     SELECT CASE WHEN coalesce(o.occupied, false) THEN 'checked_in' WHEN r."maintenance" <> 'none' THEN 'maintain'
                 WHEN coalesce(o.arrived, false) THEN 'reserved' WHEN r."cleanStatus" = 'dirty' THEN 'dirty' ELSE 'vacant' END AS status,
            count(*)::int AS n
     FROM "Room" r LEFT JOIN occupancy o ON o."roomId" = r."id" WHERE r."hotelId" = $1 AND r."deletedAt" IS NULL GROUP BY 1`,
    [hotelId],
  );
  return Object.fromEntries(ROOM_STATUSES.map((s) => [s, rows.find((r) => r.status === s)?.n ?? 0]));
}

/** The statuses whose counts differ (by key: the order the board sends its keys in is no part of it). */
function countsDiffer(shown: Record<string, number> | undefined, expected: Record<string, number>): string[] {
  const keys = new Set([...Object.keys(shown ?? {}), ...Object.keys(expected)]);
  return [...keys].filter((k) => (shown?.[k] ?? 0) !== (expected[k] ?? 0));
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function main() {
  console.log(
    `# Room board at ${SIZES.map((s) => s.toLocaleString('en')).join(', ')} rooms (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`,
  );
  const db = await createScratchDatabase(adminUrl, 'benchrb', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  try {
    await client.connect();
    const {
      rows: [pgVersion],
    } = await client.query<{ server_version: string }>('SHOW server_version');
    const hash = await hashPassword('bench-pass-1');
    const {
      rows: [account],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, $2, 'Bench', now()) RETURNING "id"`,
      [MOBILE, hash],
    );
    const hotels: Hotel[] = [];
    for (const size of SIZES) hotels.push(await generateHotel(client, account!.id, size));
    // What the first writes after a bulk load and autovacuum would have done: the count rows the
    // generation logged folded (bulk transactions do not fold), dead rows gone, statistics gathered.
    for (const h of hotels) await client.query('SELECT "RoomStatusCount_fold"($1)', [h.hotelId]);
    await client.query('VACUUM ANALYZE');
    console.log(`PostgreSQL ${pgVersion!.server_version}. Generated, in one database:\n`);
    console.log('| rooms | stays (past per room) | guests | generation s |');
    console.log('|---:|---:|---:|---:|');
    for (const h of hotels)
      console.log(
        `| ${h.rooms.toLocaleString('en')} | ${h.stays.toLocaleString('en')} (${pastStaysPerRoom(h.rooms)}) | ${h.guests.toLocaleString('en')} | ${fmt(h.ms / 1000)} |`,
      );
    console.log('');

    const { child, match } = await startProcess(
      process.execPath,
      ['--openssl-legacy-provider', ...bundledEntry('server.ts')],
      { DATABASE_URL: db.url, REDIS_PREFIX: `benchrb:${process.pid}`, NODE_ENV: 'development', SEED_DEMO: 'false', BENCH_ACCOUNT_MOBILE: MOBILE },
      /\{"port":\d+.*\}/,
      path.join(root, 'bench'),
    );
    try {
      const { port, webTokens } = JSON.parse(match[0]) as { port: number; webTokens: Record<string, string> };
      const base = `http://127.0.0.1:${port}`;
      const actorOf = (h: Hotel) => ({
        sessionId: 0,
        accountId: account!.id,
        hotelId: h.hotelId,
        timeZone: 'Asia/Shanghai',
        currency: 'CNY',
        membershipId: h.membershipId,
        allRooms: true,
        role: 'owner' as const,
        permissions: new Set(ROLE_PERMISSIONS.owner),
        apiKeyAuth: true,
      });

      // The counts the board shows, against a recount from the stays.
      for (const h of hotels) {
        const headers = { cookie: `sl_session=${webTokens[h.hotelId]}`, origin: base };
        const res = (await (await fetch(`${base}/trpc/room.list?input=${encodeURIComponent(JSON.stringify({}))}`, { headers })).json()) as {
          result?: { data: { counts: Record<string, number> } };
        };
        const t = performance.now();
        const expected = await recount(client, h.hotelId);
        const recountMs = performance.now() - t;
        const shown = res.result?.data.counts;
        const differ = countsDiffer(shown, expected);
        if (!shown || differ.length)
          throw new Error(
            `counts of the ${h.rooms} room hotel differ (${differ.join(', ')}): board ${JSON.stringify(shown)}, recount ${JSON.stringify(expected)}`,
          );
        console.log(
          `${h.rooms.toLocaleString('en')} rooms: the board's counts equal a recount from the stays (${JSON.stringify(expected)}; the recount alone took ${fmt(recountMs)} ms).`,
        );
      }
      console.log('');
      console.log(`Rooms each page lists in all (its total): ${PAGES.map((p) => p.name).join('; ')}.\n`);
      for (const h of hotels) {
        const headers = { cookie: `sl_session=${webTokens[h.hotelId]}`, origin: base };
        const totals = [];
        for (const p of PAGES) {
          const res = (await (await fetch(`${base}/trpc/room.list?input=${encodeURIComponent(JSON.stringify(p.input))}`, { headers })).json()) as {
            result?: { data: { total: number; items: unknown[] } };
          };
          if (!res.result) throw new Error(`room.list failed for ${p.name} at ${h.rooms} rooms`);
          totals.push(res.result.data.total.toLocaleString('en'));
        }
        console.log(`- ${h.rooms.toLocaleString('en')} rooms: ${totals.join('; ')}`);
      }
      console.log('');

      type Key = `${number}|${number}|${'http' | 'sql'}` | 'fixed';
      const samples = new Map<Key, number[]>();
      const runs: { key: Key; fn: () => Promise<unknown> }[] = [];
      for (const h of hotels) {
        const headers = { cookie: `sl_session=${webTokens[h.hotelId]}`, origin: base };
        const actor = actorOf(h);
        PAGES.forEach((p, i) => {
          const url = `${base}/trpc/room.list?input=${encodeURIComponent(JSON.stringify(p.input))}`;
          const input = ZRoomListInput.parse(p.input);
          runs.push({
            key: `${h.rooms}|${i}|http`,
            fn: async () => {
              const res = await fetch(url, { headers });
              if (!res.ok) throw new Error(`room.list answered ${res.status}`);
              await res.arrayBuffer();
            },
          });
          runs.push({
            key: `${h.rooms}|${i}|sql`,
            fn: () => {
              const sql = roomListSql(actor, input, new Date());
              return client.query(sql.text, sql.values as unknown[]);
            },
          });
        });
      }
      {
        const headers = { cookie: `sl_session=${webTokens[hotels[0]!.hotelId]}`, origin: base };
        runs.push({
          key: 'fixed',
          fn: async () => {
            const res = await fetch(`${base}/trpc/roomGroup.list`, { headers });
            if (!res.ok) throw new Error(`roomGroup.list answered ${res.status}`);
            await res.arrayBuffer();
          },
        });
      }
      for (const r of runs) for (let i = 0; i < WARM_UP; i++) await r.fn(); // warm-up
      const started = performance.now();
      for (let round = 0; round < ROUNDS; round++) {
        for (const r of shuffle(runs)) {
          const list = samples.get(r.key) ?? [];
          for (let i = 0; i < PER_ROUND; i++) {
            const t = performance.now();
            await r.fn();
            list.push(performance.now() - t);
          }
          samples.set(r.key, list);
        }
      }
      console.log(
        `Timed ${ROUNDS} rounds of ${PER_ROUND} requests per hotel, page and path (${ROUNDS * PER_ROUND} each), in ${fmt((performance.now() - started) / 1000)} s.\n`,
      );

      const stat = (rooms: number, page: number, mode: 'http' | 'sql') => {
        const values = samples.get(`${rooms}|${page}|${mode}`)!;
        return { p50: median(values), p95: percentile(values, 95) };
      };
      console.log('| page | rooms | tRPC p50 ms | tRPC p95 ms | plain SQL p50 ms | plain SQL p95 ms | tRPC/SQL p95 |');
      console.log('|---|---:|---:|---:|---:|---:|---:|');
      let worstTrpc = 0;
      PAGES.forEach((p, i) => {
        for (const h of hotels) {
          const http = stat(h.rooms, i, 'http');
          const sql = stat(h.rooms, i, 'sql');
          // Under the floor a ratio is noise (lib.ts RATIO_FLOOR_MS).
          if (http.p95 >= RATIO_FLOOR_MS) worstTrpc = Math.max(worstTrpc, http.p95 / sql.p95);
          console.log(
            `| ${p.name} | ${h.rooms.toLocaleString('en')} | ${fmt(http.p50)} | ${fmt(http.p95)} | ${fmt(sql.p50)} | ${fmt(sql.p95)} | ${fmt(http.p95 / sql.p95, 2)} |`,
          );
        }
      });
      const small = hotels[0]!;
      const larger = hotels.slice(1);
      if (larger.length) {
        console.log(
          `\n| page | ${larger.map((h) => `tRPC p95 ${h.rooms / 1000}k/${small.rooms / 1000}k`).join(' | ')} | ${larger.map((h) => `SQL p95 ${h.rooms / 1000}k/${small.rooms / 1000}k`).join(' | ')} |`,
        );
        console.log(`|---|${larger.map(() => '---:').join('|')}|${larger.map(() => '---:').join('|')}|`);
        PAGES.forEach((p, i) => {
          const ratio = (h: Hotel, mode: 'http' | 'sql') => fmt(stat(h.rooms, i, mode).p95 / stat(small.rooms, i, mode).p95, 2);
          console.log(`| ${p.name} | ${larger.map((h) => ratio(h, 'http')).join(' | ')} | ${larger.map((h) => ratio(h, 'sql')).join(' | ')} |`);
        });
        const boardPages = [0, 1]; // the pages of the target: all rooms, and a status filter
        const worstScale = Math.max(...boardPages.flatMap((i) => larger.map((h) => stat(h.rooms, i, 'http').p95 / stat(small.rooms, i, 'http').p95)));
        target(
          `Board pages (all rooms, status filter) at ${larger.map((h) => h.rooms.toLocaleString('en')).join(' and ')} rooms within 1.5x of ${small.rooms.toLocaleString('en')} (tRPC p95)`,
          worstScale <= 1.5,
          `worst ${fmt(worstScale, 2)}x`,
        );
      }
      target(`tRPC within 3x of plain SQL (p95, every page at ${RATIO_FLOOR_MS} ms or more)`, worstTrpc <= 3, `worst ${fmt(worstTrpc, 2)}x`);
      const fixed = samples.get('fixed')!;
      console.log(
        `An authenticated tRPC call that does next to nothing (roomGroup.list), in the same rounds: p50 ${fmt(median(fixed))} ms, p95 ${fmt(percentile(fixed, 95))} ms.\n`,
      );
    } finally {
      await stopProcess(child);
    }
  } finally {
    await client.end().catch(() => {});
    if (process.env.BENCH_KEEP_DB === '1') console.log(`Kept the database: ${db.url}`);
    else await db.drop();
  }
}

process.chdir(root);
await main();
