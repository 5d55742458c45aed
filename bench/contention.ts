/**
 * `pnpm --filter @console/bench run contention`: issue 6 §7, the racing check-ins of §1 measured.
 *   Rounds of 20 simultaneous check-ins of one room (half over tRPC, half over the legacy
 *   envelope), first on a quiet machine, then while two processes keep both cores busy. Each round
 *   must make exactly one stay and answer every other attempt "occupied": server errors 0. Then
 *   rounds of 10 simultaneous copies of one check-in (one request_id): all answer the same stay.
 * Prints markdown tables; the loaded run is compared with the quiet one (a ratio).
 * A smoke run (BENCH_SMOKE=1): one round of each, 4 simultaneous check-ins a race and 4 copies (two
 * a face), no warm-up, one busy process instead of two; every check the same.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import CryptoJS from 'crypto-js';
import pg from 'pg';
import { localDateTime } from '@console/shared';
import { DEV_COMPAT_DES_IV, DEV_COMPAT_DES_KEY } from '../apps/server/src/config/keys.ts';
import { createPrisma } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { seedDemo } from '../apps/server/src/db/seed.ts';
import { fmt, median, percentile, root, startProcess, stopProcess, sized, bundledEntry } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(20, 1));
/**
 * Simultaneous check-ins a race, and copies of one check-in, half over each face. A smoke run: 4 of
 * each, two a face: each face races the other and itself, and one stay must come of them.
 */
const PER_ROUND = sized(20, 4);
const COPIES = sized(10, 4);
/** Check-ins before the measured rounds (start-up costs); a smoke run times nothing worth reading. */
const WARM_UP = sized(3, 0);
/** Processes that keep a core busy in the loaded rounds: both cores; in a smoke run one (it shares the 2 cores with another smoke job). */
const BURNERS = sized(2, 1);
const LOADED = sized('both cores busy', 'one core busy');
const TZ = 'Asia/Shanghai';

const key = CryptoJS.enc.Utf8.parse(DEV_COMPAT_DES_KEY);
const iv = CryptoJS.enc.Utf8.parse(DEV_COMPAT_DES_IV);
const encrypt = (payload: object) =>
  CryptoJS.DES.encrypt(JSON.stringify({ ...payload, action: 'manage' }), key, { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).toString();
const decrypt = (text: string) =>
  JSON.parse(CryptoJS.DES.decrypt(text, key, { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 }).toString(CryptoJS.enc.Utf8)) as {
    errno: number;
    data: { id?: number };
  };
const legacyTime = (d: Date) => `${localDateTime(d, TZ).replace('T', ' ')}:00`;

type Outcome = 'ok' | 'occupied' | 'server error' | 'other';
interface Attempt {
  outcome: Outcome;
  ms: number;
  stayId?: number;
}

function burnCpu(): () => Promise<void> {
  const children: ChildProcess[] = Array.from({ length: BURNERS }, () => fork('-e', ['for (;;) {}'], { execArgv: [], stdio: 'ignore' }));
  return () =>
    Promise.all(
      children.map((c) => new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : (c.once('exit', () => resolve()), c.kill('SIGKILL'))))),
    ).then(() => undefined);
}

