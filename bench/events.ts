/**
 * `pnpm --filter @console/bench run events`: issue 26 ("Faces and numbers"), the live feed
 * (docs/events.md) with 500 subscribed tabs and 100 changes a second. Targets: p95 from commit to
 * the tab under 500 ms, and the writes' cost with the outbox within 10 % of without.
 *
 * The feed. A hotel of ROOMS rooms, each with a guest checked in through `stay.checkIn` first.
 * Two server processes (the built bundle, `apps/server/dist/main.js`, as `pnpm serve` runs it and
 * as the scale-out test starts it with TEST_PROCESSES=dist) share the database and Redis. TABS
 * subscriptions to `event.feed` over server-sent events, as the web console's link opens them
 * (`GET /trpc/event.feed`, the session cookie, `accept: text/event-stream`), spread over both
 * servers and over USERS signed-in members (a session each, as a browser's tabs share its cookie):
 * a third of them staff limited to an eighth of the rooms each (half of the rooms are nobody's
 * among them). Then RATE changes a second for SECONDS, open loop (a change starts every 1/RATE s
 * whether the ones before answered or not), alternately through both servers, by a clerk over
 * tRPC: payments (`order.recordPayment`), housekeeping (`room.setStatus`, dirty and clean in turn)
 * and renewals of a night (`stay.renew`, the stay's charge posted: two events).
 *
 * Commit to tab. The event's `at` is its transaction's start (`CURRENT_TIMESTAMP`, the outbox row's
 * `createdAt`): earlier than the commit by the whole transaction, so `arrival - at` is an upper
 * bound of commit-to-tab (the same clock: every process runs on this machine). The mutation's
 * round trip at the clerk (request to answer, which comes after the commit and the publish) is
 * printed beside it: how much of that bound can be the transaction itself.
 *
 * Checked (each throws): every tab receives every event of the outbox written during the run that
 * it may see (all of them for a member of all rooms; for a limited one those naming one of its
 * rooms or none), exactly once, and nothing else; a limited member's event names only its rooms;
 * no change failed.
 *
 * The writes' cost. The same three services (`recordPayment`, `setRoomStatus`, `renewStay`) called
 * in this process, one after another, with the outbox (as they run) and without it, interleaved:
 * ROUNDS rounds, each a shuffled list of CALLS calls of each service on each side. "Without" is a
 * benchmark-only wrapper of the deps given to the services (`withoutOutbox` below), not a switch of
 * the server: in the transaction of `transaction()` it replaces the one statement that writes the
 * transaction's events and audit rows (`writeRecorded`, db/events.ts) by the same statement's audit
 * part alone (what `writeRecorded` sends for a transaction with audit rows and no event), and drops
 * the publish to Redis. "With" goes through the same wrappers, passing both unchanged. Checked: the
 * "without" calls write no event and the same audit rows as the "with" ones.
 *
 * Smoke run (BENCH_SMOKE=1): the same two servers, feeds, changes and checks, at a size that still
 * holds every case: 8 rooms (each of the 2 limited members sees one, the 6 others none of theirs),
 * 6 members each with a tab on both servers (12 tabs), 10 changes at 10 a second (the
 * mix of payments, housekeeping and renewals once through); the writes' cost one round of one call
 * of each service on each side, no warm-up.
 *
 * Environment: BENCH_TABS, BENCH_RATE, BENCH_SECONDS, BENCH_ROOMS, BENCH_ROUNDS,
 * BENCH_ADMIN_DATABASE_URL, BENCH_REDIS_URL, BENCH_CPU_PROF (a directory: each server's CPU profile).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import { COOKIES } from '@console/shared';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext, Deps } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { recordPayment } from '../apps/server/src/modules/orders/payments.ts';
import { setRoomStatus } from '../apps/server/src/modules/room/room-housekeeping.ts';
import { checkIn } from '../apps/server/src/modules/stays/check-in.ts';
import { renewStay } from '../apps/server/src/modules/stays/renewal.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { fmt, median, percentile, root, sized, SMOKE, startProcess, stopProcess, target } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Members of the hotel whose tabs subscribe: two thirds of all rooms, a third limited to an eighth of the rooms each. */
const USERS = sized(12, 6);
/** A smoke run's 12: a tab of each member on each server. */
const TABS = Number(process.env.BENCH_TABS ?? sized(500, 2 * USERS));
/** A smoke run's 10 changes: MIX once through. */
const RATE = Number(process.env.BENCH_RATE ?? sized(100, 10));
const SECONDS = Number(process.env.BENCH_SECONDS ?? sized(20, 1));
/** A smoke run's 8: one room for each limited member (a room's index modulo 8), and rooms none of them sees. */
const ROOMS = Number(process.env.BENCH_ROOMS ?? sized(400, 8));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(20, 1));
const CALLS = sized(10, 1);
const LIMITED = USERS / 3;
const ORIGIN = 'http://console.bench';
const TZ = 'Asia/Shanghai';

