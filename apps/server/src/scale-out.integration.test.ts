import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue, type ConnectionOptions } from 'bullmq';
import ExcelJS from 'exceljs';
import { Redis } from 'ioredis';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { COOKIES } from '@console/shared';
import { createScratchDatabase } from './db/scratch-database';
import { DEMO } from './db/seed';
import { createS3Store, type FileStore } from './infra/file-store';
import { pngPhoto } from './test/photos';
import { processMode, startConsoleProcess, type ConsoleProcess } from './test/processes';

/**
 * More than one server (issue 18 §6, decision 024): two servers and a separate worker, each a real
 * process of its own (test/processes.ts), against one PostgreSQL database, one Redis and one
 * S3-compatible object store (s3rver, an S3 server written in Node, run here on 127.0.0.1), as a
 * hotel group runs them behind a load balancer. Each process has an upload directory of its own,
 * which must stay empty: every file goes to the shared store. The servers run with the production
 * configuration (NODE_ENV=production, their own secrets, the same on every process).
 *
 * - Two servers started at once on an empty database migrate and seed it once.
 * - A user signs in on one server and works on the other with the same session; the graphic
 *   code, the sign-in limits and the end of a session hold across servers.
 * - Pictures and face photos uploaded on one are shown by the other, signed URLs too.
 * - An export queued on one is written by the worker (not by a server: WORKERS_IN_PROCESS=false),
 *   into the object store, and downloaded from either.
 * - Schedules and the sweeps at start exist once, however many workers start; a delayed job runs once.
 * - A second server running a lock simulator inside it is refused (one simulator for the install).
 * - A server killed (SIGKILL) in the middle of a check-in, its transaction half written, leaves
 *   nothing of it; the client's retry with its idempotency key on the other server completes it, once.
 */

const ORIGIN = 'http://console.test';
const BUCKET = 'scale-out';
const S3_KEY = 'S3RVER'; // s3rver's own account (it knows no other)

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let sql: pg.Client;
let s3: S3rver;
let s3Url: string;
let store: FileStore;
let redis: Redis;
const redisPrefix = `${inject('redisPrefix')}:scale${randomBytes(3).toString('hex')}`;
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-scale-'));
const processes: ConsoleProcess[] = [];
let serverA: ConsoleProcess;
let serverB: ConsoleProcess;
let worker1: ConsoleProcess;
let hotelId: number;

/** What every process of the install shares: the same database, Redis, file store and secrets. */
function installEnv(name: string): Record<string, string> {
  const url = new URL(db.url);
  // Each process's connections carry its name, so the test can find them in pg_stat_activity.
  url.searchParams.set('application_name', `scale-${name}`);
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: url.toString(),
    DB_POOL_SIZE: '4',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: redisPrefix,
    FILE_STORE: 's3',
    S3_ENDPOINT: s3Url,
    S3_BUCKET: BUCKET,
    S3_PREFIX: 'install-1',
    S3_ACCESS_KEY_ID: S3_KEY,
    S3_SECRET_ACCESS_KEY: S3_KEY,
    // A directory of its own per process: nothing may land there.
    UPLOAD_DIR: path.join(tmpRoot, `local-${name}`),
    COMPAT_DES_KEY: 'scaleK01',
    COMPAT_DES_IV: 'scaleIv1',
    FACE_PHOTO_SECRET: 'scale-out-face-photo-secret-0123456789',
    CARD_KEY_SECRET: 'scale-out-card-key-secret-0123456789ab',
    SMS_PROVIDER: 'none',
    LOCK_PROVIDER: 'none',
    PUBLIC_ORIGINS: ORIGIN,
    SEED_DEMO: 'true',
    SHUTDOWN_TIMEOUT_MS: '5000',
  };
}

const startServer = (name: string) => startConsoleProcess('server', name, { ...installEnv(name), WORKERS_IN_PROCESS: 'false' }).then(track);
const startWorker = (name: string) => startConsoleProcess('worker', name, installEnv(name)).then(track);
function track(p: ConsoleProcess) {
  processes.push(p);
  return p;
}

