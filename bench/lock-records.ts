/**
 * `pnpm --filter @console/bench run lock-records`: issue 7 §8, unlock-record callbacks.
 *   100,000 lock records of 100 locks, each paired with a room of a hotel (Lock rows as a status
 *   check leaves them, 10 passwords a room on the lock), posted to the real callback route
 *   (`POST /api/locks/callback/<secret>` of the built app, a child process) as TTLock and the
 *   simulator post them: form bodies with notifyType=1, lockId, lockMac and `records` (a JSON
 *   array), one lock a post, 10 to 50 records a post, 8 posts in flight. The mix: passcode
 *   openings with our tag (the holder is looked up), refused codes, cards, gateway unlocks, faces,
 *   and a few tamper alarms (each raises a lock message).
 *   Baselines, interleaved with the route in 10 chunks of about 10,000 records (ABC, then CBA,
 *   ...) so that the machine's load hits them alike:
 *     - the same rows, as ingestion makes them, inserted with `pg` alone: one multi-row INSERT a
 *       post, 8 in flight, into a twin hotel (the baseline of the cost per record);
 *     - `ingestLockRecords` called in this process with the parsed records (no HTTP): a third
 *       twin hotel; what the route costs beyond the service.
 *   Then 10% of the posts are sent again: every one answered `success`, nothing stored twice.
 *
 * Environment: BENCH_RECORDS (default 100000), BENCH_IN_FLIGHT (default 8), BENCH_KEEP_DB=1. A smoke
 * run (BENCH_SMOKE=1): 500 records of 10 locks in 2 chunks (ABC, then CBA), one in fifty a tamper
 * alarm (about 10, so that the lock messages are checked against some), no warm-up; every count
 * checked the same.
 */
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { DEV_LOCK_CALLBACK_SECRET } from '../apps/server/src/config/locks.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { parseTtlockNotification, ttlockRecordId } from '../apps/server/src/infra/locks/ttlock.ts';
import { parseLockTag } from '../apps/server/src/modules/credentials/delivery-kinds.ts';
import { ingestLockRecords, recordMeaning } from '../apps/server/src/modules/locks/records.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { fmt, median, percentile, root, startProcess, stopProcess, sized, bundledEntry } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/** A whole number of records a lock (a smoke run: 50, one to five posts each). */
const RECORDS = Number(process.env.BENCH_RECORDS ?? sized(100_000, 500));
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
const LOCKS = sized(100, 10);
const PASSWORDS_PER_ROOM = 10;
/** A smoke run: 2 chunks, the paths in both orders. */
const CHUNKS = sized(10, 2);
/**
 * Records whose roll is at or above this are tamper alarms (a lock message each): 1 in 2,000, about
 * 50 in a full run; 1 in 50 in a smoke run's 500 records (about 10: at 1 in 2,000 there would be
 * none in most smoke runs, and the lock messages' check would compare 0 with 0).
 */
const TAMPER_ROLL = sized(0.9995, 0.98);
const REPOST_SHARE = 0.1;
const MOBILE = '13312345681';

type Path = 'route' | 'service' | 'bare';
const LABEL: Record<Path, string> = {
  route: 'callback route (HTTP, the app in a child process)',
  service: 'ingestLockRecords in process (no HTTP)',
  bare: 'bare multi-row INSERT (pg), the baseline',
};

/** A record as the callback carries it (TTLock's field names). */
interface WireRecord {
  recordType: number;
  success: number;
  username: string;
  keyboardPwd: string;
  lockDate: number;
  electricQuantity: number;
  serverDate: number;
}

interface Batch {
  /** Index of the lock (0-99); each hotel has its own lock ids. */
  lock: number;
  records: WireRecord[];
}

interface Hotel {
  hotelId: number;
  roomIds: number[];
  lockIds: number[];
  /** Password ids of each room, by lock index, with their holder names. */
  passwords: { id: number; holder: string; code: string }[][];
}