const now = () => performance.timeOrigin + performance.now();

/** The CPU time (user + system, ms) a process has spent so far, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const loads: string[] = [];
const noteLoad = (when: string) =>
  loads.push(
    `${when} ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** The hotel, its members (an owner who is the clerk, USERS members whose tabs subscribe) and its rooms. */
async function generate(client: pg.Client) {
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench Events', $1, now()) RETURNING "id"`, [TZ]);
  const hotelId = hotel!.id;
  const { rows: accounts } = await client.query<{ id: number }>(
    `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt")
     SELECT '1351234' || lpad(i::text, 4, '0'), 'x', CASE WHEN i = 0 THEN 'Clerk' ELSE 'Member ' || i END, now() FROM generate_series(0, ${USERS}) i ORDER BY i RETURNING "id"`,
  );
  const { rows: memberships } = await client.query<{ id: number; accountId: number }>(
    `INSERT INTO "Membership" ("accountId", "hotelId", "role", "allRooms", "updatedAt")
     SELECT a, $1, CASE WHEN n = 1 THEN 'owner'::"Role" ELSE 'staff'::"Role" END, n <= ${USERS + 1 - LIMITED}, now() FROM unnest($2::int[]) WITH ORDINALITY AS t(a, n)
     RETURNING "id", "accountId"`,
    [hotelId, accounts.map((a) => a.id)],
  );
  await client.query(`INSERT INTO "RoomGroup" ("hotelId", "name", "sort", "updatedAt") VALUES ($1, 'Floor 1', 1, now())`, [hotelId]);
  const { rows: rooms } = await client.query<{ id: number }>(
    `INSERT INTO "Room" ("hotelId", "groupId", "name", "sortOrder", "usualPrice", "weekendPrice", "updatedAt")
     SELECT $1, (SELECT id FROM "RoomGroup" WHERE "hotelId" = $1), 'R' || lpad(i::text, 4, '0'), i, 20000, 25000, now() FROM generate_series(1, ${ROOMS}) i
     ORDER BY i RETURNING "id"`,
    [hotelId],
  );
  const roomIds = rooms.map((r) => r.id);
  const byAccount = new Map(memberships.map((m) => [m.accountId, m.id]));
  // Member k (0-based) of the limited ones sees the rooms whose index is k modulo 8: rooms 4 to 7 modulo 8 are none of theirs.
  const members = accounts.slice(1).map((a, i) => {
    const limitedIndex = i - (USERS - LIMITED);
    const rooms = limitedIndex >= 0 ? new Set(roomIds.filter((_, r) => r % 8 === limitedIndex)) : null;
    return { accountId: a.id, membershipId: byAccount.get(a.id)!, rooms };
  });
  for (const m of members) {
    if (!m.rooms) continue;
    await client.query(`INSERT INTO "MembershipRoom" ("hotelId", "membershipId", "roomId") SELECT $1, $2, r FROM unnest($3::int[]) r`, [
      hotelId,
      m.membershipId,
      [...m.rooms],
    ]);
  }
  return { hotelId, clerkAccountId: accounts[0]!.id, members, roomIds };
}

