/**
 * `pnpm --filter @console/bench run unlock-page`: issue 7 §8, a room's unlock-record page on a
 * hotel with 5,000,000 records.
 *   One hotel of 1,000 rooms; 4,500,000 records spread over them (about 4,500 a room) and over the
 *   last year, and one hot room (a staff entrance, say) with 500,000 more; written with
 *   generate_series straight into "UnlockRecord", then VACUUM ANALYZE (what autovacuum does after
 *   a load). The pages, 20 rows each, of an ordinary room and of the hot room: page 1 without a
 *   date range, page 1 of the last 7 days (the console's "week" quick range), page 1 of today (its
 *   default), page 50 without a range (a deep-ish page) and page 500 (rows 9,981-10,000);
 *   each through `listUnlockRecords` (the service, in this process: what tRPC and the legacy
 *   actions call) and as the one statement it sends (`roomRecordsPageSql`: the room check, the total
 *   and the page), sent with `pg` alone (the baseline). Before timing, every page is checked: the
 *   service, its statement and the obvious queries (OFFSET over the whole rows, count(*) of them
 *   all) agree. In the same rounds, the two statements the service sent before decision 013
 *   (count(*) of the whole range, and the page with OFFSET over whole rows), in plain SQL at once
 *   on two connections, timed after the main rounds in rounds of their own against the statement
 *   of now (their tens of ms would disturb the rest), for a ratio within the run. Calls one after
 *   another, interleaved in rounds in shuffled order; p50 and p95. Targets: p95 under 20 ms, and within 3x of plain SQL.
 *
 * Environment: BENCH_ROUNDS (default 20, 20 calls each), BENCH_DATABASE_URL (reuse a database this
 * benchmark generated and kept: it is migrated, not generated again), BENCH_KEEP_DB=1,
 * BENCH_EXPLAIN=1 (print EXPLAIN ANALYZE of the plain SQL of every page). A smoke run
 * (BENCH_SMOKE=1): 500 rooms (the ordinary room is the 500th), 10,500 records spread over them (21
 * a room: the ordinary room's first page full) and 10,001 more in the hot room (over
 * RECORD_COUNT_CAP, 10,000: its total capped and its page 500 full, as in the full run); one round
 * of one call per room, page and path, no warm-up; every page checked the same.
 */
import os from 'node:os';
import pg from 'pg';
import { addDays, localDateTime, zonedToInstant } from '@console/shared';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { applyMigrations } from '../apps/server/src/db/migrate.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { RECORD_COUNT_CAP, listUnlockRecords, roomRecordsPageSql } from '../apps/server/src/modules/unlock-records/unlock-record.service.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { fmt, median, percentile, root, sized, target, RATIO_FLOOR_MS } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(20, 1));
const PER_ROUND = sized(20, 1);
/** Calls of each run before its rounds (a smoke run's one timed call a run makes each anyway). */
const WARM_UP = sized(5, 0);
// Smoke: 500 rooms (the ordinary room is the 500th), 21 records a room (a full first page of 20), and
// the hot room over RECORD_COUNT_CAP (a capped total, and page 500, rows 9,981-10,000, full): the
// fewest for the pages the full run reads.
const ROOMS = sized(1_000, 500);
const SPREAD = sized(4_500_000, 21 * ROOMS);
const HOT = sized(500_000, RECORD_COUNT_CAP + 1);
const TZ = 'Asia/Shanghai';
const MOBILE = '13312345682';

interface Generated {
  hotelId: number;
  accountId: number;
  ordinaryRoomId: number;
  hotRoomId: number;
}