beforeAll(async () => {
  db = await createScratchDatabase(inject('adminDatabaseUrl'), 'scale', { migrated: true });
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(tmpRoot, 's3rver'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const address = await s3.run();
  s3Url = `http://127.0.0.1:${address.port}`;
  store = await createS3Store({
    bucket: BUCKET,
    prefix: 'install-1/',
    region: 'us-east-1',
    endpoint: s3Url,
    forcePathStyle: true,
    accessKeyId: S3_KEY,
    secretAccessKey: S3_KEY,
  });
  redis = new Redis(inject('redisUrl'));
  // Both servers at once, on an empty database: both migrate and seed it.
  [serverA, serverB] = await Promise.all([startServer('a'), startServer('b')]);
  worker1 = await startWorker('w1');
  hotelId = (
    await sql.query<{ id: number }>('SELECT "hotelId" AS id FROM "Membership" m JOIN "Account" a ON a.id = m."accountId" WHERE a.mobile = $1', [
      DEMO.owner.mobile,
    ])
  ).rows[0]!.id;
}, 300_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await store?.close();
  redis?.disconnect();
  await sql?.end();
  await s3?.close();
  await db?.drop();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
}, 60_000);

beforeEach(({ onTestFailed }) => {
  // What each process printed, when a test fails: the reason is usually there.
  onTestFailed(() => {
    for (const p of processes) process.stderr.write(`\n----- ${p.name} (${p.kind}, pid ${p.pid}) -----\n${p.output().slice(-4000)}\n`);
  });
});

// ---- HTTP as the web console speaks it --------------------------------------------------------

interface Answer<T> {
  status: number;
  data?: T;
  error?: { message: string; data: { code: string; app?: { code: string } } };
  cookie?: string;
}

async function trpc<T = unknown>(server: ConsoleProcess, kind: 'query' | 'mutation', name: string, input?: unknown, session?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = { language: 'en', origin: ORIGIN };
  if (session) headers.cookie = `${COOKIES.session}=${session}`;
  const url = `${server.url}/trpc/${name}${kind === 'query' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`;
  const res = await fetch(
    url,
    kind === 'query' ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(input ?? {}) },
  );
  const body = (await res.json()) as { result?: { data: T }; error?: Answer<T>['error'] };
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${COOKIES.session}=`))
    ?.split(';')[0]
    ?.slice(COOKIES.session.length + 1);
  return { status: res.status, data: body.result?.data, error: body.error, cookie: cookie || undefined };
}

/** A graphic code made on `codeFrom`, answered from Redis (where every server keeps them). */
async function captcha(codeFrom: ConsoleProcess) {
  const made = await trpc<{ id: string }>(codeFrom, 'mutation', 'auth.captcha');
  const answer = await redis.get(`${redisPrefix}:captcha:${made.data!.id}`);
  return { captchaId: made.data!.id, captchaCode: answer! };
}

async function signIn(codeFrom: ConsoleProcess, on: ConsoleProcess, account: string, password: string) {
  return trpc<{ id: number }>(on, 'mutation', 'auth.login', { account, password, ...(await captcha(codeFrom)) });
}

async function get(server: ConsoleProcess, url: string, session?: string) {
  const res = await fetch(`${server.url}${url}`, { headers: session ? { cookie: `${COOKIES.session}=${session}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

