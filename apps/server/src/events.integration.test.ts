import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import CryptoJS from 'crypto-js';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { COOKIES, type TDomainEvent } from '@console/shared';
import { createScratchDatabase } from './db/scratch-database';
import { DEMO } from './db/seed';
import { hashToken } from './modules/auth/session.service';
import { startConsoleProcess, type ConsoleProcess } from './test/processes';

/**
 * The live feed across servers (issue 26 §1, decision 035): two servers, real processes of their
 * own (test/processes.ts, as in scale-out.integration.test.ts), one database and one Redis. A
 * change made through one server reaches a subscriber of the other, once; a subscriber that
 * reconnects with its last event id gets what it missed; a member limited to some rooms receives
 * nothing of another room; a payment made through the legacy `/manage/*` face is an event too.
 */

const ORIGIN = 'http://console.test';
const DES_KEY = 'eventK01';
const DES_IV = 'eventIv1';

let db: Awaited<ReturnType<typeof createScratchDatabase>>;
let sql: pg.Client;
let redis: Redis;
const redisPrefix = `${inject('redisPrefix')}:events${randomBytes(3).toString('hex')}`;
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-events-'));
const processes: ConsoleProcess[] = [];
let serverA: ConsoleProcess;
let serverB: ConsoleProcess;
let hotelId: number;

function installEnv(): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: db.url,
    DB_POOL_SIZE: '4',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: redisPrefix,
    FILE_STORE: 'directory',
    UPLOAD_DIR: path.join(tmpRoot, 'uploads'),
    COMPAT_DES_KEY: DES_KEY,
    COMPAT_DES_IV: DES_IV,
    FACE_PHOTO_SECRET: 'events-face-photo-secret-0123456789ab',
    CARD_KEY_SECRET: 'events-card-key-secret-0123456789abcd',
    SMS_PROVIDER: 'none',
    LOCK_PROVIDER: 'none',
    PUBLIC_ORIGINS: ORIGIN,
    SEED_DEMO: 'true',
    SHUTDOWN_TIMEOUT_MS: '5000',
    WORKERS_IN_PROCESS: 'false',
  };
}

beforeAll(async () => {
  db = await createScratchDatabase(inject('adminDatabaseUrl'), 'events');
  sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  redis = new Redis(inject('redisUrl'));
  serverA = await startConsoleProcess('server', 'a', installEnv());
  processes.push(serverA);
  serverB = await startConsoleProcess('server', 'b', installEnv());
  processes.push(serverB);
  hotelId = (
    await sql.query<{ id: number }>('SELECT "hotelId" AS id FROM "Membership" m JOIN "Account" a ON a.id = m."accountId" WHERE a.mobile = $1', [
      DEMO.owner.mobile,
    ])
  ).rows[0]!.id;
}, 300_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  redis?.disconnect();
  await sql?.end();
  await db?.drop();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
}, 60_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const p of processes) process.stderr.write(`\n----- ${p.name} (${p.kind}, pid ${p.pid}) -----\n${p.output().slice(-4000)}\n`);
  });
});

async function trpc<T = unknown>(server: ConsoleProcess, kind: 'query' | 'mutation', name: string, input: unknown, session?: string) {
  const headers: Record<string, string> = { language: 'en', origin: ORIGIN };
  if (session) headers.cookie = `${COOKIES.session}=${session}`;
  const url = `${server.url}/trpc/${name}${kind === 'query' && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`;
  const res = await fetch(
    url,
    kind === 'query' ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(input ?? {}) },
  );
  const body = (await res.json()) as { result?: { data: T }; error?: { message: string } };
  if (!body.result) throw new Error(`${name}: ${res.status} ${body.error?.message}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${COOKIES.session}=`))
    ?.split(';')[0]
    ?.slice(COOKIES.session.length + 1);
  return { data: body.result.data, cookie };
}

async function signIn(account: string, password: string): Promise<string> {
  const made = await trpc<{ id: string }>(serverA, 'mutation', 'auth.captcha', {});
  const captchaCode = (await redis.get(`${redisPrefix}:captcha:${made.data.id}`))!;
  const login = await trpc(serverA, 'mutation', 'auth.login', { account, password, captchaId: made.data.id, captchaCode });
  return login.cookie!;
}

