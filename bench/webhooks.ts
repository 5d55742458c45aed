/**
 * `pnpm --filter @console/bench run webhooks`: issue 29 §3, webhooks (docs/webhooks.md). EVENTS
 * outbox events of a hotel with one endpoint, delivered by a worker process (the built bundle,
 * `apps/server/dist/worker.js`, as `pnpm worker` runs it) to a receiver in this process on
 * 127.0.0.1 (the install allowing loopback: OUTBOUND_PRIVATE_ADDRESSES=true).
 *
 * 1. The receiver alone: this process POSTs EVENTS signed messages of the same size to it, 16 at a
 *    time (the worker's concurrency): the time a sender with no database would take.
 * 2. Delivery: EVENTS `payment.recorded` events written to the outbox in one statement (their
 *    entries do not exist: each message's data is read and found gone, the same one query per
 *    attempt), the dispatcher woken by the events channel; the time until the receiver has every
 *    webhook-id, and the database's work meanwhile (pg_stat_database: transactions, rows read,
 *    written), per event. The ratio of the two times is the cost of the database and the queue.
 * 3. A worker killed: EVENTS more, the worker killed (SIGKILL) once a third has arrived and a new
 *    one started; every webhook-id must arrive (throws otherwise), duplicates (at least once) counted.
 *
 * Checked (each throws): every id received, each message's signature valid (verified with the
 * shipped example), every delivery `succeeded` in the database.
 *
 * Smoke run (BENCH_SMOKE=1): 120 events a run (the worker killed once 40 of the second batch have
 * arrived, 80 still to deliver), every run and check as in the full run; no 11 s waits around run 2
 * for pg_stat_database (its figures are printed, never checked), a killed worker's jobs taken up
 * after 3 s (JOB_LOCK_MS) instead of 30.
 *
 * Environment: BENCH_EVENTS, BENCH_ADMIN_DATABASE_URL, BENCH_REDIS_URL; BENCH_WORKER_PROFILE=<dir>: the
 * worker of run 2 under `--cpu-prof` (its profile written to <dir> when it is stopped after run 2, a
 * new worker taking run 3), summarised by `node bench/cpu-profile-top.mjs <file>`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { seal } from '../apps/server/src/infra/seal.ts';
import { newWebhookSecret, signedHeaders } from '../apps/server/src/modules/webhooks/signature.ts';
import { verifyWebhook } from '../apps/server/src/modules/webhooks/verify-example.ts';
import { fmt, root, sized, SMOKE, startProcess, stopProcess } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A smoke run's 120: the worker is killed after a third of the second batch, with 80 still to deliver. */
const EVENTS = Number(process.env.BENCH_EVENTS ?? sized(10_000, 120));
const CARD_KEY_SECRET = 'bench-webhooks-card-key-secret-01234567';
/** The webhooks' own purpose of the seal (modules/webhooks/webhook.service.ts). */
const SECRETS = { salt: 'smart-lock-console/webhooks', info: 'webhook signing secrets v1' };

interface Receiver {
  url: string;
  ids: Map<string, number>;
  bad: number;
  close(): Promise<void>;
}