async function generate(client: pg.Client): Promise<Generated> {
  const {
    rows: [account],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, 'x', 'Bench', now()) RETURNING "id"`,
    [MOBILE],
  );
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench records', $1, now()) RETURNING "id"`, [TZ]);
  const hotelId = hotel!.id;
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [account!.id, hotelId]);
  // Each room with its lock (Room.lockId names a Lock row since lock accounts).
  await client.query(
    `INSERT INTO "Lock" ("hotelId", "provider", "providerLockId", "updatedAt")
     SELECT $1, 'bench', (800000 + i)::text, now() FROM generate_series(1, $2::int) i`,
    [hotelId, ROOMS],
  );
  await client.query(
    `INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "lockId", "updatedAt")
     SELECT $1, 'R' || lpad(i::text, 4, '0'), i, 20000, l."id", now()
     FROM generate_series(1, $2::int) i JOIN "Lock" l ON l."hotelId" = $1 AND l."providerLockId" = (800000 + i)::text`,
    [hotelId, ROOMS],
  );
  const { rows: rooms } = await client.query<{ id: number }>(`SELECT "id" FROM "Room" WHERE "hotelId" = $1 ORDER BY "sortOrder"`, [hotelId]);
  const roomIds = rooms.map((r) => r.id);
  // Records as the callback stores them: most are passcode openings (a credential and its holder),
  // then cards, gateway unlocks, refused codes, faces. `n` numbers them; times over the last year.
  const insert = (from: number, to: number, roomExpr: string) =>
    client.query(
      `INSERT INTO "UnlockRecord" ("hotelId", "roomId", "providerRecordId", "credential", "recordType", "occurredAt", "event", "source", "device", "success", "style", "operator")
       SELECT $1, ${roomExpr}, 'ttlock:gen:' || n, CASE WHEN n % 10 < 5 THEN 'password:' || (n % 100000) END,
              (ARRAY[4, 4, 4, 4, 4, 7, 7, 12, 4, 67])[n % 10 + 1],
              now() - random() * interval '365 days',
              CASE WHEN n % 10 = 8 THEN 'open_refused' ELSE 'opened' END,
              CASE WHEN n % 10 = 7 THEN 'gateway' ELSE 'lock' END,
              'SIM Room ' || (n % 1000),
              n % 10 <> 8,
              (ARRAY['password', 'password', 'password', 'password', 'password', 'card', 'card', 'remote', 'password', 'face'])[n % 10 + 1]::"UnlockStyle",
              CASE WHEN n % 10 < 5 THEN 'Guest ' || (n % 100000) WHEN n % 10 IN (5, 6) THEN 'Card ' || (n % 500) ELSE '' END
       FROM generate_series($2::int, $3::int) n`,
      [hotelId, from, to, roomIds],
    );
  const step = 500_000;
  for (let from = 1; from <= SPREAD; from += step) {
    const t = performance.now();
    await insert(from, Math.min(SPREAD, from + step - 1), `($4::int[])[1 + (n % ${ROOMS})]`);
    process.stdout.write(
      `  generated ${Math.min(SPREAD, from + step - 1).toLocaleString('en')} records spread over the rooms (${fmt((performance.now() - t) / 1000)} s)\n`,
    );
  }
  // The hot room: the 7th room, 500,000 more records.
  const hotRoomId = roomIds[6]!;
  await insert(SPREAD + 1, SPREAD + HOT, `${hotRoomId} + 0 * ($4::int[])[1]`);
  process.stdout.write(`  generated ${HOT.toLocaleString('en')} records of the hot room\n`);
  return { hotelId, accountId: account!.id, ordinaryRoomId: roomIds[499]!, hotRoomId };
}