const rand = (n: number) => Math.floor(Math.random() * n);

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function main() {
  console.log(`# Unlock-record callbacks (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const db = await createScratchDatabase(adminUrl, 'benchlkr', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const pool = new pg.Pool({ connectionString: db.url, options: CONNECTION_OPTIONS, max: IN_FLIGHT });
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  try {
    await client.connect();
    const {
      rows: [account],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, 'x', 'Bench', now()) RETURNING "id"`,
      [MOBILE],
    );

    /** A hotel of LOCKS rooms (100) paired with LOCKS locks (ids from `lockBase`), Lock rows as a status check leaves them, 10 passwords on each lock. */
    async function makeHotel(name: string, lockBase: number): Promise<Hotel> {
      const {
        rows: [hotel],
      } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ($1, 'Asia/Shanghai', now()) RETURNING "id"`, [
        name,
      ]);
      const hotelId = hotel!.id;
      await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [account!.id, hotelId]);
      const lockIds = Array.from({ length: LOCKS }, (_, i) => lockBase + i + 1);
      // The hotel's locks as an import leaves them, each the door of its room.
      const { rows: lockRows } = await client.query<{ id: number }>(
        `INSERT INTO "Lock" ("hotelId", "provider", "providerLockId", "name", "simulated", "online", "battery", "gatewayId", "gatewayOnline", "lastSeenAt", "statusCheckedAt", "updatedAt")
         SELECT $1, 'ttlock', l::text, 'SIM Room ' || l, true, true, 80, '1', true, now() - interval '1 hour', now() - interval '1 hour', now() FROM unnest($2::int[]) WITH ORDINALITY AS t(l, i) ORDER BY i RETURNING "id"`,
        [hotelId, lockIds],
      );
      const { rows: rooms } = await client.query<{ id: number }>(
        `INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "lockId", "updatedAt")
         SELECT $1, 'R' || lpad(i::text, 3, '0'), i, 20000, ($2::int[])[i], now() FROM generate_series(1, $3::int) i ORDER BY i RETURNING "id"`,
        [hotelId, lockRows.map((l) => l.id), LOCKS],
      );
      const { rows: pw } = await client.query<{ id: number; roomId: number; holderName: string; code: string }>(
        `INSERT INTO "LockPassword" ("hotelId", "roomId", "kind", "holderName", "code", "validFrom", "deliveryState", "providerRef", "deliveredAt", "updatedAt")
         SELECT $1, r.id, 'custom', 'Guest ' || r."sortOrder" || '-' || n, (300000 + r."sortOrder" * 100 + n)::text, now() - interval '40 days', 'on_lock', (r."sortOrder" * 100 + n)::text, now() - interval '40 days', now()
         FROM "Room" r CROSS JOIN generate_series(1, $2::int) n WHERE r."hotelId" = $1 ORDER BY r.id, n
         RETURNING "id", "roomId", "holderName", "code"`,
        [hotelId, PASSWORDS_PER_ROOM],
      );
      const roomIds = rooms.map((r) => r.id);
      const passwords = roomIds.map((roomId) => pw.filter((p) => p.roomId === roomId).map((p) => ({ id: p.id, holder: p.holderName, code: p.code })));
      return { hotelId, roomIds, lockIds, passwords };
    }

    const hotels: Record<Path, Hotel> = {
      route: await makeHotel('Bench records (route)', 500_000),
      service: await makeHotel('Bench records (service)', 600_000),
      bare: await makeHotel('Bench records (bare)', 700_000),
    };

    // The records: per lock, times spread over the last 30 days (distinct lock dates), cut into posts of 10-50.
    const now = Date.now();
    const perLock = RECORDS / LOCKS;
    const batches: Batch[] = [];
    let tampers = 0;
    for (let lock = 0; lock < LOCKS; lock++) {
      const start = now - 30 * 86_400_000;
      const step = Math.floor((30 * 86_400_000) / perLock);
      const records: WireRecord[] = [];
      for (let k = 0; k < perLock; k++) {
        const lockDate = start + k * step + rand(step - 1);
        const roll = Math.random();
        const pwIndex = rand(PASSWORDS_PER_ROOM);
        // Usernames and codes are filled per hotel (their password ids differ); here the kind of record.
        let r: WireRecord;
        if (roll < 0.55)
          r = {
            recordType: 4,
            success: 1,
            username: `@pw${pwIndex}`,
            keyboardPwd: `@code${pwIndex}`,
            lockDate,
            electricQuantity: 80,
            serverDate: lockDate + 2_000,
          };
        else if (roll < 0.62)
          r = {
            recordType: 4,
            success: 0,
            username: '',
            keyboardPwd: String(100000 + rand(899999)),
            lockDate,
            electricQuantity: 80,
            serverDate: lockDate + 2_000,
          };
        else if (roll < 0.82)
          r = {
            recordType: 7,
            success: 1,
            username: `Card ${rand(500)}`,
            keyboardPwd: String(3_000_000_000 + rand(1_000_000)),
            lockDate,
            electricQuantity: 80,
            serverDate: lockDate + 2_000,
          };
        else if (roll < 0.92)
          r = { recordType: 12, success: 1, username: 'sim-hotel-admin', keyboardPwd: '', lockDate, electricQuantity: 80, serverDate: lockDate + 2_000 };
        else if (roll < TAMPER_ROLL)
          r = {
            recordType: 67,
            success: 1,
            username: `Face ${rand(200)}`,
            keyboardPwd: String(rand(100)),
            lockDate,
            electricQuantity: 80,
            serverDate: lockDate + 2_000,
          };
        else {
          r = { recordType: 44, success: 1, username: '', keyboardPwd: '', lockDate, electricQuantity: 80, serverDate: lockDate + 2_000 };
          tampers += 1;
        }
        records.push(r);
      }
      for (let k = 0; k < records.length;) {
        const size = 10 + rand(41);
        batches.push({ lock, records: records.slice(k, k + size) });
        k += size;
      }
    }
    const order = shuffle(batches);
    const tagged = order.reduce((n, b) => n + b.records.filter((r) => r.username.startsWith('@pw')).length, 0);

    /** The records of a batch for one hotel: our tag and code where the record is one of our passwords. */
    const wire = (h: Hotel, b: Batch): WireRecord[] =>
      b.records.map((r) => {
        if (!r.username.startsWith('@pw')) return r;
        const p = h.passwords[b.lock]![Number(r.username.slice(3))]!;
        return { ...r, username: `${p.holder} #P${p.id}`, keyboardPwd: p.code };
      });
    const form = (h: Hotel, b: Batch) =>
      new URLSearchParams({
        notifyType: '1',
        lockId: String(h.lockIds[b.lock]),
        lockMac: `SI:M0:00:${String(b.lock).padStart(2, '0')}`,
        records: JSON.stringify(wire(h, b)),
      }).toString();

    /** The rows ingestion makes of a batch, for the bare INSERT. */
    const COLUMNS = [
      'hotelId',
      'roomId',
      'providerRecordId',
      'credential',
      'recordType',
      'occurredAt',
      'event',
      'source',
      'device',
      'success',
      'style',
      'operator',
    ];
    const rowsOf = (h: Hotel, b: Batch): unknown[][] =>
      wire(h, b).map((r) => {
        const lockId = String(h.lockIds[b.lock]);
        const success = r.success === 1;
        const meaning = recordMeaning(r.recordType, success);
        const tag = parseLockTag(r.username);
        const holder = tag ? h.passwords[b.lock]!.find((p) => p.id === tag.id)?.holder : undefined;
        return [
          h.hotelId,
          h.roomIds[b.lock],
          ttlockRecordId(lockId, { lockDate: r.lockDate, recordType: r.recordType, success, credential: r.keyboardPwd }),
          tag && holder !== undefined ? `${tag.kind}:${tag.id}` : null,
          r.recordType,
          new Date(r.lockDate),
          meaning.event,
          meaning.source,
          `SIM Room ${lockId}`,
          success,
          meaning.style,
          holder ?? r.username.replace(/\s*#[A-Z]\d{1,10}$/, '').trim(),
        ];
      });
    const insertSql = (n: number) =>
      `INSERT INTO "UnlockRecord" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${Array.from({ length: n }, (_, i) => `(${COLUMNS.map((c, j) => `$${i * COLUMNS.length + j + 1}${c === 'style' ? '::"UnlockStyle"' : ''}`).join(', ')})`).join(', ')}`;

    const { child, match } = await startProcess(
      process.execPath,
      ['--openssl-legacy-provider', ...bundledEntry('server.ts')],
      {
        DATABASE_URL: db.url,
        REDIS_PREFIX: `benchlkr:${process.pid}`,
        NODE_ENV: 'development',
        SEED_DEMO: 'false',
        LOCK_PROVIDER: 'none',
        BENCH_ACCOUNT_MOBILE: MOBILE,
      },
      /\{"port":\d+.*\}/,
      path.join(root, 'bench'),
    );
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: `benchlkr:${process.pid}`,
      LOCK_PROVIDER: 'none',
    });
    deps = await createDeps(config, db.url, createLogger(config), { poolSize: IN_FLIGHT, locks: null });
    const d = deps;
    try {
      const { port } = JSON.parse(match[0]) as { port: number };
      const url = `http://127.0.0.1:${port}/api/locks/callback/${DEV_LOCK_CALLBACK_SECRET}`;
      let badAnswers = 0;
      const send: Record<Path, (b: Batch) => Promise<unknown>> = {
        route: async (b) => {
          const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form(hotels.route, b) });
          if (res.status !== 200 || (await res.text()) !== 'success') badAnswers += 1;
        },
        service: async (b) => {
          const notification = parseTtlockNotification(Object.fromEntries(new URLSearchParams(form(hotels.service, b))));
          if (notification.type !== 'records') throw new Error('not a records notification');
          await ingestLockRecords(d, notification.records, { callback: true });
        },
        bare: async (b) => {
          const rows = rowsOf(hotels.bare, b);
          await pool.query(insertSql(rows.length), rows.flat());
        },
      };
      const latencies: Record<Path, number[]> = { route: [], service: [], bare: [] };
      /** Sends batches with IN_FLIGHT at a time; resolves with the wall time in ms. */
      async function drive(p: Path, list: Batch[], keep = true): Promise<number> {
        const t = performance.now();
        let next = 0;
        await Promise.all(
          Array.from({ length: IN_FLIGHT }, async () => {
            while (next < list.length) {
              const b = list[next++]!;
              const t0 = performance.now();
              await send[p](b);
              if (keep) latencies[p].push(performance.now() - t0);
            }
          }),
        );
        return performance.now() - t;
      }

      // Warm-up on records that are not part of the run (another 2,000 of a lock, an hour ago), then
      // removed; none in a smoke run (as many records as its run, and it times nothing worth reading).
      const warm: Batch[] = Array.from({ length: sized(80, 0) }, (_, i) => ({
        lock: i % LOCKS,
        records: Array.from({ length: 25 }, (_, k) => ({
          recordType: 12,
          success: 1,
          username: 'warm-up',
          keyboardPwd: '',
          lockDate: now - 3_600_000 - i * 1_000 - k,
          electricQuantity: 80,
          serverDate: now,
        })),
      }));
      for (const p of ['route', 'service', 'bare'] as const) await drive(p, warm, false);
      await client.query(`DELETE FROM "UnlockRecord"`);
      await client.query('VACUUM ANALYZE "UnlockRecord"');

      // The run: chunks of about 10,000 records, the three paths in turn, the order reversed every other chunk.
      const chunkSize = Math.ceil(order.length / CHUNKS);
      const ms: Record<Path, number[]> = { route: [], service: [], bare: [] };
      const counts: number[] = [];
      for (let c = 0; c < CHUNKS; c++) {
        const chunk = order.slice(c * chunkSize, (c + 1) * chunkSize);
        counts.push(chunk.reduce((n, b) => n + b.records.length, 0));
        const paths: Path[] = c % 2 === 0 ? ['route', 'service', 'bare'] : ['bare', 'service', 'route'];
        for (const p of paths) ms[p].push(await drive(p, chunk));
      }
      const total = (p: Path) => ms[p].reduce((a, b) => a + b, 0);

      // What was stored.
      const stored = async (h: Hotel) =>
        (
          await client.query<{ n: number; cred: number }>(
            `SELECT count(*)::int AS n, count("credential")::int AS cred FROM "UnlockRecord" WHERE "hotelId" = $1`,
            [h.hotelId],
          )
        ).rows[0]!;
      const messages = async (h: Hotel) =>
        (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "LockMessage" WHERE "hotelId" = $1`, [h.hotelId])).rows[0]!.n;
      const problems: string[] = [];
      for (const p of ['route', 'service', 'bare'] as const) {
        const s = await stored(hotels[p]);
        if (s.n !== RECORDS) problems.push(`${p}: ${s.n} records stored, ${RECORDS} sent`);
        if (s.cred !== tagged) problems.push(`${p}: ${s.cred} records name one of our passwords, ${tagged} were tagged`);
      }
      for (const p of ['route', 'service'] as const)
        if ((await messages(hotels[p])) !== tampers) problems.push(`${p}: ${await messages(hotels[p])} lock messages, ${tampers} tamper records`);
      if (badAnswers) problems.push(`${badAnswers} posts not answered 200 "success"`);

      // 10% of the posts again (a receiver that answered late, TTLock pushing again): nothing stored twice.
      const again = shuffle(order).slice(0, Math.round(order.length * REPOST_SHARE));
      const againRecords = again.reduce((n, b) => n + b.records.length, 0);
      const againMs = await drive('route', again, false);
      const after = await stored(hotels.route);
      if (after.n !== RECORDS) problems.push(`after posting ${againRecords} records again: ${after.n} stored`);
      if ((await messages(hotels.route)) !== tampers) problems.push('posting again raised lock messages again');
      if (badAnswers) problems.push(`${badAnswers} posts not answered 200 "success" (after posting again)`);
      const dupes = (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM "UnlockRecord" WHERE "hotelId" = $1 GROUP BY "providerRecordId" HAVING count(*) > 1) x`,
          [hotels.route.hotelId],
        )
      ).rows[0]!.n;
      if (dupes) problems.push(`${dupes} provider record ids stored twice`);
      if (problems.length) throw new Error(problems.join('\n'));

      const posts = order.length;
      console.log(
        `${RECORDS.toLocaleString('en')} records of ${LOCKS} locks (a room each), ${posts.toLocaleString('en')} posts of 10-50 records (mean ${fmt(RECORDS / posts)}), ${IN_FLIGHT} in flight; ${CHUNKS} chunks, the three paths in turn (order reversed every other chunk).`,
      );
      console.log(
        `Mix: ${fmt((tagged / RECORDS) * 100)}% openings with one of our passwords (holder looked up), refused codes, cards, gateway unlocks, faces, ${tampers} tamper alarms.\n`,
      );
      console.log('| path | records | wall s | records/s | posts/s | ms a post p50 | p95 | cost per record x bare INSERT |');
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
      for (const p of ['route', 'service', 'bare'] as const) {
        const s = total(p) / 1000;
        console.log(
          `| ${LABEL[p]} | ${RECORDS.toLocaleString('en')} | ${fmt(s, 2)} | ${fmt(RECORDS / s, 0)} | ${fmt(posts / s, 0)} | ${fmt(median(latencies[p]))} | ${fmt(percentile(latencies[p], 95))} | ${fmt(total(p) / total('bare'), 2)} |`,
        );
      }
      const chunkRatios = ms.route.map((m, c) => m / ms.bare[c]!);
      console.log(
        `\nRoute / bare INSERT per chunk: ${chunkRatios.map((r) => fmt(r, 2)).join(', ')} (median ${fmt(median(chunkRatios), 2)}; records per chunk ${counts[0]!.toLocaleString('en')} or so).`,
      );
      console.log(`Route / service in process: ${fmt(total('route') / total('service'), 2)}.`);
      console.log(
        `\nPosted again: ${again.length} posts (${againRecords.toLocaleString('en')} records) in ${fmt(againMs / 1000, 2)} s (${fmt(againRecords / (againMs / 1000), 0)} records/s), every one answered "success"; records stored after: ${after.n.toLocaleString('en')} (none twice), lock messages unchanged (${tampers}).\n`,
      );
    } finally {
      await stopProcess(child);
    }
  } finally {
    await client.end().catch(() => {});
    await pool.end().catch(() => {});
    if (deps) {
      // The keys of this run (the app's queues, here and in its child process).
      const keys = await deps.redis.keys(`benchlkr:${process.pid}:*`);
      if (keys.length) await deps.redis.del(...keys);
      await closeDeps(deps);
    }
    if (process.env.BENCH_KEEP_DB === '1') console.log(`Kept the database: ${db.url}`);
    else await db.drop();
  }
}

process.chdir(root);
await main();
