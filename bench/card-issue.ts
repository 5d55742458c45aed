/**
 * `pnpm --filter @console/bench run card-issue`: issue 8 §8, issuing a room card end to end against
 * the simulated type-1 desk reader, as the console's desk does it (apps/web/src/features/cards/
 * card-writing.ts): read the card's UID, the server computes its data (tRPC `card.reserve` over
 * HTTP, the real app on a scratch database), find the key that opens its sector, write the three
 * data blocks and the trailer, read them back, read the data again with the new key, and confirm
 * (tRPC `card.confirm`, which compares what was read back). Each card is a new blank card placed on
 * the simulated reader (apps/reader-sim, in this process, type 1 over HTTP on 127.0.0.1), for a
 * stay of its own room.
 *   Split of each card's time: the server (the two tRPC calls, from the browser's side: HTTP,
 *   session, service, database), the reader's own latency (what the simulator adds to every
 *   command, as a real encoder takes time: BENCH_READER_LATENCY_MS, default 25 ms a command), and
 *   the browser driver (the rest of the time spent in reader calls: HTTP to the local service,
 *   checks, parsing), plus what is left (the flow's own work).
 *   Two runs: the reader at its latency (the target: p95 under 800 ms), and at 0 ms (what the
 *   console and the server add on their own).
 * Environment: BENCH_CARDS (default 60), BENCH_READER_LATENCY_MS (default 25). A smoke run
 * (BENCH_SMOKE=1): 2 cards a run (the reader writes a second card after a first), no warm-up card;
 * every card still confirmed and counted.
 */
import os from 'node:os';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession } from '../apps/server/src/modules/auth/session.service.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { ReaderSimControl } from '../apps/reader-sim/src/control-client.ts';
import { FREE_PORTS, startReaderSim } from '../apps/reader-sim/src/server.ts';
import { writeCardAtDesk, type CardWrite } from '../apps/web/src/features/cards/card-writing.ts';
import { createReader, type CardReader } from '../apps/web/src/readers/index.ts';
import { COOKIES } from '../packages/shared/src/index.ts';
import { fmt, percentile, sized, target } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const CARDS = Number(process.env.BENCH_CARDS ?? sized(60, 2));
/** Cards written before the measured ones in each run; a smoke run times nothing worth reading. */
const WARM_UP = sized(1, 0);
const READER_LATENCY_MS = Number(process.env.BENCH_READER_LATENCY_MS ?? 25);

interface Timing {
  total: number;
  server: number;
  readerCalls: number;
  readerTime: number;
}

/** The reader, counting its calls and the time spent in them. */
function counted(inner: CardReader, t: { calls: number; ms: number }): CardReader {
  const timed = <T>(work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    t.calls += 1;
    return work().finally(() => {
      t.ms += performance.now() - start;
    });
  };
  return {
    get type() {
      return inner.type;
    },
    get readerInfo() {
      return inner.readerInfo;
    },
    open: () => timed(() => inner.open()),
    requestCard: () => timed(() => inner.requestCard()),
    readBlock: (block, key, keyType) => timed(() => inner.readBlock(block, key, keyType)),
    writeBlock: (block, data, key, keyType) => timed(() => inner.writeBlock(block, data, key, keyType)),
    beep: (ms) => timed(() => inner.beep(ms)),
    captureFingerprint: () => timed(() => inner.captureFingerprint()),
    dispenserStatus: () => timed(() => inner.dispenserStatus()),
    dispenseCard: () => timed(() => inner.dispenseCard()),
    captureCard: () => timed(() => inner.captureCard()),
    close: () => inner.close(),
  };
}