async function main() {
  console.log(
    `# A room's unlock-record page on a hotel with ${(SPREAD + HOT).toLocaleString('en')} records (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`,
  );
  const reuse = process.env.BENCH_DATABASE_URL;
  const db = reuse ? { url: reuse, drop: async () => {} } : await createScratchDatabase(adminUrl, 'benchulp', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const pool = new pg.Pool({ connectionString: db.url, options: CONNECTION_OPTIONS, max: 2 });
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  try {
    const { applied } = await applyMigrations(db.url);
    await client.connect();
    const {
      rows: [pgVersion],
    } = await client.query<{ server_version: string }>('SHOW server_version');
    let g: Generated;
    if (reuse) {
      const {
        rows: [h],
      } = await client.query<{ hotelId: number; accountId: number }>(
        `SELECT m."hotelId", m."accountId" FROM "Membership" m JOIN "Account" a ON a."id" = m."accountId" WHERE a."mobile" = $1`,
        [MOBILE],
      );
      const { rows: rooms } = await client.query<{ id: number }>(`SELECT "id" FROM "Room" WHERE "hotelId" = $1 ORDER BY "sortOrder"`, [h!.hotelId]);
      g = { hotelId: h!.hotelId, accountId: h!.accountId, ordinaryRoomId: rooms[499]!.id, hotRoomId: rooms[6]!.id };
      console.log(`Reusing ${db.url}${applied.length ? `; migrations applied now: ${applied.join(', ')}` : ''}.\n`);
      await client.query('ANALYZE "UnlockRecord"');
    } else {
      const t = performance.now();
      g = await generate(client);
      const genMs = performance.now() - t;
      const v = performance.now();
      await client.query('VACUUM ANALYZE');
      console.log(`\nGenerated in ${fmt(genMs / 1000)} s, VACUUM ANALYZE ${fmt((performance.now() - v) / 1000)} s.\n`);
    }
    const {
      rows: [size],
    } = await client.query<{ n: string; table: string; indexes: string }>(
      `SELECT (SELECT count(*) FROM "UnlockRecord")::text AS n, pg_size_pretty(pg_table_size('"UnlockRecord"')) AS table, pg_size_pretty(pg_indexes_size('"UnlockRecord"')) AS indexes`,
    );
    const { rows: perRoom } = await client.query<{ roomId: number; n: number }>(
      `SELECT "roomId", count(*)::int AS n FROM "UnlockRecord" WHERE "hotelId" = $1 AND "roomId" = ANY($2) GROUP BY 1`,
      [g.hotelId, [g.ordinaryRoomId, g.hotRoomId]],
    );
    const countOf = (roomId: number) => perRoom.find((r) => r.roomId === roomId)?.n ?? 0;
    console.log(
      `PostgreSQL ${pgVersion!.server_version}. "UnlockRecord": ${Number(size!.n).toLocaleString('en')} rows, table ${size!.table}, indexes ${size!.indexes}. Ordinary room: ${countOf(g.ordinaryRoomId).toLocaleString('en')} records; hot room: ${countOf(g.hotRoomId).toLocaleString('en')}.\n`,
    );

    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: `benchulp:${process.pid}`,
      LOCK_PROVIDER: 'none',
    });
    deps = await createDeps(config, db.url, createLogger(config), { locks: null });
    const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
    const { token } = await createSession(deps, { accountId: g.accountId, hotelId: g.hotelId, kind: 'web', meta });
    const ctx: AuthedContext = { deps, meta, actor: await resolveSession(deps, token, 'web') };

    const today = localDateTime(new Date(), TZ).slice(0, 10);
    const pages = [
      { name: 'page 1, no range', input: { page: 1, pageSize: 20 } },
      { name: 'page 1, last 7 days', input: { page: 1, pageSize: 20, from: addDays(today, -6), to: today } },
      { name: 'page 1, today', input: { page: 1, pageSize: 20, from: today, to: today } },
      { name: 'page 50, no range', input: { page: 50, pageSize: 20 } },
      { name: 'page 500, no range', input: { page: 500, pageSize: 20 } },
    ];
    const rooms = [
      { name: 'ordinary room', roomId: g.ordinaryRoomId },
      { name: 'hot room', roomId: g.hotRoomId },
    ];
    type Key = `${number}|${number}|${'service' | 'sql' | 'sql2' | 'before'}`;
    const runs: { key: Key; fn: () => Promise<unknown> }[] = [];
    const beforeRuns: { key: Key; fn: () => Promise<unknown> }[] = [];
    const totals = new Map<string, string>();
    for (const [ri, room] of rooms.entries()) {
      for (const [pi, page] of pages.entries()) {
        const input = { roomId: room.roomId, ...page.input };
        const sql = roomRecordsPageSql(ctx.actor, input);
        const service = await listUnlockRecords(ctx, input);
        const { rows: plain } = await client.query<{ id: number | null; counted: number }>(sql.text, sql.values);
        // The service's page is the plain SQL's, and the obvious query's: OFFSET over the whole rows, and count(*) of them all.
        const bounds = [
          g.hotelId,
          room.roomId,
          input.from ? zonedToInstant(`${input.from}T00:00`, TZ) : new Date(0),
          input.to ? zonedToInstant(`${addDays(input.to, 1)}T00:00`, TZ) : new Date(8.64e15),
        ];
        const filter = `"hotelId" = $1 AND "roomId" = $2 AND "occurredAt" >= $3 AND "occurredAt" < $4`;
        const { rows: obvious } = await client.query<{ id: number }>(
          `SELECT "id" FROM "UnlockRecord" WHERE ${filter} ORDER BY "occurredAt" DESC, "id" DESC LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}`,
          bounds,
        );
        const {
          rows: [all],
        } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "UnlockRecord" WHERE ${filter}`, bounds);
        const ids = (list: { id: number | null }[]) =>
          list
            .filter((r) => r.id !== null)
            .map((r) => r.id)
            .join();
        if (
          service.total !== Math.min(all!.n, RECORD_COUNT_CAP) ||
          service.totalCapped !== all!.n > RECORD_COUNT_CAP ||
          plain[0]!.counted !== Math.min(all!.n, RECORD_COUNT_CAP + 1) ||
          ids(plain) !== ids(service.items) ||
          ids(obvious) !== ids(service.items)
        ) {
          throw new Error(
            `${room.name}, ${page.name}: the service (${service.total}), its plain SQL (${plain[0]!.counted}) and the obvious query (${all!.n}) disagree`,
          );
        }
        totals.set(`${ri}|${pi}`, `${service.total.toLocaleString('en')}${service.totalCapped ? '+' : ''}`);
        runs.push({ key: `${ri}|${pi}|service`, fn: () => listUnlockRecords(ctx, input) });
        runs.push({ key: `${ri}|${pi}|sql`, fn: () => client.query(sql.text, sql.values) });
        // The statements the service sent before decision 013, in plain SQL: count(*) of every record
        // in the range, and the page with OFFSET over whole rows, at once on two connections.
        const before = { text: `"hotelId" = $1 AND "roomId" = $2 AND "occurredAt" >= $3 AND "occurredAt" < $4`, values: bounds };
        beforeRuns.push({ key: `${ri}|${pi}|sql2`, fn: () => client.query(sql.text, sql.values) });
        beforeRuns.push({
          key: `${ri}|${pi}|before`,
          fn: () =>
            Promise.all([
              pool.query(`SELECT count(*)::int AS n FROM "UnlockRecord" WHERE ${before.text}`, before.values),
              pool.query(
                `SELECT u."id", u."roomId", u."occurredAt", u."event", u."source", u."device", u."success", u."style", u."operator", u."credential", r."name" FROM "UnlockRecord" u JOIN "Room" r ON r."id" = u."roomId"
                 WHERE ${before.text.replace(/"(hotelId|roomId|occurredAt)"/g, 'u."$1"')} ORDER BY u."occurredAt" DESC, u."id" DESC LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}`,
                before.values,
              ),
            ]),
        });
        if (process.env.BENCH_EXPLAIN === '1') {
          const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values);
          console.log(`EXPLAIN ANALYZE, ${room.name}, ${page.name}:\n${plan.rows.map((r: Record<string, string>) => `    ${r['QUERY PLAN']}`).join('\n')}\n`);
        }
      }
    }
    const samples = new Map<Key, number[]>();
    /** Rounds over the runs in shuffled order, PER_ROUND calls of each, one after another. */
    async function time(list: typeof runs, rounds: number) {
      for (const r of list) for (let i = 0; i < WARM_UP; i++) await r.fn(); // warm-up
      const started = performance.now();
      for (let round = 0; round < rounds; round++) {
        for (const r of shuffle(list)) {
          const values = samples.get(r.key) ?? [];
          for (let i = 0; i < PER_ROUND; i++) {
            const t = performance.now();
            await r.fn();
            values.push(performance.now() - t);
          }
          samples.set(r.key, values);
        }
      }
      return performance.now() - started;
    }
    const mainMs = await time(runs, ROUNDS);
    // The statements before decision 013 take tens of ms with parallel workers on a 2-core machine:
    // timed after the main rounds, in rounds of their own with the statement of now, so they do not
    // disturb the figures above and their ratio is still measured side by side.
    const beforeRounds = Math.max(1, Math.round(ROUNDS / 4));
    const beforeMs = await time(beforeRuns, beforeRounds);
    console.log(
      `Timed ${ROUNDS} rounds of ${PER_ROUND} calls per room, page and path (${ROUNDS * PER_ROUND} each) in ${fmt(mainMs / 1000)} s; then the statements before decision 013 against the statement of now, ${beforeRounds} rounds (${beforeRounds * PER_ROUND} each) in ${fmt(beforeMs / 1000)} s.\n`,
    );
    console.log(
      '| room | page | total shown | service p50 ms | service p95 ms | plain SQL p50 ms | plain SQL p95 ms | service/SQL p95 | statements before p50 ms | before p95 ms | before/now p95 |',
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    let worstP95 = 0;
    let worstRatio = 0;
    for (const [ri, room] of rooms.entries()) {
      for (const [pi, page] of pages.entries()) {
        const s = samples.get(`${ri}|${pi}|service`)!;
        const q = samples.get(`${ri}|${pi}|sql`)!;
        const b = samples.get(`${ri}|${pi}|before`)!;
        const q2 = samples.get(`${ri}|${pi}|sql2`)!;
        worstP95 = Math.max(worstP95, percentile(s, 95));
        worstRatio = Math.max(worstRatio, percentile(s, 95) / percentile(q, 95));
        console.log(
          `| ${room.name} | ${page.name} | ${totals.get(`${ri}|${pi}`)!} | ${fmt(median(s))} | ${fmt(percentile(s, 95))} | ${fmt(median(q))} | ${fmt(percentile(q, 95))} | ${fmt(percentile(s, 95) / percentile(q, 95), 2)} | ${fmt(median(b))} | ${fmt(percentile(b, 95))} | ${fmt(percentile(b, 95) / percentile(q2, 95), 1)} |`,
        );
      }
    }
    target('Unlock records: service p95 under 20 ms on every page', worstP95 < 20, `worst ${fmt(worstP95)} ms`);
    target(
      `Unlock records: within 3x of plain SQL (p95), or under ${RATIO_FLOOR_MS} ms`,
      worstRatio <= 3 || worstP95 < RATIO_FLOOR_MS,
      `worst ${fmt(worstRatio, 2)}x, worst p95 ${fmt(worstP95)} ms`,
    );
  } finally {
    await client.end().catch(() => {});
    await pool.end().catch(() => {});
    if (deps) {
      // The keys of this run (the app's queues, here and in its child process).
      const keys = await deps.redis.keys(`benchulp:${process.pid}:*`);
      if (keys.length) await deps.redis.del(...keys);
      await closeDeps(deps);
    }
    if (process.env.BENCH_KEEP_DB === '1' || reuse) console.log(`Kept the database: ${db.url}`);
    else await db.drop();
  }
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

process.chdir(root);
await main();