/**
 * A tab's live feed, as the browser's EventSource reads it: `event.feed` over server-sent events,
 * from `lastEventId` when given. Holds what it received, and waits for what it expects (never a fixed sleep).
 */
function subscribe(server: ConsoleProcess, session: string | null, lastEventId?: string, options: { header?: boolean } = {}) {
  const controller = new AbortController();
  const events: TDomainEvent[] = [];
  /** Every message as sent: its `event:` type (none for data), its data and its `id:`. */
  const blocks: { type?: string; data: string; id?: string }[] = [];
  let ended = false;
  const waiters = new Set<() => void>();
  let connected!: () => void;
  const isConnected = new Promise<void>((resolve) => (connected = resolve));
  // The browser's link sends the last id in the input; its EventSource, reconnecting by itself, in a header.
  const input = encodeURIComponent(JSON.stringify(lastEventId && !options.header ? { lastEventId } : {}));
  const done = (async () => {
    const res = await fetch(`${server.url}/trpc/event.feed?input=${input}`, {
      headers: {
        ...(session ? { cookie: `${COOKIES.session}=${session}` } : {}),
        ...(lastEventId && options.header ? { 'last-event-id': lastEventId } : {}),
        accept: 'text/event-stream',
        'accept-encoding': 'br, gzip',
      },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // Never compressed: an event must leave at once, not wait in a compressor's buffer.
    expect(res.headers.get('content-encoding')).toBeNull();
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n');
        const type = lines
          .find((l) => l.startsWith('event:'))
          ?.slice(6)
          .trim();
        if (type === 'connected') connected();
        const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim());
        const id = lines
          .find((l) => l.startsWith('id:'))
          ?.slice(3)
          .trim();
        if (type || data.length || id) blocks.push({ type, data: data.join('\n'), id });
        for (const wake of waiters) wake();
        if (type || data.length === 0) continue;
        // Each message is a gathering of events (decision 043).
        events.push(...(JSON.parse(data.join('\n')) as TDomainEvent[]));
        for (const wake of waiters) wake();
      }
    }
    ended = true;
    for (const wake of waiters) wake();
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    events,
    blocks,
    get ended() {
      return ended;
    },
    connected: isConnected,
    /** Waits (up to 10 s) until `check` holds, looking again at each message. */
    async until(what: string, check: () => boolean): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(blocks)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters.clear();
      }
    },
    /** Waits until an event matching `match` has arrived (up to 10 s), and returns it. */
    async next(what: string, match: (e: TDomainEvent) => boolean): Promise<TDomainEvent> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no event ${what}; received ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 200);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters.clear();
      }
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

async function vacantRooms(): Promise<number[]> {
  const { rows } = await sql.query<{ id: number }>(
    `SELECT id FROM "Room" WHERE "hotelId" = $1 AND "deletedAt" IS NULL AND status = 'vacant' AND maintenance = 'none' ORDER BY id`,
    [hotelId],
  );
  return rows.map((r) => r.id);
}

async function checkIn(session: string, roomId: number): Promise<number> {
  const start = new Date(Date.now() - 10 * 60_000);
  const stay = await trpc<{ id: number }>(
    serverA,
    'mutation',
    'stay.checkIn',
    {
      roomId,
      checkInAt: start.toISOString(),
      expectedCheckOutAt: new Date(start.getTime() + 26 * 3_600_000).toISOString(),
      guests: [{ name: `Guest ${roomId}` }],
      idempotencyKey: randomUUID(),
      acknowledge: ['room_dirty', 'guest_in_other_room'],
    },
    session,
  );
  return stay.data.id;
}

const pay = (session: string, stayId: number, amount: number) =>
  trpc<{ entry: { id: number } }>(
    serverA,
    'mutation',
    'order.recordPayment',
    { stayId, amount, method: 'cash', note: 'Live', requestId: randomUUID() },
    session,
  );