async function main() {
  const db = await createScratchDatabase(adminUrl, 'bench_race', { migrated: true });
  const client = new pg.Client({ connectionString: db.url });
  try {
    const prisma = createPrisma(db.url, { max: 2 });
    const { hotelId } = await seedDemo(prisma);
    await prisma.$disconnect();
    await client.connect();
    const rooms = await client.query<{ id: number }>(
      `INSERT INTO "Room" ("hotelId", "name", "usualPrice", "updatedAt") SELECT $1, 'Race ' || i, 20000, now() FROM generate_series(1, $2::int) i RETURNING "id"`,
      [hotelId, ROUNDS * 3 + WARM_UP],
    );
    const roomIds = rooms.rows.map((r) => r.id);

    const { child, match } = await startProcess(
      process.execPath,
      ['--openssl-legacy-provider', ...bundledEntry('server.ts')],
      { DATABASE_URL: db.url, REDIS_PREFIX: `benchrace:${process.pid}`, NODE_ENV: 'development', SEED_DEMO: 'false' },
      /\{"port":\d+.*\}/,
      path.join(root, 'bench'),
    );
    try {
      const { port, webToken, legacyToken } = JSON.parse(match[0]) as { port: number; webToken: string; legacyToken: string };
      const base = `http://127.0.0.1:${port}`;

      async function attempt(face: 'trpc' | 'legacy', roomId: number, idempotencyKey: string, mobile: string): Promise<Attempt> {
        const start = new Date(Date.now() - 15 * 60_000);
        const end = new Date(Date.now() + 20 * 3_600_000);
        const t = performance.now();
        if (face === 'trpc') {
          const res = await fetch(`${base}/trpc/stay.checkIn`, {
            method: 'POST',
            headers: { cookie: `sl_session=${webToken}`, origin: base, 'content-type': 'application/json' },
            body: JSON.stringify({
              roomId,
              checkInAt: start.toISOString(),
              expectedCheckOutAt: end.toISOString(),
              guests: [{ name: 'Racer', mobile }],
              idempotencyKey,
            }),
          });
          const body = (await res.json()) as { result?: { data: { id: number } }; error?: { data?: { app?: { code?: string } } } };
          const code = body.error?.data?.app?.code;
          const outcome: Outcome = res.ok ? 'ok' : code === 'CONFLICT' ? 'occupied' : res.status >= 500 || code === 'INTERNAL' ? 'server error' : 'other';
          if (outcome === 'other' && process.env.BENCH_DEBUG) console.error('trpc', res.status, JSON.stringify(body.error).slice(0, 300));
          return { outcome, ms: performance.now() - t, stayId: body.result?.data.id };
        }
        const payload = {
          room_id: roomId,
          check_in_time: legacyTime(start),
          check_out_time: legacyTime(end),
          guests: [{ name: 'Racer', mobile }],
          request_id: idempotencyKey,
        };
        const res = await fetch(`${base}/manage/room/tenant/update/checkIn`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-token': legacyToken, language: 'en' },
          body: new URLSearchParams({ data: encrypt(payload), language: 'en' }).toString(),
        });
        const answer = decrypt(await res.text());
        const outcome: Outcome = answer.errno === 0 ? 'ok' : answer.errno === 100006 ? 'occupied' : answer.errno === 100500 ? 'server error' : 'other';
        if (outcome === 'other' && process.env.BENCH_DEBUG) console.error('legacy', JSON.stringify(answer).slice(0, 300));
        return { outcome, ms: performance.now() - t, stayId: answer.data?.id };
      }

      let next = 0;
      const takeRoom = () => roomIds[next++]!;
      let serial = 0;
      /** A mobile number no other attempt of the run uses (a guest is never "already in another room"). */
      const mobile = () => `137${String((serial += 1)).padStart(8, '0')}`;

      async function raceRounds(label: string) {
        const rounds: { attempts: Attempt[]; ms: number; stays: number }[] = [];
        for (let r = 0; r < ROUNDS; r += 1) {
          const roomId = takeRoom();
          const t = performance.now();
          const attempts = await Promise.all(Array.from({ length: PER_ROUND }, (_, i) => attempt(i % 2 ? 'legacy' : 'trpc', roomId, randomUUID(), mobile())));
          const stays = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Stay" WHERE "roomId" = $1`, [roomId])).rows[0]!.n;
          rounds.push({ attempts, ms: performance.now() - t, stays });
        }
        const all = rounds.flatMap((r) => r.attempts);
        const count = (o: Outcome) => all.filter((a) => a.outcome === o).length;
        return {
          label,
          rounds: rounds.length,
          exactlyOne: rounds.filter((r) => r.stays === 1 && r.attempts.filter((a) => a.outcome === 'ok').length === 1).length,
          ok: count('ok'),
          occupied: count('occupied'),
          serverErrors: count('server error'),
          other: count('other'),
          p50: median(all.map((a) => a.ms)),
          p95: percentile(
            all.map((a) => a.ms),
            95,
          ),
          roundMs: median(rounds.map((r) => r.ms)),
        };
      }

      async function copyRounds(label: string) {
        let sameStay = 0;
        let serverErrors = 0;
        let other = 0;
        for (let r = 0; r < ROUNDS; r += 1) {
          const roomId = takeRoom();
          const idempotencyKey = randomUUID();
          const guestMobile = mobile();
          const attempts = await Promise.all(Array.from({ length: COPIES }, (_, i) => attempt(i % 2 ? 'legacy' : 'trpc', roomId, idempotencyKey, guestMobile)));
          serverErrors += attempts.filter((a) => a.outcome === 'server error').length;
          other += attempts.filter((a) => a.outcome !== 'ok' && a.outcome !== 'server error').length;
          if (attempts.every((a) => a.outcome === 'ok') && new Set(attempts.map((a) => a.stayId)).size === 1) sameStay += 1;
        }
        return { label, rounds: ROUNDS, sameStay, serverErrors, other };
      }

      // Warm-up: a few check-ins so the first measured round pays no start-up costs.
      for (let i = 0; i < WARM_UP; i += 1) await attempt('trpc', roomIds[roomIds.length - 1 - i]!, randomUUID(), mobile());

      const quiet = await raceRounds('quiet machine');
      const stop = burnCpu();
      let loaded: Awaited<ReturnType<typeof raceRounds>>;
      let copies: Awaited<ReturnType<typeof copyRounds>>;
      try {
        loaded = await raceRounds(LOADED);
        copies = await copyRounds(LOADED);
      } finally {
        await stop();
      }

      console.log(`## Racing check-ins: ${ROUNDS} rounds of ${PER_ROUND} simultaneous check-ins of one room (half tRPC, half legacy)\n`);
      console.log(
        '| machine | rounds with exactly one stay | stays made | answered "occupied" | server errors | other | p50 ms | p95 ms | round ms (median) |',
      );
      console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
      for (const r of [quiet, loaded])
        console.log(
          `| ${r.label} | ${r.exactlyOne} / ${r.rounds} | ${r.ok} | ${r.occupied} | ${r.serverErrors} | ${r.other} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.roundMs)} |`,
        );
      console.log(
        `\nUnder load the round takes ${fmt(loaded.roundMs / quiet.roundMs, 2)}x as long as on a quiet machine (p95 ${fmt(loaded.p95 / quiet.p95, 2)}x).\n`,
      );
      console.log(`## Copies of one check-in: ${copies.rounds} rounds of ${COPIES} simultaneous copies (one request_id, both faces), ${LOADED}\n`);
      console.log('| rounds answered with one and the same stay | server errors | other answers |');
      console.log('|---:|---:|---:|');
      console.log(`| ${copies.sameStay} / ${copies.rounds} | ${copies.serverErrors} | ${copies.other} |\n`);
      const failed =
        quiet.serverErrors + loaded.serverErrors + copies.serverErrors > 0 ||
        quiet.exactlyOne < ROUNDS ||
        loaded.exactlyOne < ROUNDS ||
        copies.sameStay < ROUNDS;
      if (failed) process.exitCode = 1;
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
