/**
 * `pnpm --filter @console/bench run front-desk`: check-in throughput (issue 3), with 20 concurrent
 * clients on distinct rooms of a hotel with 10,000 rooms and 200,000 past stays. (The room board
 * page of this hotel, measured here at first, is measured at 1,000, 10,000 and 100,000 rooms by
 * `room-board.ts`.)
 * A smoke run (BENCH_SMOKE=1): 100 rooms and 1,000 past stays, the 20 clients for 1 s or until the
 * hotel's vacant rooms (about 55) are taken.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { fmt, insertFrontDeskHotel, median, percentile, root, startProcess, stopProcess, sized, bundledEntry } from './lib.ts';

// A smoke run: 100 rooms, the fewest with one of each kind of the hotel (every 97th out of order,
// every 50th with a remark) and more vacant rooms (about 55) than the 20 clients; 10 past stays each.
const ROOMS = sized(10_000, 100);
const PAST_STAYS = sized(200_000, 1_000);
const MOBILE = '13312345678';
const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function generateHotel(client: pg.Client) {
  const started = performance.now();
  const hash = await hashPassword('bench-pass-1');
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench Grand', 'Asia/Shanghai', now()) RETURNING "id"`);
  const hotelId = hotel!.id;
  const {
    rows: [account],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, $2, 'Bench', now()) RETURNING "id"`,
    [MOBILE, hash],
  );
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [account!.id, hotelId]);
  await insertFrontDeskHotel(client, hotelId, { rooms: ROOMS, pastStays: PAST_STAYS });
  await client.query('ANALYZE');
  const counts = await client.query<{ rooms: number; stays: number; guests: number }>(
    `SELECT (SELECT count(*)::int FROM "Room" WHERE "hotelId" = $1) AS rooms, (SELECT count(*)::int FROM "Stay" WHERE "hotelId" = $1) AS stays, (SELECT count(*)::int FROM "StayGuest" WHERE "hotelId" = $1) AS guests`,
    [hotelId],
  );
  return { hotelId, membership: account!.id, ms: performance.now() - started, ...counts.rows[0]! };
}

async function main() {
  console.log(`# Front desk benchmarks (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const db = await createScratchDatabase(adminUrl, 'benchfd', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  try {
    await client.connect();
    const hotel = await generateHotel(client);
    console.log(`Generated ${hotel.rooms} rooms, ${hotel.stays} stays and ${hotel.guests} guests in ${fmt(hotel.ms / 1000)} s.\n`);

    const { child, match } = await startProcess(
      process.execPath,
      ['--openssl-legacy-provider', ...bundledEntry('server.ts')],
      { DATABASE_URL: db.url, REDIS_PREFIX: `benchfd:${process.pid}`, NODE_ENV: 'development', SEED_DEMO: 'false', BENCH_ACCOUNT_MOBILE: MOBILE },
      /\{"port":\d+.*\}/,
      path.join(root, 'bench'),
    );
    try {
      const { port, webToken } = JSON.parse(match[0]) as { port: number; webToken: string };
      const base = `http://127.0.0.1:${port}`;
      const headers = { cookie: `sl_session=${webToken}`, origin: base, 'content-type': 'application/json' };
      // Check-in throughput: 20 clients, each on its own vacant rooms.
      const vacant = await client.query<{ id: number }>(
        `SELECT r.id FROM "Room" r WHERE r."hotelId" = $1 AND r."maintenance" = 'none' AND r."cleanStatus" = 'clean'
         AND NOT EXISTS (SELECT 1 FROM "Stay" s WHERE s."roomId" = r.id AND s.status IN ('reserved','in_house','expired')) ORDER BY r.id`,
        [hotel.hotelId],
      );
      const rooms = vacant.rows.map((r) => r.id);
      const clients = 20;
      // A smoke run: 1 s (at 250 ms, on a loaded machine, only 11 of the 20 clients had started a check-in).
      const durationMs = sized(10_000, 1_000);
      const latencies: number[] = [];
      let failures = 0;
      let next = 0;
      const startedAt = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (performance.now() - startedAt < durationMs && next < rooms.length) {
            const roomId = rooms[next++]!;
            const t = performance.now();
            const res = await fetch(`${base}/trpc/stay.checkIn`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                roomId,
                checkInAt: new Date(Date.now() - 60_000).toISOString(),
                expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000).toISOString(),
                guests: [{ name: `Bench ${roomId}`, mobile: `137${String(roomId).padStart(8, '0')}` }],
                idempotencyKey: randomUUID(),
              }),
            });
            await res.arrayBuffer();
            if (res.ok) latencies.push(performance.now() - t);
            else failures += 1;
          }
        }),
      );
      const elapsed = (performance.now() - startedAt) / 1000;
      console.log(`## Check-in throughput (${clients} concurrent clients, distinct rooms, ${durationMs / 1000} s)\n`);
      console.log('| check-ins | per second | p50 ms | p95 ms | failures |');
      console.log('|---:|---:|---:|---:|---:|');
      console.log(
        `| ${latencies.length} | ${fmt(latencies.length / elapsed)} | ${fmt(median(latencies))} | ${fmt(percentile(latencies, 95))} | ${failures} |\n`,
      );
    } finally {
      await stopProcess(child);
    }
  } finally {
    await client.end().catch(() => {});
    await db.drop();
  }
}

process.chdir(root);
await main();