async function main() {
  console.log(`# Issuing a room card at the desk (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const db = await createScratchDatabase(adminUrl, 'benchcard', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const readerSim = await startReaderSim({ ports: FREE_PORTS });
  const control = new ReaderSimControl(readerSim.controlUrl);
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await client.connect();
    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: `benchcard:${process.pid}`,
      LOCK_PROVIDER: 'none',
      SCHEDULE_SWEEPS: 'false',
    });
    deps = await createDeps(config, db.url, createLogger(config), { locks: null });
    app = await buildApp(deps);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    // A hotel, its owner signed in, and one room with a stay for each card.
    const {
      rows: [hotel],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench cards', 'Asia/Shanghai', now()) RETURNING "id"`,
    );
    const {
      rows: [account],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ('13312345681', 'x', 'Bench', now()) RETURNING "id"`,
    );
    await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [account!.id, hotel!.id]);
    const rooms = await client.query<{ id: number }>(
      `INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "updatedAt") SELECT $1, 'C' || g, g, 20000, now() FROM generate_series(1, $2) g RETURNING "id"`,
      [hotel!.id, (CARDS + WARM_UP) * 2],
    );
    const stays: number[] = [];
    for (const room of rooms.rows) {
      const {
        rows: [stay],
      } = await client.query<{ id: number }>(
        `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "updatedAt") VALUES ($1, $2, 'in_house', now() - interval '1 hour', now() + interval '1 day', now()) RETURNING "id"`,
        [hotel!.id, room.id],
      );
      await client.query(`INSERT INTO "StayGuest" ("hotelId", "stayId", "name", "isPrimary") VALUES ($1, $2, 'Bench guest', true)`, [hotel!.id, stay!.id]);
      stays.push(stay!.id);
    }
    const { token } = await createSession(deps, {
      accountId: account!.id,
      hotelId: hotel!.id,
      kind: 'web',
      meta: { ip: '127.0.0.1', requestId: 'bench', lang: 'en' },
    });
    const headers = { 'content-type': 'application/json', cookie: `${COOKIES.session}=${token}`, origin: base, language: 'en' };
    const mutate = async <T>(procedure: string, input: unknown, t: { server: number }): Promise<T> => {
      const start = performance.now();
      const response = await fetch(`${base}/trpc/${procedure}`, { method: 'POST', headers, body: JSON.stringify(input) });
      const body = (await response.json()) as { result?: { data: T }; error?: unknown };
      t.server += performance.now() - start;
      if (!response.ok || !body.result) throw new Error(`${procedure}: ${response.status} ${JSON.stringify(body.error)}`);
      return body.result.data;
    };

    const runs: { latency: number; timings: Timing[] }[] = [];
    let next = 0;
    for (const latency of [READER_LATENCY_MS, 0]) {
      await control.setLatency(latency);
      const reader = createReader(1, { baseUrl: readerSim.urls.type1 });
      const timings: Timing[] = [];
      // One warm-up card (none in a smoke run), then the measured ones.
      for (let i = -WARM_UP; i < CARDS; i++) {
        const stayId = stays[next++]!;
        if (!stayId) throw new Error(`no stay ${next}`);
        await control.placeCard();
        const t = { server: 0 };
        const r = { calls: 0, ms: 0 };
        const start = performance.now();
        await writeCardAtDesk(counted(reader, r), {
          reserve: (uid) => mutate<CardWrite>('card.reserve', { uid, kind: 'room', stayId }, t),
          confirm: (input) => mutate('card.confirm', input, t),
          voidReservation: (input) => mutate('card.voidReservation', input, t),
        });
        const total = performance.now() - start;
        if (i >= 0) timings.push({ total, server: t.server, readerCalls: r.calls, readerTime: r.ms });
      }
      await reader.close();
      runs.push({ latency, timings });
    }
    const {
      rows: [issued],
    } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "CardIssue" WHERE "hotelId" = $1 AND state = 'issued'`, [hotel!.id]);
    if (issued!.n !== 2 * (CARDS + WARM_UP)) throw new Error(`expected ${2 * (CARDS + WARM_UP)} issued cards, found ${issued!.n}`);

    console.log(
      `${CARDS} cards a run (after ${WARM_UP ? 'one warm-up card' : 'no warm-up card'}), each a new blank card for a stay of its own room; milliseconds.\n`,
    );
    console.log(
      '| reader latency a command | reader calls a card | total p50 | total p95 | server p50 | server p95 | reader latency (calls x latency) | driver p50 | driver p95 | rest p50 |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const run of runs) {
      const p = (f: (t: Timing) => number, q: number) => fmt(percentile(run.timings.map(f), q));
      const calls = run.timings[0]!.readerCalls;
      const latencyTotal = (t: Timing) => t.readerCalls * run.latency;
      console.log(
        `| ${run.latency} | ${calls} | ${p((t) => t.total, 50)} | ${p((t) => t.total, 95)} | ${p((t) => t.server, 50)} | ${p((t) => t.server, 95)} | ${fmt(calls * run.latency, 0)} | ${p((t) => t.readerTime - latencyTotal(t), 50)} | ${p((t) => t.readerTime - latencyTotal(t), 95)} | ${p((t) => t.total - t.server - t.readerTime, 50)} |`,
      );
    }
    const p95 = percentile(
      runs[0]!.timings.map((t) => t.total),
      95,
    );
    target(`Card issue p95 under 800 ms with the reader at ${READER_LATENCY_MS} ms a command`, p95 < 800, `${fmt(p95)} ms`);
  } finally {
    await app?.close();
    if (deps) await closeDeps(deps);
    await readerSim.close();
    await client.end().catch(() => undefined);
    if (process.env.BENCH_KEEP_DB !== '1') await db.drop();
  }
}

await main();
