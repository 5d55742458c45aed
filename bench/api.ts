/**
 * `pnpm --filter @console/bench run api`: issue 29 §3, the JSON API (`/api/v1`, an API key)
 * against tRPC (a session cookie, as the web console calls it) for the same reads, over HTTP to
 * the real server (bench/server.ts) on a hotel of 1,000 rooms and 20,000 past stays
 * (lib.ts `insertFrontDeskHotel`):
 *   - the rooms, a page of 50: `GET /api/v1/rooms?limit=50` and `room.list` `{ page: 1, pageSize: 50 }`;
 *   - the stays, a page of 50: `GET /api/v1/stays?limit=50` and `stay.list` `{ page: 1, pageSize: 50 }`;
 *   - one stay: `GET /api/v1/stays/{id}` and `stay.get` `{ stayId }`.
 * Both answer the same rows (checked first: the ids of each page, the stay). autocannon, 10
 * connections, rounds of 8 s interleaved (JSON API and tRPC of a read one after the other), after a
 * warm-up; medians of the rounds. The cost ratio is tRPC's requests a second over the JSON API's
 * (1.15: the JSON API costs 15 % more per request); the target is at most 1.15.
 *
 * Smoke run (BENCH_SMOKE=1): 100 rooms (more than a page of 50 of rooms and of stays), the same
 * checks of both faces' rows, then one round of each load at 10 requests (`SMOKE_LOAD`), each still
 * failing on an error or an answer not 2xx; no warm-up.
 *
 * Environment: BENCH_ROOMS (default 1000), BENCH_ROUNDS (default 3), BENCH_ADMIN_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { API_KEY_PERMISSIONS, API_KEY_PREFIX } from '@console/shared';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { hashToken } from '../apps/server/src/modules/auth/session.service.ts';
import { fmt, insertFrontDeskHotel, load, median, root, sized, SMOKE, startProcess, stopProcess, type LoadResult, target, bundledEntry } from './lib.ts';

const ROOMS = Number(process.env.BENCH_ROOMS ?? sized(1_000, 100));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(3, 1));
const MOBILE = '13312345729';
const TARGET = 1.15;
const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/**
 * A smoke run's load: 10 requests (one a connection, all at once) instead of seconds of them, sampled every 50 ms
 * so that autocannon ends as soon as they are answered (it stops on a sample's tick: a second after
 * the last answer at its default). Its errors and answers not 2xx are checked as in the full run.
 */
const SMOKE_LOAD: Partial<Parameters<typeof load>[0]> = sized({}, { amount: 10, sampleInt: 50 });

async function generate(client: pg.Client) {
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench API', 'Asia/Shanghai', now()) RETURNING "id"`);
  const hotelId = hotel!.id;
  const {
    rows: [account],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, 'x', 'Bench', now()) RETURNING "id"`,
    [MOBILE],
  );
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "apiKeyAuth", "updatedAt") VALUES ($1, $2, 'owner', true, now())`, [
    account!.id,
    hotelId,
  ]);
  await insertFrontDeskHotel(client, hotelId, { rooms: ROOMS, pastStays: ROOMS * 20 });
  // The owner's key, with every scope a key may hold (as made on the API keys page).
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  await client.query(
    `INSERT INTO "ApiKey" ("hotelId", "name", "prefix", "keyHash", "permissions", "createdByAccountId") VALUES ($1, 'Bench', $2, $3, $4, $5)`,
    [hotelId, key.slice(0, 8), hashToken(key), [...API_KEY_PERMISSIONS], account!.id],
  );
  await client.query('VACUUM ANALYZE');
  const {
    rows: [stay],
  } = await client.query<{ id: number }>(`SELECT id FROM "Stay" WHERE "hotelId" = $1 AND status = 'in_house' ORDER BY id LIMIT 1`, [hotelId]);
  return { hotelId, key, stayId: stay!.id };
}

interface Read {
  name: string;
  api: string;
  trpc: string;
  /** What both answers must agree on (the ids of a page, the stay's id and guests). */
  same(api: unknown, trpc: unknown): [unknown, unknown];
}