async function upload(server: ConsoleProcess, session: string, purpose: 'picture' | 'face', bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${server.url}/api/uploads?purpose=${purpose}`, {
    method: 'POST',
    headers: { cookie: `${COOKIES.session}=${session}`, origin: ORIGIN },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { url: string; previewUrl?: string } };
}

async function vacantRooms(): Promise<number[]> {
  const { rows } = await sql.query<{ id: number }>(
    `SELECT id FROM "Room" WHERE "hotelId" = $1 AND "deletedAt" IS NULL AND status = 'vacant' AND maintenance = 'none' ORDER BY id`,
    [hotelId],
  );
  return rows.map((r) => r.id);
}

/** Waits for `check` to hold, asking again every 100 ms (never a fixed sleep), up to `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const queue = (name: string) => new Queue(name, { connection: { url: inject('redisUrl') } as ConnectionOptions, prefix: `${redisPrefix}:bull` });

let owner: string;

describe(`two servers and a worker on one database, one Redis and one object store (processes from the ${processMode()})`, () => {
  it('migrates and seeds the database once when two servers start together on it empty', async () => {
    const migrations = fs
      .readdirSync(path.resolve(import.meta.dirname, '../../../prisma/migrations'), { withFileTypes: true })
      .filter((d) => d.isDirectory()).length;
    const applied = await sql.query<{ migration_name: string; n: number }>(
      'SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY migration_name',
    );
    expect(applied.rows).toHaveLength(migrations);
    expect(applied.rows.every((r) => r.n === 1)).toBe(true);
    expect((await sql.query('SELECT id FROM "Hotel"')).rows).toHaveLength(1);
    expect((await sql.query('SELECT id FROM "Account" WHERE mobile IN ($1, $2)', [DEMO.owner.mobile, DEMO.staff.mobile])).rows).toHaveLength(2);
    expect((await vacantRooms()).length).toBeGreaterThanOrEqual(6);
  });

  it('signs in on one server with the graphic code of the other, and works on both with the same session until it ends', { timeout: 120_000 }, async () => {
    const login = await signIn(serverA, serverB, DEMO.owner.mobile, DEMO.owner.password);
    expect(login.status).toBe(200);
    owner = login.cookie!;
    expect(owner).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // A graphic code is single use on every server.
    const code = await captcha(serverA);
    expect((await trpc(serverB, 'mutation', 'auth.login', { account: DEMO.owner.mobile, password: DEMO.owner.password, ...code })).status).toBe(200);
    expect((await trpc(serverA, 'mutation', 'auth.login', { account: DEMO.owner.mobile, password: DEMO.owner.password, ...code })).error?.data.app?.code).toBe(
      'CAPTCHA_INVALID',
    );

    // A write on A, read on B, with the session made on B.
    const me = await trpc<{ mobile: string }>(serverA, 'query', 'auth.me', undefined, owner);
    expect(me.data?.mobile).toBe(DEMO.owner.mobile);
    const [roomId] = await vacantRooms();
    const start = new Date(Date.now() - 10 * 60_000);
    const stay = await trpc<{ id: number }>(
      serverA,
      'mutation',
      'stay.checkIn',
      {
        roomId,
        checkInAt: start.toISOString(),
        expectedCheckOutAt: new Date(start.getTime() + 26 * 3_600_000).toISOString(),
        guests: [{ name: 'Cross Server' }],
        idempotencyKey: randomUUID(),
        acknowledge: ['room_dirty', 'guest_in_other_room'],
      },
      owner,
    );
    expect(stay.status).toBe(200);
    const read = await trpc<{ id: number; guests: { name: string }[] }>(serverB, 'query', 'stay.get', { stayId: stay.data!.id }, owner);
    expect(read.data?.guests.map((g) => g.name)).toEqual(['Cross Server']);

    // The sign-in limits count failures on every server together (10 per account in the window).
    const failures = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 ? signIn(serverA, serverB, DEMO.staff.mobile, 'wrong-password') : signIn(serverB, serverA, DEMO.staff.mobile, 'wrong-password'),
      ),
    );
    expect(failures.map((f) => f.error?.data.app?.code)).toEqual(Array(10).fill('INVALID_CREDENTIALS'));
    for (const [codeFrom, on] of [
      [serverA, serverB],
      [serverB, serverA],
    ] as const) {
      expect((await signIn(codeFrom, on, DEMO.staff.mobile, DEMO.staff.password)).error?.data.app?.code).toBe('TOO_MANY_ATTEMPTS');
    }

    // Signed out on B: the session ends on A at its next request.
    const other = (await signIn(serverB, serverA, DEMO.owner.mobile, DEMO.owner.password)).cookie!;
    expect((await trpc(serverA, 'query', 'auth.me', undefined, other)).status).toBe(200);
    expect((await trpc(serverB, 'mutation', 'auth.logout', undefined, other)).status).toBe(200);
    expect((await trpc(serverA, 'query', 'auth.me', undefined, other)).status).toBe(401);
    expect((await trpc(serverA, 'query', 'auth.me', undefined, owner)).status).toBe(200);
  });

  it('shows a room picture and a face photo uploaded on one server from the other, face photos only through signed URLs', async () => {
    const picture = pngPhoto();
    const stored = await upload(serverA, owner, 'picture', picture);
    expect(stored.status).toBe(200);
    const shown = await get(serverB, stored.body.url);
    expect(shown.status).toBe(200);
    expect(shown.type).toBe('image/png');
    expect(shown.bytes.equals(picture)).toBe(true);

    const photo = pngPhoto();
    const face = await upload(serverB, owner, 'face', photo);
    expect(face.status).toBe(200);
    expect((await get(serverA, face.body.url)).status).toBe(404);
    const preview = await get(serverA, face.body.previewUrl!);
    expect(preview.status).toBe(200);
    expect(preview.bytes.equals(photo)).toBe(true);
    const created = await trpc<{ id: number; imageUrl: string }>(
      serverA,
      'mutation',
      'face.create',
      { faceId: 'SCALE-1', note: 'Across servers', imageUrl: face.body.url },
      owner,
    );
    expect(created.status).toBe(200);
    const listed = await trpc<{ items: { id: number; imageUrl: string }[] }>(serverB, 'query', 'face.list', { page: 1, pageSize: 20 }, owner);
    const signed = listed.data!.items.find((f) => f.id === created.data!.id)!.imageUrl;
    const fromA = await get(serverA, signed);
    expect(fromA.status).toBe(200);
    expect(fromA.bytes.equals(photo)).toBe(true);

    // In the object store, where both servers read them; on no process's own disk.
    const keys: string[] = [];
    for await (const file of store.list('')) keys.push(file.key);
    expect(keys).toEqual(expect.arrayContaining([stored.body.url.replace('/uploads/', ''), `faces/${face.body.url.replace('/uploads/', '')}`]));
  });

  it('has an export queued on one server written by the worker into the object store, and downloaded from either server', { timeout: 120_000 }, async () => {
    const started = await trpc<{ id: string; state: string }>(serverA, 'mutation', 'export.start', { list: 'rooms', scope: 'all' }, owner);
    expect(started.status).toBe(200);
    const done = await until('the export', async () => {
      const status = await trpc<{ state: string; downloadUrl: string | null; done: number }>(
        serverB,
        'query',
        'export.status',
        { id: started.data!.id },
        owner,
      );
      expect(status.data?.state).not.toBe('failed');
      return status.data?.state === 'done' && status.data;
    });
    // The worker ran it, not a server.
    const job = await queue('export').getJob(started.data!.id);
    expect(job?.processedBy).toBe(worker1.instance());
    expect(job?.processedBy).toMatch(new RegExp(`^worker@.+:${worker1.pid}$`));

    const [fromA, fromB] = await Promise.all([get(serverA, done.downloadUrl!, owner), get(serverB, done.downloadUrl!, owner)]);
    expect(fromA.status).toBe(200);
    expect(fromB.status).toBe(200);
    expect(fromA.bytes.equals(fromB.bytes)).toBe(true);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fromB.bytes as unknown as ArrayBuffer);
    const rooms = (await sql.query('SELECT id FROM "Room" WHERE "hotelId" = $1 AND "deletedAt" IS NULL', [hotelId])).rows.length;
    expect(book.worksheets[0]!.rowCount).toBe(rooms + 1);
    expect(done.done).toBe(rooms);
    expect(await store.exists(`exports/${hotelId}/${started.data!.id}.xlsx`)).toBe(true);

    // Nothing of any of it landed on a process's own disk.
    for (const p of processes) {
      const dir = path.join(tmpRoot, `local-${p.name}`);
      expect(fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }) : [], p.name).toEqual([]);
    }
  });

  it('keeps each schedule once and runs the sweep at start once however many workers start, and a delayed job once', { timeout: 180_000 }, async () => {
    const worker2 = await startWorker('w2');
    // A reservation arriving in 3 seconds: its delayed `arrive` job, queued by server B, run by a worker.
    const [, , roomId] = await vacantRooms();
    const arrival = new Date(Date.now() + 3_000);
    const reserved = await trpc<{ id: number; state: string }>(
      serverB,
      'mutation',
      'stay.checkIn',
      {
        roomId,
        checkInAt: arrival.toISOString(),
        expectedCheckOutAt: new Date(arrival.getTime() + 24 * 3_600_000).toISOString(),
        guests: [{ name: 'On Time' }],
        idempotencyKey: randomUUID(),
        acknowledge: ['room_dirty', 'guest_in_other_room'],
      },
      owner,
    );
    expect(reserved.data?.state).toBe('reserved');

    const stay = queue('stay');
    const exports = queue('export');
    try {
      for (const [q, scheduler] of [
        [stay, 'stay-sweep'],
        [exports, 'export-cleanup'],
      ] as const) {
        const schedulers = await q.getJobSchedulers();
        expect(schedulers.map((s) => s.key)).toEqual([scheduler]);
        // One next run of the schedule, not one per process that upserted it.
        const next = (await q.getJobs(['delayed', 'waiting', 'prioritized'])).filter((j) => j.repeatJobKey === scheduler);
        expect(next, scheduler).toHaveLength(1);
      }
      // The sweep at start: queued by the first worker's start, not again by the second's.
      const startSweeps = (await stay.getJobs(['completed', 'active', 'waiting', 'delayed', 'failed'])).filter((j) => j.id?.startsWith('stay-sweep-start-'));
      expect(startSweeps.map((j) => j.processedBy ?? 'not yet run')).toHaveLength(1);

      const arrived = await until('the arrival', async () => {
        const { rows } = await sql.query<{ status: string }>('SELECT status FROM "Stay" WHERE id = $1', [reserved.data!.id]);
        return rows[0]?.status === 'in_house' && rows[0];
      });
      expect(arrived.status).toBe('in_house');
      const audits = await sql.query('SELECT "actorJob" FROM "AuditLog" WHERE action = $1 AND "entityId" = $2', ['stay.arrive', String(reserved.data!.id)]);
      expect(audits.rows).toEqual([{ actorJob: 'stay.arrive' }]);
      const job = await until('the arrive job to be kept as completed', async () => {
        const found = await stay.getJob(`stay-${reserved.data!.id}-v0-arrive`);
        return found?.finishedOn ? found : undefined;
      });
      expect([worker1.instance(), worker2.instance()]).toContain(job.processedBy);
      expect(job.attemptsMade).toBe(1);
    } finally {
      await stay.close();
      await exports.close();
    }
  });

  it('refuses to run a second lock simulator inside a server of the install, saying how to run one for all', { timeout: 120_000 }, async () => {
    // A server on another machine runs the simulator inside it: its claim, as it keeps it in Redis.
    const claim = `${redisPrefix}:embedded-lock-sim`;
    await redis.set(claim, 'other-host.example:1', 'PX', 60_000);
    try {
      const env = {
        ...installEnv('c'),
        WORKERS_IN_PROCESS: 'false',
        LOCK_PROVIDER: 'sim',
        LOCK_SIM_PORT: '0',
        LOCK_SIM_STATE_FILE: path.join(tmpRoot, 'lock-sim-c.json'),
        LOCK_CALLBACK_SECRET: 'scale-out-lock-callback',
      };
      const refused = await startConsoleProcess('server', 'c', env).then(track, (error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(/exited \(1\) before it was ready/);
      expect((refused as Error).message).toMatch(/other-host\.example:1\) already runs the lock simulator[\s\S]*LOCK_SIM_URL/);
      expect(fs.existsSync(env.LOCK_SIM_STATE_FILE)).toBe(false);
    } finally {
      await redis.del(claim);
    }
  });

  it(
    'loses nothing when a server is killed in the middle of a check-in: its half-written transaction is gone, and the retry on the other server makes the stay once',
    { timeout: 120_000 },
    async () => {
      const [, , , roomId] = await vacantRooms();
      const key = randomUUID();
      const start = new Date(Date.now() - 5 * 60_000);
      const input = {
        roomId,
        checkInAt: start.toISOString(),
        expectedCheckOutAt: new Date(start.getTime() + 26 * 3_600_000).toISOString(),
        guests: [{ name: 'Killed Midway' }],
        depositAmount: 30_000,
        depositMethod: 'cash',
        idempotencyKey: key,
        acknowledge: ['room_dirty', 'guest_in_other_room'],
      };
      // Audit rows wait behind this lock: the check-in's transaction has written its stay when it reaches them.
      let wroteStay: boolean | undefined;
      const blocker = new pg.Client({ connectionString: db.url });
      await blocker.connect();
      try {
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE "AuditLog" IN SHARE MODE');
        const answer = trpc(serverA, 'mutation', 'stay.checkIn', input, owner).then(
          (a) => ({ answered: a.status }),
          (error: unknown) => ({ failed: String(error) }),
        );
        const waiting = await until('server A to wait for its audit entry', async () => {
          const { rows } = await sql.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE application_name = 'scale-a' AND wait_event_type = 'Lock' AND query LIKE '%"AuditLog"%'`,
          );
          return rows[0];
        });
        // Its transaction has written the stay by then (it holds the lock an insert takes).
        wroteStay =
          (await sql.query(`SELECT 1 FROM pg_locks WHERE pid = $1 AND relation = '"Stay"'::regclass AND mode = 'RowExclusiveLock' AND granted`, [waiting.pid]))
            .rows.length === 1;
        serverA.kill('SIGKILL');
        expect(await serverA.exited).toBe('SIGKILL');
        expect(await answer).toMatchObject({ failed: expect.stringMatching(/fetch failed/) });
      } finally {
        await blocker.query('ROLLBACK');
        await blocker.end();
      }
      // PostgreSQL ends the dead server's connections, and with them its transaction.
      await until(
        "server A's connections to end",
        async () => (await sql.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'scale-a'`)).rows.length === 0,
      );
      const count = async () => {
        const { rows } = await sql.query<{ stays: number; guests: number; entries: number; audits: number; room: string }>(
          `SELECT (SELECT count(*)::int FROM "Stay" WHERE "idempotencyKey" = $1) AS stays,
                (SELECT count(*)::int FROM "StayGuest" WHERE name = 'Killed Midway') AS guests,
                (SELECT count(*)::int FROM "OrderEntry" WHERE "roomId" = $2) AS entries,
                (SELECT count(*)::int FROM "AuditLog" a WHERE a.action = 'stay.checkIn' AND a."entityId" IN (SELECT id::text FROM "Stay" WHERE "roomId" = $2)) AS audits,
                (SELECT status::text FROM "Room" WHERE id = $2) AS room`,
          [key, roomId],
        );
        return rows[0]!;
      };
      expect(await count()).toEqual({ stays: 0, guests: 0, entries: 0, audits: 0, room: 'vacant' });
      expect(wroteStay).toBe(true);

      // The client did not get an answer: it sends the same check-in again, to the server still up.
      const retry = await trpc<{ id: number; state: string }>(serverB, 'mutation', 'stay.checkIn', input, owner);
      expect(retry.status).toBe(200);
      expect(retry.data?.state).toBe('in_house');
      // Answered but the answer lost: a second retry gets the same stay.
      const again = await trpc<{ id: number }>(serverB, 'mutation', 'stay.checkIn', input, owner);
      expect(again.data?.id).toBe(retry.data!.id);
      const after = await count();
      expect(after).toMatchObject({ stays: 1, guests: 1, audits: 1, room: 'checked_in' });
      // The room charge and the deposit, once each.
      const entries = await sql.query<{ kind: string; amount: string }>('SELECT kind::text, amount::text FROM "OrderEntry" WHERE "stayId" = $1 ORDER BY id', [
        retry.data!.id,
      ]);
      expect(entries.rows.map((e) => e.kind).sort()).toEqual(['deposit', 'room_charge']);
      expect(entries.rows.find((e) => e.kind === 'deposit')?.amount).toBe('30000');
      // The server and the worker still up go on.
      expect((await fetch(`${serverB.url}/readyz`)).status).toBe(200);
      expect(() => process.kill(worker1.pid, 0)).not.toThrow();
    },
  );
});