async function startReceiver(secret: string | null): Promise<Receiver> {
  const ids = new Map<string, number>();
  let bad = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (secret && !verifyWebhook(secret, req.headers, Buffer.concat(chunks))) bad += 1;
      ids.set(id, (ids.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ids,
    get bad() {
      return bad;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface DbStats {
  xact: number;
  returned: number;
  fetched: number;
  inserted: number;
  updated: number;
  deleted: number;
}

async function dbStats(client: pg.Client): Promise<DbStats> {
  const { rows } = await client.query<Record<keyof DbStats, string>>(
    `SELECT xact_commit + xact_rollback AS xact, tup_returned AS returned, tup_fetched AS fetched, tup_inserted AS inserted, tup_updated AS updated, tup_deleted AS deleted
       FROM pg_stat_database WHERE datname = current_database()`,
  );
  const r = rows[0]!;
  return {
    xact: Number(r.xact),
    returned: Number(r.returned),
    fetched: Number(r.fetched),
    inserted: Number(r.inserted),
    updated: Number(r.updated),
    deleted: Number(r.deleted),
  };
}

function workerEnv(databaseUrl: string, redisPrefix: string, uploads: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    // Its "workers running" line (info) says it is ready.
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    FILE_STORE: 'directory',
    UPLOAD_DIR: uploads,
    COMPAT_DES_KEY: 'benchWh1',
    COMPAT_DES_IV: 'benchIv1',
    FACE_PHOTO_SECRET: 'bench-webhooks-face-photo-secret-0123',
    CARD_KEY_SECRET,
    SMS_PROVIDER: 'none',
    LOCK_PROVIDER: 'none',
    SEED_DEMO: 'false',
    // The smoke run takes a killed worker's jobs up after 3 s, not the default 30 s (and up to 30 s
    // more for the stalled check): the same path, a minute less of waiting.
    ...(SMOKE ? { JOB_LOCK_MS: '3000' } : {}),
    // The webhooks' dispatcher runs where the sweeps do.
    SCHEDULE_SWEEPS: 'true',
    OUTBOUND_PRIVATE_ADDRESSES: 'true',
  };
}

const PROFILE_DIR = process.env.BENCH_WORKER_PROFILE;

async function startWorker(databaseUrl: string, redisPrefix: string, uploads: string, profile = false) {
  const entry = path.join(root, 'apps/server/dist/worker.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run pnpm build first`);
  return startProcess(
    process.execPath,
    ['--openssl-legacy-provider', ...(profile && PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : []), entry],
    workerEnv(databaseUrl, redisPrefix, uploads),
    /workers running/,
    path.join(root, 'apps/server'),
  );
}

/** EVENTS outbox events of the hotel, in one statement; the dispatcher woken as a commit would wake it. */
async function writeEvents(client: pg.Client, redis: Redis, redisPrefix: string, hotelId: number, from: number): Promise<void> {
  await client.query(
    `INSERT INTO "DomainEvent" ("hotelId", "kind", "roomIds", "ids") SELECT $1, 'payment.recorded', '{}', jsonb_build_object('orderId', $2 + g) FROM generate_series(1, $3) g`,
    [hotelId, from, EVENTS],
  );
  await redis.publish(`${redisPrefix}:events`, JSON.stringify([]));
}

async function main() {
  console.log(`# Webhooks (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}${SMOKE ? ', smoke' : ''})\n`);
  const db = await createScratchDatabase(adminUrl, 'benchwh', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const redis = new Redis(redisUrl);
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const redisPrefix = `benchwh:${process.pid}`;
  const secret = newWebhookSecret();
  const receivers: Receiver[] = [];
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  try {
    await client.connect();
    const {
      rows: [hotel],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench Webhooks', 'Asia/Shanghai', now()) RETURNING "id"`,
    );

    // 1. The receiver alone.
    const alone = await startReceiver(null);
    receivers.push(alone);
    const body = JSON.stringify({
      type: 'payment.recorded',
      timestamp: new Date().toISOString(),
      data: { hotelId: hotel!.id, roomIds: [], orderId: 1, gone: true },
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const post = (i: number) =>
      new Promise<void>((resolve, reject) => {
        const headers = { 'content-type': 'application/json', ...signedHeaders([secret], `msg_${i}`, Math.floor(Date.now() / 1000), body) };
        const req = http.request(alone.url, { method: 'POST', agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        });
        req.on('error', reject);
        req.end(body);
      });
    const aloneStart = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < EVENTS) await post(next++);
      }),
    );
    const aloneMs = performance.now() - aloneStart;
    agent.destroy();
    if (alone.ids.size !== EVENTS) throw new Error(`the receiver alone got ${alone.ids.size} of ${EVENTS}`);

    // 2. Delivery through the outbox, the dispatcher, the queue and the guarded fetch.
    const receiver = await startReceiver(secret);
    receivers.push(receiver);
    const {
      rows: [endpoint],
    } = await client.query<{ id: number }>(
      `INSERT INTO "WebhookEndpoint" ("hotelId", "url", "events", "secret", "createdAt") VALUES ($1, $2, '{payment.recorded}', '', now() - interval '1 minute') RETURNING "id"`,
      [hotel!.id, receiver.url],
    );
    await client.query(`UPDATE "WebhookEndpoint" SET "secret" = $1 WHERE "id" = $2`, [
      seal(CARD_KEY_SECRET, SECRETS, `webhook:${hotel!.id}:${endpoint!.id}`, secret),
      endpoint!.id,
    ]);
    worker = await startWorker(db.url, redisPrefix, uploads, true);
    if (!SMOKE) await new Promise((resolve) => setTimeout(resolve, 11_000));
    const before = await dbStats(client);
    const start = performance.now();
    await writeEvents(client, redis, redisPrefix, hotel!.id, 0);
    await waitFor('the first event delivered', () => receiver.ids.size >= 1, 600_000);
    const firstMs = performance.now() - start;
    await waitFor('every event delivered', () => receiver.ids.size >= EVENTS, 600_000);
    const deliveryMs = performance.now() - start;
    if (!SMOKE) await new Promise((resolve) => setTimeout(resolve, 11_000));
    const after = await dbStats(client);
    if (receiver.bad > 0) throw new Error(`${receiver.bad} messages with a bad signature`);
    const per = (k: keyof DbStats) => fmt((after[k] - before[k]) / EVENTS, 2);
    if (PROFILE_DIR) {
      // Stopped (its profile written) and a new worker for run 3.
      await stopProcess(worker.child);
      worker = await startWorker(db.url, redisPrefix, uploads);
    }

    // 3. The worker killed in the middle, and a new one started.
    const firstIds = receiver.ids.size;
    const killStart = performance.now();
    await writeEvents(client, redis, redisPrefix, hotel!.id, EVENTS);
    await waitFor('a third of the second batch', () => receiver.ids.size >= firstIds + Math.floor(EVENTS / 3), 600_000);
    worker.child.kill('SIGKILL');
    await new Promise((resolve) => worker!.child.once('exit', resolve));
    const atKill = receiver.ids.size - firstIds;
    worker = await startWorker(db.url, redisPrefix, uploads);
    await waitFor('every event of the second batch after the restart', () => receiver.ids.size >= 2 * EVENTS, 600_000);
    const killMs = performance.now() - killStart;
    // A delivery whose request went out but whose answer the killed worker never saved is still
    // pending: its job, stalled, is taken up again by the new worker (BullMQ's stalled check, JOB_LOCK_MS)
    // and sent again with the same webhook-id. Every delivery must end `succeeded`.
    let states: { status: string; n: string }[] = [];
    const succeededNow = async () => {
      states = (await client.query<{ status: string; n: string }>(`SELECT "status", count(*) AS n FROM "WebhookDelivery" GROUP BY "status"`)).rows;
      return Number(states.find((s) => s.status === 'succeeded')?.n ?? 0);
    };
    const settledStart = performance.now();
    let succeeded = await succeededNow();
    while (succeeded !== 2 * EVENTS && performance.now() - settledStart < 180_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      succeeded = await succeededNow();
    }
    const settledMs = performance.now() - killStart;
    if (succeeded !== 2 * EVENTS) throw new Error(`deliveries succeeded: ${succeeded} of ${2 * EVENTS} (${JSON.stringify(states)})`);
    const duplicates = [...receiver.ids.values()].reduce((sum, n) => sum + n - 1, 0);
    if (receiver.bad > 0) throw new Error(`${receiver.bad} messages with a bad signature`);

    console.log('| run | events | time s | events/s | vs the receiver alone |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(`| the receiver alone (16 at a time, no database) | ${EVENTS} | ${fmt(aloneMs / 1000, 2)} | ${fmt(EVENTS / (aloneMs / 1000), 0)} | 1.00 |`);
    console.log(
      `| outbox → dispatcher → queue → guarded fetch | ${EVENTS} | ${fmt(deliveryMs / 1000, 2)} | ${fmt(EVENTS / (deliveryMs / 1000), 0)} | ${fmt(deliveryMs / aloneMs, 2)} |`,
    );
    console.log(
      `| the same, worker killed after ${atKill} and restarted | ${EVENTS} | ${fmt(killMs / 1000, 2)} | ${fmt(EVENTS / (killMs / 1000), 0)} | ${fmt(killMs / aloneMs, 2)} |`,
    );
    console.log('');
    console.log(`The first event arrived ${fmt(firstMs, 0)} ms after the outbox was written.`);
    console.log(
      `Database work per event delivered (pg_stat_database${SMOKE ? ', smoke: not settled, not worth reading' : ''}): ${per('xact')} transactions, ${per('returned')} rows returned, ${per('fetched')} fetched, ${per('inserted')} inserted, ${per('updated')} updated, ${per('deleted')} deleted.`,
    );
    console.log(
      `Killed worker: none lost (${2 * EVENTS} ids received, every delivery succeeded ${fmt(settledMs / 1000, 1)} s after the second batch was written), ${duplicates} received twice (at least once: their request went out, the worker died before saving the answer, and the new worker sent them again with the same id).`,
    );
    console.log(`\nok webhooks: ${2 * EVENTS} events delivered, none lost, every signature valid`);
  } finally {
    if (worker) await stopProcess(worker.child);
    for (const r of receivers) await r.close();
    await client.end().catch(() => {});
    redis.disconnect();
    await db.drop();
    fs.rmSync(uploads, { recursive: true, force: true });
  }
}

await main();