/** The environment of one server process, as an install runs it (the scale-out test's set-up). */
function serverEnv(databaseUrl: string, redisPrefix: string, uploads: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    FILE_STORE: 'directory',
    UPLOAD_DIR: uploads,
    COMPAT_DES_KEY: 'benchEv1',
    COMPAT_DES_IV: 'benchIv1',
    FACE_PHOTO_SECRET: 'bench-events-face-photo-secret-012345',
    CARD_KEY_SECRET: 'bench-events-card-key-secret-0123456',
    SMS_PROVIDER: 'none',
    LOCK_PROVIDER: 'none',
    PUBLIC_ORIGINS: ORIGIN,
    SEED_DEMO: 'false',
    SCHEDULE_SWEEPS: 'false',
    WORKERS_IN_PROCESS: 'false',
    SHUTDOWN_TIMEOUT_MS: '5000',
  };
}

interface Tab {
  server: number;
  rooms: Set<number> | null;
  /** Event ids received, in order, and when (ms, this machine's clock). */
  ids: number[];
  times: number[];
  /** A limited member's events: the rooms each named. */
  roomsSent: Map<number, number[]>;
  connected: Promise<void>;
  error: Error | undefined;
  close(): void;
}

/**
 * One tab's `event.feed`, read as the browser's EventSource reads it (server-sent events). A tab of
 * a member of all rooms keeps each event's id (the SSE `id:` field, the event's own id) and its
 * arrival; a limited member's also parses the event's rooms.
 */