/** A legacy client (the old consoles' DES envelope) speaking to `server` with a legacy session. */
async function legacyCall(server: ConsoleProcess, token: string, action: string, payload: Record<string, unknown>) {
  const key = CryptoJS.enc.Utf8.parse(DES_KEY);
  const iv = CryptoJS.enc.Utf8.parse(DES_IV);
  const data = CryptoJS.DES.encrypt(JSON.stringify({ ...payload, action: 'manage' }), key, {
    iv,
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.Pkcs7,
  }).toString();
  const res = await fetch(`${server.url}/manage/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-token': token, language: 'en' },
    body: new URLSearchParams({ data, language: 'en' }).toString(),
  });
  const text = CryptoJS.DES.decrypt(await res.text(), key, { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).toString(CryptoJS.enc.Utf8);
  return JSON.parse(text) as { errno: number; errmsg: string };
}

describe('the live feed across two servers', () => {
  let owner: string;
  let staff: string;
  let roomX: number;
  let roomY: number;
  let stayX: number;
  let stayY: number;

  beforeAll(async () => {
    owner = await signIn(DEMO.owner.mobile, DEMO.owner.password);
    const [x, y] = await vacantRooms();
    roomX = x!;
    roomY = y!;
    // The staff member manages room X only.
    await sql.query(`UPDATE "Membership" SET "allRooms" = false WHERE "hotelId" = $1 AND "accountId" = (SELECT id FROM "Account" WHERE mobile = $2)`, [
      hotelId,
      DEMO.staff.mobile,
    ]);
    await sql.query(
      `INSERT INTO "MembershipRoom" ("hotelId", "membershipId", "roomId")
       SELECT $1, m.id, $2 FROM "Membership" m JOIN "Account" a ON a.id = m."accountId" WHERE m."hotelId" = $1 AND a.mobile = $3`,
      [hotelId, roomX, DEMO.staff.mobile],
    );
    staff = await signIn(DEMO.staff.mobile, DEMO.staff.password);
    stayX = await checkIn(owner, roomX);
    stayY = await checkIn(owner, roomY);
  }, 120_000);

  it('brings a payment made through one server to a subscriber of the other, once; a member limited to some rooms receives only theirs', async () => {
    const ownerFeed = subscribe(serverB, owner);
    const staffFeed = subscribe(serverB, staff);
    await Promise.all([ownerFeed.connected, staffFeed.connected]);

    const paidY = await pay(owner, stayY, 1_000);
    const onY = await ownerFeed.next('payment in room Y', (e) => e.kind === 'payment.recorded' && e.ids.orderId === paidY.data.entry.id);
    expect(onY).toMatchObject({ roomIds: [roomY], ids: { stayId: stayY } });
    expect(onY.id).toMatch(/^[0-9]+$/);

    const paidX = await pay(owner, stayX, 2_000);
    await ownerFeed.next('payment in room X', (e) => e.ids.orderId === paidX.data.entry.id);
    const onX = await staffFeed.next('payment in room X (staff)', (e) => e.ids.orderId === paidX.data.entry.id);
    expect(onX).toMatchObject({ kind: 'payment.recorded', roomIds: [roomX] });

    // Once each, and nothing of room Y for the staff member limited to room X.
    expect(ownerFeed.events.filter((e) => e.ids.orderId === paidY.data.entry.id)).toHaveLength(1);
    expect(ownerFeed.events.filter((e) => e.ids.orderId === paidX.data.entry.id)).toHaveLength(1);
    expect(staffFeed.events.filter((e) => e.roomIds.includes(roomY) || e.ids.stayId === stayY)).toEqual([]);
    expect(staffFeed.events.length).toBeGreaterThan(0);
    await Promise.all([ownerFeed.close(), staffFeed.close()]);
  });

  it('sends a subscriber that reconnects with its last event id what it missed', async () => {
    const first = subscribe(serverB, owner);
    await first.connected;
    const before = await pay(owner, stayX, 300);
    const seen = await first.next('the payment before', (e) => e.ids.orderId === before.data.entry.id);
    await first.close();

    // While no tab listens: a renewal and a payment.
    const missed = await pay(owner, stayX, 400);
    const stay = await trpc<{ expectedCheckOutAt: string }>(serverA, 'query', 'stay.get', { stayId: stayX }, owner);
    await trpc(
      serverA,
      'mutation',
      'stay.renew',
      {
        stayId: stayX,
        expectedCheckOutAt: new Date(new Date(stay.data.expectedCheckOutAt).getTime() + 24 * 3_600_000).toISOString(),
        priceMode: 'fixed',
        fixedPrice: 100,
      },
      owner,
    );

    const again = subscribe(serverA, owner, seen.id);
    await again.next('the payment missed', (e) => e.ids.orderId === missed.data.entry.id);
    await again.next('the renewal missed', (e) => e.kind === 'stay.renewed' && e.ids.stayId === stayX);
    expect(again.events.some((e) => e.ids.orderId === before.data.entry.id)).toBe(false);
    await again.close();
  });

  it('makes a payment recorded through the legacy /manage/* face an event of every server', async () => {
    const feed = subscribe(serverB, owner);
    await feed.connected;
    const token = randomBytes(32).toString('base64url');
    await sql.query(
      `INSERT INTO "Session" ("tokenHash", "kind", "accountId", "hotelId", "expiresAt")
       SELECT $1, 'legacy', a.id, $2, now() + interval '1 hour' FROM "Account" a WHERE a.mobile = $3`,
      [hashToken(token), hotelId, DEMO.owner.mobile],
    );
    const paid = await legacyCall(serverA, token, 'order/setCashData', {
      stay_id: stayY,
      type: 'payment',
      amount: 12,
      pay_type: 'cash',
      request_id: randomUUID(),
    });
    expect(paid.errno, paid.errmsg).toBe(0);
    await feed.next('the legacy payment', (e) => e.kind === 'payment.recorded' && e.ids.stayId === stayY && e.roomIds[0] === roomY);
    await feed.close();
  });

  it("writes tRPC's server-sent events: `connected` with the client's options, then each gathering of events with the id of its last", async () => {
    const feed = subscribe(serverA, owner);
    await feed.connected;
    expect(feed.blocks[0]).toEqual({ type: 'connected', data: JSON.stringify({ reconnectAfterInactivityMs: 45_000 }), id: undefined });
    // Changes at once through both servers: one tab's messages may gather several.
    const paid = await Promise.all([pay(owner, stayX, 1), pay(owner, stayY, 2), pay(owner, stayX, 3), pay(owner, stayY, 4)]);
    for (const p of paid) await feed.next('a payment', (e) => e.ids.orderId === p.data.entry.id);
    const messages = feed.blocks.filter((b) => !b.type);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      const events = JSON.parse(message.data) as TDomainEvent[];
      expect(events.length).toBeGreaterThan(0);
      expect(message.id).toBe(events[events.length - 1]!.id);
    }
    await feed.close();
  });

  it('refuses a tab without a live session with 401 before any stream, as tRPC refuses any call (issue 39 §6)', async () => {
    for (const session of [null, 'not-a-session']) {
      const res = await fetch(`${serverA.url}/trpc/event.feed?input=%7B%7D`, {
        headers: { accept: 'text/event-stream', ...(session ? { cookie: `${COOKIES.session}=${session}` } : {}) },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: { data: { code: string; httpStatus: number; app?: { code: string } } } };
      expect(body.error.data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401, app: { code: 'UNAUTHENTICATED' } });
    }
  });

  it("resumes a tab that connects again with its EventSource's Last-Event-ID header", async () => {
    const first = subscribe(serverA, owner);
    await first.connected;
    const before = await pay(owner, stayY, 500);
    const seen = await first.next('the payment before', (e) => e.ids.orderId === before.data.entry.id);
    await first.close();
    const missed = await pay(owner, stayY, 600);
    const again = subscribe(serverB, owner, seen.id, { header: true });
    await again.next('the payment missed', (e) => e.ids.orderId === missed.data.entry.id);
    expect(again.events.some((e) => e.ids.orderId === before.data.entry.id)).toBe(false);
    await again.close();
  });

  // Last: it stops server B.
  it('ends the feed of a server that stops without telling the tab to stop, so that it connects again', async () => {
    const feed = subscribe(serverB, owner);
    await feed.connected;
    await serverB.stop();
    await feed.until('the end of the stream', () => feed.ended);
    expect(feed.blocks.map((b) => b.type)).not.toContain('return');
  });
});