const trpcUrl = (procedure: string, input: unknown) => `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;
const ids = (page: unknown) => (page as { items: { id: number }[] }).items.map((i) => i.id);

async function main() {
  console.log(`# The JSON API against tRPC, the same reads (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const db = await createScratchDatabase(adminUrl, 'benchapi', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  try {
    await client.connect();
    const started = performance.now();
    const g = await generate(client);
    console.log(`Generated ${ROOMS} rooms and ${ROOMS * 20} past stays in ${fmt((performance.now() - started) / 1000)} s.\n`);

    const { child, match } = await startProcess(
      process.execPath,
      ['--openssl-legacy-provider', ...bundledEntry('server.ts')],
      {
        DATABASE_URL: db.url,
        REDIS_PREFIX: `benchapi:${process.pid}`,
        NODE_ENV: 'development',
        SEED_DEMO: 'false',
        BENCH_ACCOUNT_MOBILE: MOBILE,
        // The rate limit is not what is measured: high enough never to refuse.
        API_RATE_LIMIT_PER_MINUTE: '1000000',
      },
      /\{"port":\d+.*\}/,
      path.join(root, 'bench'),
    );
    try {
      const { port, webToken } = JSON.parse(match[0]) as { port: number; webToken: string };
      const base = `http://127.0.0.1:${port}`;
      const trpcHeaders = { cookie: `sl_session=${webToken}`, origin: base };
      const apiHeaders = { authorization: `Bearer ${g.key}` };
      const reads: Read[] = [
        { name: 'rooms, a page of 50', api: '/api/v1/rooms?limit=50', trpc: trpcUrl('room.list', { page: 1, pageSize: 50 }), same: (a, t) => [ids(a), ids(t)] },
        { name: 'stays, a page of 50', api: '/api/v1/stays?limit=50', trpc: trpcUrl('stay.list', { page: 1, pageSize: 50 }), same: (a, t) => [ids(a), ids(t)] },
        {
          name: 'one stay',
          api: `/api/v1/stays/${g.stayId}`,
          trpc: trpcUrl('stay.get', { stayId: g.stayId }),
          same: (a, t) =>
            [a, t].map((s) => {
              const stay = s as { id: number; roomId: number; guests: { name: string }[] };
              return { id: stay.id, roomId: stay.roomId, guests: stay.guests.map((x) => x.name) };
            }) as [unknown, unknown],
        },
      ];

      // Both faces answer the same rows.
      for (const read of reads) {
        const api = await fetch(`${base}${read.api}`, { headers: apiHeaders });
        const trpc = await fetch(`${base}${read.trpc}`, { headers: trpcHeaders });
        if (api.status !== 200 || trpc.status !== 200) throw new Error(`${read.name}: JSON API ${api.status}, tRPC ${trpc.status}`);
        const [a, t] = read.same(await api.json(), ((await trpc.json()) as { result: { data: unknown } }).result.data);
        if (JSON.stringify(a) !== JSON.stringify(t))
          throw new Error(`${read.name}: the JSON API and tRPC answer different rows: ${JSON.stringify(a)} / ${JSON.stringify(t)}`);
        if (Array.isArray(a) && a.length === 0) throw new Error(`${read.name}: an empty page`);
      }

      const targets = reads.flatMap((read) => [
        { read: read.name, face: 'JSON API', options: { url: `${base}${read.api}`, headers: apiHeaders } },
        { read: read.name, face: 'tRPC', options: { url: `${base}${read.trpc}`, headers: trpcHeaders } },
      ]);
      if (ROUNDS > 1) for (const t of targets) await load({ ...t.options, duration: 2 }); // warm-up
      const results = new Map<string, LoadResult[]>(targets.map((t) => [`${t.read}|${t.face}`, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const t of targets) {
          const result = await load({ ...t.options, ...SMOKE_LOAD });
          if (result.errors + result.non2xx > 0) throw new Error(`${t.read} (${t.face}): ${result.errors} errors, ${result.non2xx} answers not 2xx`);
          results.get(`${t.read}|${t.face}`)!.push(result);
        }
      }

      const of = (read: string, face: string) => {
        const rounds = results.get(`${read}|${face}`)!;
        return { rps: median(rounds.map((r) => r.requestsPerSecond)), p50: median(rounds.map((r) => r.p50)), p99: median(rounds.map((r) => r.p99)) };
      };
      console.log(`## The same reads, 10 connections, ${ROUNDS} interleaved rounds of ${SMOKE ? '10 requests' : '8 s'}, medians\n`);
      console.log('| read | JSON API req/s | p50 ms | p99 ms | tRPC req/s | p50 ms | p99 ms | cost ratio (tRPC req/s / JSON API req/s) |');
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
      const ratios: number[] = [];
      for (const read of reads) {
        const api = of(read.name, 'JSON API');
        const trpc = of(read.name, 'tRPC');
        const ratio = trpc.rps / api.rps;
        ratios.push(ratio);
        console.log(
          `| ${read.name} | ${fmt(api.rps)} | ${fmt(api.p50)} | ${fmt(api.p99)} | ${fmt(trpc.rps)} | ${fmt(trpc.p50)} | ${fmt(trpc.p99)} | ${fmt(ratio, 2)} |`,
        );
      }
      const worst = Math.max(...ratios);
      target(`The JSON API at most ${TARGET} times what tRPC costs for the same read`, worst <= TARGET, `worst ${fmt(worst, 2)}x`);
      if (sized(true, false) && worst > TARGET) process.exitCode = 1;
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