function subscribe(port: number, server: number, session: string, rooms: Set<number> | null): Tab {
  let connected!: () => void;
  let failed!: (error: Error) => void;
  const tab: Tab = {
    server,
    rooms,
    ids: [],
    times: [],
    roomsSent: new Map(),
    connected: new Promise<void>((resolve, reject) => {
      connected = resolve;
      failed = reject;
    }),
    error: undefined,
    close: () => request.destroy(),
  };
  let closing = false;
  const fail = (error: Error) => {
    if (closing) return;
    tab.error ??= error;
    failed(error);
  };
  const request = http.get(
    {
      host: '127.0.0.1',
      port,
      path: `/trpc/event.feed?input=${encodeURIComponent('{}')}`,
      headers: { cookie: `${COOKIES.session}=${session}`, accept: 'text/event-stream', origin: ORIGIN, language: 'en' },
      agent: false,
    },
    (res) => {
      if (res.statusCode !== 200 || !/^text\/event-stream/.test(res.headers['content-type'] ?? '')) {
        fail(new Error(`event.feed answered ${res.statusCode} ${res.headers['content-type']}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const t = now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event:') || block.startsWith(':')) {
            if (block.startsWith('event: connected') || block.startsWith('event:connected')) connected();
            continue;
          }
          if (!/^id: ?\d+$/m.test(block)) continue;
          // A message is a gathering of events (decision 043): each one is a delivery.
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          for (const event of JSON.parse(data) as { id: string; roomIds: number[] }[]) {
            const id = Number(event.id);
            tab.ids.push(id);
            tab.times.push(t);
            if (rooms) tab.roomsSent.set(id, event.roomIds);
          }
        }
      });
      res.on('end', () => fail(new Error('the feed ended')));
      res.on('error', fail);
    },
  );
  request.on('error', fail);
  const destroy = tab.close;
  tab.close = () => {
    closing = true;
    destroy();
  };
  return tab;
}

async function trpcMutation<T>(base: string, session: string, name: string, input: unknown): Promise<T> {
  const res = await fetch(`${base}/trpc/${name}`, {
    method: 'POST',
    headers: { cookie: `${COOKIES.session}=${session}`, origin: ORIGIN, language: 'en', 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string } };
  if (!res.ok || !body.result) throw new Error(`${name}: ${res.status} ${body.error?.message}`);
  return body.result.data;
}

/** A guest in house in a room, as the clerk checks one in. */
const checkInInput = (roomId: number) => ({
  roomId,
  checkInAt: new Date(Date.now() - 60 * 60_000).toISOString(),
  expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000).toISOString(),
  guests: [{ name: `Guest ${roomId}` }],
  idempotencyKey: randomUUID(),
});

interface InHouse {
  roomId: number;
  stayId: number;
  checkOut: number;
  dirty: boolean;
  busy: boolean;
}

type Kind = 'payment' | 'housekeeping' | 'renewal';
/** Of 10 changes: 5 payments, 3 housekeeping, 2 renewals. */
const MIX: Kind[] = ['payment', 'housekeeping', 'payment', 'renewal', 'payment', 'housekeeping', 'payment', 'renewal', 'payment', 'housekeeping'];

/**
 * One change of `stay` by the clerk, over HTTP or in this process. The stay's state kept here
 * (dirty or clean, its check-out) follows only a change that was done: one refused as busy leaves
 * the room and the stay as they were, so the next change is a change again.
 */
async function change(call: (name: string, input: Record<string, unknown>) => Promise<unknown>, kind: Kind, stay: InHouse): Promise<void> {
  if (kind === 'payment') {
    await call('order.recordPayment', { stayId: stay.stayId, amount: 100, method: 'cash', note: 'Bench', requestId: randomUUID() });
  } else if (kind === 'housekeeping') {
    await call('room.setStatus', { roomId: stay.roomId, target: stay.dirty ? 'clean' : 'dirty' });
    stay.dirty = !stay.dirty;
  } else {
    const checkOut = stay.checkOut + 86_400_000;
    await call('stay.renew', { stayId: stay.stayId, expectedCheckOutAt: new Date(checkOut).toISOString() });
    stay.checkOut = checkOut;
  }
}

const overHttp = (base: string, session: string) => (name: string, input: Record<string, unknown>) => trpcMutation(base, session, name, input);

/** The same services called in this process, as the routers call them. */
const inProcess = (ctx: AuthedContext) => (name: string, input: Record<string, unknown>) =>
  name === 'order.recordPayment'
    ? recordPayment(ctx, input as Parameters<typeof recordPayment>[1])
    : name === 'room.setStatus'
      ? setRoomStatus(ctx, input as Parameters<typeof setRoomStatus>[1])
      : renewStay(ctx, input as Parameters<typeof renewStay>[1]);

/** The statement `writeRecorded` writes a transaction's events with (and its audit rows, in a WITH). */
const OUTBOX_INSERT = 'INSERT INTO "DomainEvent"';

interface SqlLike {
  text: string;
  values: unknown[];
}
const isSql = (q: unknown): q is SqlLike =>
  typeof q === 'object' && q !== null && typeof (q as SqlLike).text === 'string' && Array.isArray((q as SqlLike).values);

/**
 * Benchmark only: the services' deps with the outbox (`outbox: true`, everything passed through
 * unchanged) or without it. Without: in every transaction of `transaction()`, the statement of
 * `writeRecorded` that writes the events (with the audit rows in a WITH) is replaced by its audit
 * part alone, the very statement `writeRecorded` sends for a transaction with audit rows and no
 * event, answering ids that are not written anywhere; and the publish on Redis is dropped. Both
 * sides go through the same wrappers, so the only difference is the outbox's.
 */
function servicesDeps(deps: Deps, outbox: boolean): Deps {
  const wrapTx = (tx: object) =>
    new Proxy(tx, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        if (prop !== '$queryRaw' || outbox) return (value as (...a: unknown[]) => unknown).bind(target);
        return async (query: unknown, ...rest: unknown[]) => {
          if (!isSql(query) || !query.text.includes(OUTBOX_INSERT)) return (value as (...a: unknown[]) => unknown).call(target, query, ...rest);
          const at = query.text.indexOf(OUTBOX_INSERT);
          const head = query.text.slice(0, at);
          let auditParams = 0;
          if (head.includes('WITH "audit" AS (')) {
            const audit = head.slice(head.indexOf('(') + 1, head.lastIndexOf(')'));
            auditParams = Math.max(...[...audit.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
            await (target as { $executeRawUnsafe(sql: string, ...v: unknown[]): Promise<number> }).$executeRawUnsafe(
              audit,
              ...query.values.slice(0, auditParams),
            );
          }
          const events = (query.values.length - auditParams) / 4;
          return Array.from({ length: events }, (_, i) => ({ id: BigInt(-1 - i), createdAt: new Date() }));
        };
      },
    });
  const prisma = new Proxy(deps.prisma, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === '$transaction') {
        return (fn: unknown, options: unknown) =>
          typeof fn === 'function'
            ? target.$transaction((tx) => (fn as (tx: object) => Promise<unknown>)(wrapTx(tx)), options as never)
            : (value as (...a: unknown[]) => unknown).call(target, fn, options);
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  const redis = new Proxy(deps.redis, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'publish' && !outbox) return async () => 0;
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { ...deps, prisma, redis };
}

async function main() {
  console.log(`# The live feed (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}${SMOKE ? ', smoke' : ''})\n`);
  console.log(
    `${TABS} tabs over 2 servers and ${USERS} members (${LIMITED} limited to an eighth of the rooms each), ${RATE} changes/s for ${SECONDS} s, ${ROOMS} rooms in house.\n`,
  );
  noteLoad('start');
  const db = await createScratchDatabase(adminUrl, 'benchev', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-events-'));
  const redisPrefix = `benchev:${process.pid}`;
  const servers: Awaited<ReturnType<typeof startProcess>>[] = [];
  const tabs: Tab[] = [];
  let deps: Deps | undefined;
  try {
    await client.connect();
    const g = await generate(client);
    await client.query('ANALYZE');

    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `${redisPrefix}:inproc`,
      LOCK_PROVIDER: 'none',
      SCHEDULE_SWEEPS: 'false',
      WORKERS_IN_PROCESS: 'false',
    });
    deps = await createDeps(config, db.url, createLogger(config), { locks: null });
    const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
    const clerk = (await createSession(deps, { accountId: g.clerkAccountId, hotelId: g.hotelId, kind: 'web', meta })).token;
    const sessions = await Promise.all(
      g.members.map(async (m) => ({ ...m, token: (await createSession(deps!, { accountId: m.accountId, hotelId: g.hotelId, kind: 'web', meta })).token })),
    );

    const entry = path.join(root, 'apps/server/dist/main.js');
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run pnpm build first`);
    // BENCH_CPU_PROF=<dir>: each server writes a CPU profile there as it stops (where a server's time goes).
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
    const starting = Promise.all(
      [0, 1].map(() =>
        startProcess(
          process.execPath,
          ['--openssl-legacy-provider', ...profile, entry],
          serverEnv(db.url, redisPrefix, uploads),
          /Smart Lock Console is ready: http:\/\/localhost:(\d+)/,
          path.join(root, 'apps/server'),
        ),
      ),
    );
    starting.catch(() => {});

    // Meanwhile, every room's guest checked in by the clerk (the service, in this process, 4 at a time).
    const started = performance.now();
    const clerkCtx: AuthedContext = { deps, meta, actor: await resolveSession(deps, clerk, 'web') };
    const stays: InHouse[] = [];
    let nextRoom = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (nextRoom < g.roomIds.length) {
          const roomId = g.roomIds[nextRoom++]!;
          const input = checkInInput(roomId);
          const stay = await checkIn(clerkCtx, input);
          stays.push({ roomId, stayId: stay.id, checkOut: Date.parse(input.expectedCheckOutAt), dirty: false, busy: false });
        }
      }),
    );
    stays.sort((a, b) => a.roomId - b.roomId);
    console.log(`${stays.length} guests checked in (\`checkIn\`, in this process) in ${fmt((performance.now() - started) / 1000)} s.\n`);
    servers.push(...(await starting));
    const ports = servers.map((s) => Number(s.match[1]));
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);

    // The tabs, spread over the members and the servers.
    for (let i = 0; i < TABS; i += 1) {
      const member = sessions[i % sessions.length]!;
      const server = Math.floor(i / sessions.length) % 2;
      tabs.push(subscribe(ports[server]!, server, member.token, member.rooms));
    }
    await Promise.all(tabs.map((t) => t.connected));
    // A feed listens once its generator has started, just after `connected` is sent: let them all start.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The commit of each event as this process sees it: `transaction()` publishes a transaction's events on Redis as soon as it committed.
    const published = new Map<number, number>();
    const listener = new Redis(redisUrl);
    listener.on('message', (_channel: string, message: string) => {
      const t = now();
      for (const e of JSON.parse(message) as { id: string }[]) published.set(Number(e.id), t);
    });
    await listener.subscribe(`${redisPrefix}:events`);
    const mark = Number((await client.query<{ id: string | null }>(`SELECT max(id)::text AS id FROM "DomainEvent"`)).rows[0]!.id ?? 0);
    noteLoad('tabs open');

    // RATE changes a second, open loop, alternately through both servers.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const cpuBefore = [...servers.map((s) => cpuMs(s.child.pid!)), cpuMs(process.pid)];
    const total = RATE * SECONDS;
    const roundTrips: number[] = [];
    const failures: string[] = [];
    const inFlight: Promise<void>[] = [];
    const settled: boolean[] = [];
    let waitedForAStay = 0;
    let cursor = 0;
    const driveStart = now();
    const driveLoads: number[] = [];
    const loadTimer = setInterval(() => driveLoads.push(os.loadavg()[0]!), 5_000);
    for (let k = 0; k < total; k += 1) {
      const due = driveStart + (k * 1000) / RATE;
      const wait = due - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const kind = MIX[k % MIX.length]!;
      let stay: InHouse | undefined;
      // The next stay not being changed already; when every one is (the servers far behind), the first to be free.
      while (!stay) {
        for (let tries = 0; tries < stays.length && !stay; tries += 1) {
          const candidate = stays[cursor++ % stays.length]!;
          if (!candidate.busy) stay = candidate;
        }
        if (!stay) {
          waitedForAStay += 1;
          await Promise.race(inFlight.filter((_, i) => !settled[i]));
        }
      }
      const s = stay;
      s.busy = true;
      const t = now();
      inFlight.push(
        change(overHttp(bases[k % 2]!, clerk), kind, s)
          .then(() => void roundTrips.push(now() - t))
          .catch((error: unknown) => void failures.push(`${kind}: ${(error as Error).message}`))
          .finally(() => {
            s.busy = false;
            settled[k] = true;
          }),
      );
    }
    const startSeconds = (now() - driveStart) / 1000;
    await Promise.all(inFlight);
    const driveSeconds = (now() - driveStart) / 1000;
    clearInterval(loadTimer);
    noteLoad('changes done');
    if (driveLoads.length) loads.push(`1-min load while the changes ran ${Math.min(...driveLoads).toFixed(2)} to ${Math.max(...driveLoads).toFixed(2)}`);
    // A change refused as busy (the pool or a transaction out of time) is the servers' answer to more than they can do: counted, not fatal, unless all are.
    if (failures.length === total || failures.some((f) => !/busy|try again|503/i.test(f)))
      throw new Error(`${failures.length} changes failed: ${[...new Set(failures)].slice(0, 5).join('; ')}`);

    // What every tab should have: the outbox's events of the run that it may see.
    const { rows: outbox } = await client.query<{ id: string; roomIds: number[]; at: number; kind: string }>(
      `SELECT id::text, "roomIds", extract(epoch FROM "createdAt") * 1000 AS at, kind FROM "DomainEvent" WHERE "hotelId" = $1 AND id > $2 ORDER BY id`,
      [g.hotelId, mark],
    );
    const events = new Map(outbox.map((e) => [Number(e.id), { roomIds: e.roomIds, at: Number(e.at), kind: e.kind }]));
    const sees = (tab: Tab, e: { roomIds: number[] }) => !tab.rooms || e.roomIds.length === 0 || e.roomIds.some((r) => tab.rooms!.has(r));
    const expected = tabs.map((tab) => outbox.filter((e) => sees(tab, e)).length);
    const deadline = now() + 30_000;
    while (tabs.some((tab, i) => tab.ids.length < expected[i]! && !tab.error) && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const cpuAfter = [...servers.map((s) => cpuMs(s.child.pid!)), cpuMs(process.pid)];
    const drainedSeconds = (now() - driveStart) / 1000;
    lag.disable();
    for (const tab of tabs) tab.close();
    const broken = tabs.filter((t) => t.error);
    if (broken.length) throw new Error(`${broken.length} tabs lost their feed: ${broken[0]!.error!.message}`);

    // Exactly once, nothing of another room, and the latency of each delivery.
    listener.disconnect();
    const unpublished = outbox.filter((e) => !published.has(Number(e.id)));
    if (unpublished.length) throw new Error(`${unpublished.length} events of the outbox were never published on Redis (${unpublished[0]!.id}...)`);
    const latencies: number[] = [];
    const fromStart: number[] = [];
    const lastArrival = new Map<number, number>();
    for (const [i, tab] of tabs.entries()) {
      const seen = new Set<number>();
      for (const [j, id] of tab.ids.entries()) {
        const event = events.get(id);
        if (!event) throw new Error(`tab ${i} received event ${id}, not one of this run's in its hotel`);
        if (seen.has(id)) throw new Error(`tab ${i} received event ${id} twice`);
        seen.add(id);
        if (!sees(tab, event)) throw new Error(`tab ${i} (a member limited to some rooms) received event ${id} of rooms ${event.roomIds.join(', ')}`);
        if (tab.rooms && tab.roomsSent.get(id)!.some((r) => !tab.rooms!.has(r)))
          throw new Error(`tab ${i} (limited) was sent event ${id} naming rooms ${tab.roomsSent.get(id)!.join(', ')}, not all its own`);
        const latency = tab.times[j]! - published.get(id)!;
        latencies.push(latency);
        fromStart.push(tab.times[j]! - event.at);
        lastArrival.set(id, Math.max(lastArrival.get(id) ?? 0, latency));
      }
      if (seen.size !== expected[i]) throw new Error(`tab ${i} received ${seen.size} of its ${expected[i]} events`);
    }
    const limitedTabs = tabs.filter((t) => t.rooms);
    const limitedShare = limitedTabs.length ? median(limitedTabs.map((t) => t.ids.length / outbox.length)) : 0;
    if (limitedTabs.length && limitedTabs.every((t) => t.ids.length === outbox.length)) throw new Error('the limited members received every event');

    const kinds = new Map<string, number>();
    for (const e of outbox) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
    const cpu = cpuAfter.map((c, i) => (c - cpuBefore[i]!) / 10 / drainedSeconds);
    console.log(`## Commit to tab\n`);
    console.log(
      `${total} changes started in ${fmt(startSeconds)} s (${fmt(total / startSeconds)} a second${waitedForAStay ? `; ${waitedForAStay} times every stay was being changed already and the clerk waited` : ''}), the last answered after ${fmt(driveSeconds)} s${failures.length ? `, ${failures.length} refused (${[...new Set(failures)].slice(0, 2).join('; ')})` : ''}; ${outbox.length} events (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}); ` +
        `${latencies.length} deliveries to ${tabs.length} tabs, each event exactly once in each tab that may see it and in no other (a limited tab received ${fmt(limitedShare * 100)} % of them).\n`,
    );
    console.log('| measure | count | p50 ms | p95 ms | p99 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|---:|');
    const row = (label: string, values: number[]) =>
      console.log(
        `| ${label} | ${values.length} | ${fmt(percentile(values, 50))} | ${fmt(percentile(values, 95))} | ${fmt(percentile(values, 99))} | ${fmt(values.reduce((a, b) => Math.max(a, b), -Infinity))} |`,
      );
    row('commit (the publish, seen on Redis here) to a tab, every delivery', latencies);
    row('commit to the last tab, each event', [...lastArrival.values()]);
    row("transaction start (the event's `at`) to a tab, every delivery", fromStart);
    row(
      'transaction start to its commit, each event',
      [...events].map(([id, e]) => published.get(id)! - e.at),
    );
    row("the change's round trip at the clerk (tRPC over HTTP)", roundTrips);
    const p95 = percentile(latencies, 95);
    target('p95 from commit to the tab under 500 ms', p95 < 500, `${fmt(p95)} ms; from the transaction's start ${fmt(percentile(fromStart, 95))} ms`);
    console.log(
      `CPU over the run (% of one core): server a ${fmt(cpu[0]!)}, server b ${fmt(cpu[1]!)}, this process (${TABS} tabs and the clerk) ${fmt(cpu[2]!)}; ` +
        `this process's event loop delay p50 ${fmt(lag.percentile(50) / 1e6)} ms, p99 ${fmt(lag.percentile(99) / 1e6)} ms, max ${fmt(lag.max / 1e6)} ms.\n`,
    );
    await Promise.all(servers.splice(0).map((s) => stopProcess(s.child)));

    // The writes' cost, with the outbox and without, in this process.
    const ctxOf = async (outbox: boolean): Promise<AuthedContext> => {
      const d = servicesDeps(deps!, outbox);
      return { deps: d, meta, actor: await resolveSession(d, clerk, 'web') };
    };
    const sides = { with: await ctxOf(true), without: await ctxOf(false) };
    const costKinds: Kind[] = ['payment', 'housekeeping', 'renewal'];
    const times: Record<'with' | 'without', Record<Kind, number[]>> = {
      with: { payment: [], housekeeping: [], renewal: [] },
      without: { payment: [], housekeeping: [], renewal: [] },
    };
    const counts = async () =>
      (
        await client.query<{ events: number; audits: number }>(
          `SELECT (SELECT count(*)::int FROM "DomainEvent" WHERE "hotelId" = $1) AS events, (SELECT count(*)::int FROM "AuditLog" WHERE "hotelId" = $1) AS audits`,
          [g.hotelId],
        )
      ).rows[0]!;
    const written = { with: { events: 0, audits: 0 }, without: { events: 0, audits: 0 } };
    let next = 0;
    // A warm-up of each service on each side (not in a smoke run), then the rounds.
    if (!SMOKE)
      for (const side of ['with', 'without'] as const) for (const kind of costKinds) await change(inProcess(sides[side]), kind, stays[next++ % stays.length]!);
    for (let round = 0; round < ROUNDS; round += 1) {
      const calls = shuffle(
        (['with', 'without'] as const).flatMap((side) => costKinds.flatMap((kind) => Array.from({ length: CALLS }, () => ({ side, kind })))),
      );
      for (const { side, kind } of calls) {
        const stay = stays[next++ % stays.length]!;
        const before = await counts();
        const t = performance.now();
        await change(inProcess(sides[side]), kind, stay);
        times[side][kind].push(performance.now() - t);
        const after = await counts();
        written[side].events += after.events - before.events;
        written[side].audits += after.audits - before.audits;
      }
    }
    noteLoad('costs done');
    if (written.without.events !== 0) throw new Error(`the calls without the outbox wrote ${written.without.events} events`);
    if (written.with.events === 0) throw new Error('the calls with the outbox wrote no event');
    if (written.with.audits !== written.without.audits)
      throw new Error(`audit rows differ: ${written.with.audits} with the outbox, ${written.without.audits} without`);

    console.log(`## The writes' cost with the outbox and without (${ROUNDS} rounds, ${CALLS} calls of each service on each side a round, shuffled)\n`);
    console.log(
      `${written.with.events} events and ${written.with.audits} audit rows written with the outbox; no event and ${written.without.audits} audit rows without.\n`,
    );
    console.log('| service (in process) | with p50 ms | without p50 ms | p50 ratio | with mean ms | without mean ms | mean ratio |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    for (const kind of costKinds) {
      const w = times.with[kind];
      const wo = times.without[kind];
      console.log(
        `| ${kind} | ${fmt(median(w), 2)} | ${fmt(median(wo), 2)} | ${fmt(median(w) / median(wo), 3)} | ${fmt(mean(w), 2)} | ${fmt(mean(wo), 2)} | ${fmt(mean(w) / mean(wo), 3)} |`,
      );
    }
    const all = (side: 'with' | 'without') => costKinds.flatMap((k) => times[side][k]);
    const ratio = mean(all('with')) / mean(all('without'));
    console.log(
      `| all (mean of the mix) | ${fmt(median(all('with')), 2)} | ${fmt(median(all('without')), 2)} | ${fmt(median(all('with')) / median(all('without')), 3)} | ${fmt(mean(all('with')), 2)} | ${fmt(mean(all('without')), 2)} | ${fmt(ratio, 3)} |`,
    );
    target("The writes' cost with the outbox within 10 % of without", ratio <= 1.1, `${fmt((ratio - 1) * 100)} % on the mean of all calls`);
    console.log(`Load average (1, 5, 15 min): ${loads.join('; ')}.`);
  } finally {
    for (const tab of tabs) tab.close();
    await Promise.all(servers.map((s) => stopProcess(s.child)));
    if (deps) await closeDeps(deps).catch(() => {});
    await client.end().catch(() => {});
    await db.drop();
    fs.rmSync(uploads, { recursive: true, force: true });
  }
}

process.chdir(root);
await main();
