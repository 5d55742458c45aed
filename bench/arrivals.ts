/**
 * `pnpm --filter @console/bench run arrivals`: issue 20 ("Faces and numbers"), the credentials of a
 * day's 300 arrivals delivered to the simulator, against the simulator's own capacity.
 * `pnpm --filter @console/bench run seam-arrivals` (`tsx arrivals.ts seam`): issue 38, the same day
 * to Seam locks (bench/README.md section 21; the platforms' differences in arrival-platforms.ts).
 *
 *   A hotel of 300 rooms, each with its own simulated lock behind its own gateway (apps/lock-sim, a
 *   child process, with its gateway latency), its access rule on (a day ahead, custom codes: the
 *   locks have gateways). 300 channel reservations arriving in two hours (`reserveFromChannel`, as a
 *   calendar feed makes them) whose issue moment has come: their `issue` jobs are queued while the
 *   stay and credential queues are paused. A worker process (`pnpm worker`: the bundle of `pnpm build`, the
 *   stay worker runs the rule's `issue` job, the credential worker of concurrency 8 the delivery),
 *   started for the round and warmed up by 16 arrivals of another hotel through the same path (a
 *   worker has been running for hours when a day's arrivals come due); the queues are resumed and
 *   the clock starts; it stops at the last credential's confirmation (`deliveredAt` of the last one
 *   on_lock). The tables are analysed before the clock starts, as a running hotel's are.
 *   **Baseline**, measured alongside in each round on 300 fresh locks: the same 300
 *   `keyboardPwd/add` calls sent straight to the simulator with the same concurrency (8 in flight),
 *   and, for reference, all 300 at once.
 *   Each engine run checks: every reservation issued (`accessOutcome` as_rule), every code on_lock,
 *   and the database = the simulator (each lock holds exactly its stay's code).
 *   Target: the engine within 2.5 times the baseline (median of the rounds' ratios).
 *
 * On Seam: each hotel's doors are devices of its own Seam workspace (Seam's fake with OUR layer in
 * front, a child process), connected, got and paired through the services; Seam sets each code on
 * its device BENCH_LATENCY_MS after accepting it (OUR layer), and the engine learns it from Seam's
 * webhook (received by the real app in this process, which brings the code's question forward) or,
 * in a second run of the round on a hotel without a webhook, from its own questions (the first one
 * LOCK_DELIVERY_BACKOFF_MS after Seam accepted the code). The baseline is the same 300
 * `access_codes/create` sent straight to OUR proxy, timed to the last of them set. OUR proxy counts
 * Seam's per-device limits over the run: targets no 429 answered, never above a limit in a minute.
 *
 * Smoke run (BENCH_SMOKE=1): one round of 10 arrivals (more than the credential worker's 8 at a
 * time, so that deliveries queue behind its concurrency as in the full run), every run and every
 * check as in the full run, but no warm-up: neither the first bare run nor the worker's warm-up
 * arrivals of another hotel.
 *
 * Environment: BENCH_ROUNDS (default 3), BENCH_LATENCY_MS (the simulator's gateway latency, or the
 * time Seam takes to set a code, default 20-50), BENCH_ARRIVALS (default 300), BENCH_KEEP_DB=1, BENCH_CPU_PROF (a directory: the worker's CPU
 * profile of each engine run).
 */
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { transaction } from '../apps/server/src/db/transaction.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { setAccessRule } from '../apps/server/src/modules/access-rules/access-rule.service.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { reserveFromChannel } from '../apps/server/src/modules/stays/reservation.ts';
import { scheduleStayJobs } from '../apps/server/src/modules/stays/stay-schedule.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { seamArrivals, ttlockArrivals, type ArrivalPlatform, type EngineKind } from './arrival-platforms.ts';
import { fmt, median, processCpuMs, root, startProcess, stopProcess, sized, SMOKE, target } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/** `seam` (argument): Seam locks; TTLock's simulator otherwise. */
const SEAM = process.argv[2] === 'seam';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(3, 1));
const LATENCY = process.env.BENCH_LATENCY_MS ?? '20-50';
const WORKER_CONCURRENCY = 8; // the credential worker's (jobs/credential.job.ts)
/** A smoke run's 10: more than WORKER_CONCURRENCY, so that the deliveries still wait for a free slot. */
const ARRIVALS = Number(process.env.BENCH_ARRIVALS ?? sized(300, WORKER_CONCURRENCY + 2));
/** Arrivals of another hotel that warm a round's worker up before the timed run (none in a smoke run). */
const WARM_UP = sized(16, 0);
const TIME_ZONE = 'Asia/Shanghai';
/** The engine within this many times the baseline (issue 20, and issue 38 for Seam). */
const TARGET_RATIO = 2.5;

type RunKind = 'bare-all' | 'bare-8' | EngineKind;

interface RunResult {
  kind: RunKind;
  ms: number;
  onLock: number;
  /** The platform's own process's CPU over the run (ms): one process, so no run of it can take less. */
  platformCpuMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The 1-minute load average and its share of the cores, as the README's numbers are read with it. */
const load = () => `${fmt(os.loadavg()[0]!, 2)} (${os.cpus().length} cores)`;

async function main() {
  console.log(
    `# A day's arrivals to the locks${SEAM ? ' on Seam' : ''} (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}, load ${load()})\n`,
  );
  const db = await createScratchDatabase(adminUrl, 'bencharr', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const redisPrefix = `bencharr:${process.pid}`;
  let platform: ArrivalPlatform | undefined;
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  /** Codes the engine issued in all (warm-ups included), for the platform's calls a code. */
  let engineCodes = 0;
  try {
    await client.connect();
    platform = await (SEAM ? seamArrivals : ttlockArrivals)(LATENCY);
    const p = platform;
    const LABEL: Record<RunKind, string> = {
      'bare-all': `bare client, all ${ARRIVALS} at once`,
      'bare-8': `bare client, ${WORKER_CONCURRENCY} in flight (baseline)`,
      engine: '',
      'engine-asked': '',
      ...Object.fromEntries(p.engines.map((e) => [e.kind, e.label])),
    };

    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: redisPrefix,
      ...p.env,
    });
    deps = await createDeps(config, db.url, createLogger(config));
    const d = deps;
    await p.attach(d);
    const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
    const {
      rows: [account],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ('13312345681', 'x', 'Bench', now()) RETURNING "id"`,
    );

    /** The same number of writes straight to the platform, one per fresh lock, at most `inFlight` at once. */
    async function bareRun(kind: 'bare-all' | 'bare-8', inFlight: number): Promise<RunResult> {
      const { ms, ok, errors, platformCpuMs } = await p.bare(ARRIVALS, inFlight);
      if (ok !== ARRIVALS) throw new Error(`${kind}: ${ok} writes on their locks, refusals ${JSON.stringify(errors)}`);
      return { kind, ms, onLock: ok, platformCpuMs };
    }

    /** A worker process as `pnpm worker` runs it (the bundle `pnpm build` made), ready before a run is timed. */
    const startWorker = () =>
      startProcess(
        process.execPath,
        [
          '--openssl-legacy-provider',
          // BENCH_CPU_PROF=<dir>: the worker writes a CPU profile there as it stops (where the run's time goes).
          ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : []),
          path.join(root, 'apps/server/dist/worker.js'),
        ],
        {
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          DATABASE_URL: db.url,
          REDIS_PREFIX: redisPrefix,
          SCHEDULE_SWEEPS: 'false',
          SMS_PROVIDER: 'none',
          ...p.env,
        },
        /workers running/,
        path.join(root, 'bench'),
      ).then((w) => w.child);

    /**
     * A hotel of `count` rooms given doors of the platform, its rule on, its arrivals reserved (queues
     * paused); then issued and delivered by the running worker, and timed.
     */
    async function engineRun(count: number, kind: EngineKind): Promise<RunResult & { reserveMs: number; issuedMs: number; note: string }> {
      const {
        rows: [hotel],
      } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench arrivals', $1, now()) RETURNING "id"`, [
        TIME_ZONE,
      ]);
      const hotelId = hotel!.id;
      await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [account!.id, hotelId]);
      const { rows: rooms } = await client.query<{ id: number; name: string }>(
        `INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "updatedAt")
         SELECT $1, 'A' || lpad(i::text, 3, '0'), i, 20000, now() FROM generate_series(1, $2::int) i ORDER BY i RETURNING "id", "name"`,
        [hotelId, count],
      );
      const { token } = await createSession(d, { accountId: account!.id, hotelId, kind: 'web', meta });
      const ctx: AuthedContext = { deps: d, meta, actor: await resolveSession(d, token, 'web') };
      const lockOfRoom = await p.doors(ctx, rooms, kind);
      await setAccessRule(ctx, { enabled: true, issueDaysBefore: 1, minutesBeforeCheckIn: 60, minutesAfterCheckOut: 30, codeRule: 'random', codeType: 'auto' });

      // A channel's calendar feed the arrivals were booked on (its reading is not measured: next read in a week).
      const {
        rows: [feed],
      } = await client.query<{ id: number }>(
        `INSERT INTO "CalendarFeed" ("hotelId", "roomId", label, url, "nextReadAt", "updatedAt") VALUES ($1, $2, 'Channel', 'http://127.0.0.1:9/bench.ics', now() + interval '7 days', now()) RETURNING id`,
        [hotelId, rooms[0]!.id],
      );

      // The day's arrivals, in two hours: their issue moment (a day before) has come.
      await d.queues.stay.pause();
      await d.queues.credential.pause();
      const checkInAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 2 * 3_600_000);
      const expectedCheckOutAt = new Date(checkInAt.getTime() + 22 * 3_600_000);
      const reserveStarted = performance.now();
      for (const [i, room] of rooms.entries()) {
        // As the feed's reader makes them (modules/feeds/feed-import.ts): the reservation and its booking row in one transaction.
        const made = await transaction(d, async (tx) => {
          const reserved = await reserveFromChannel(tx, ctx, {
            hotelId,
            timeZone: TIME_ZONE,
            roomIds: [room.id],
            checkInAt,
            expectedCheckOutAt,
            guestName: `Arrival ${i + 1}`,
            mobile: null,
            remark: `Channel · HMBENCH${i + 1}`,
          });
          if (reserved.stay)
            await tx.calendarFeedBooking.create({
              data: {
                hotelId,
                feedId: feed!.id,
                uid: `arrival-${i + 1}@bench`,
                stayId: reserved.stay.id,
                state: 'booked',
                reference: `HMBENCH${i + 1}`,
                guestName: `Arrival ${i + 1}`,
                startsAt: checkInAt,
                endsAt: expectedCheckOutAt,
              },
            });
          return reserved;
        });
        if (!made.stay) throw new Error(`room ${room.id}: no reservation`);
        await scheduleStayJobs(d, made.stay, TIME_ZONE);
      }
      const reserveMs = performance.now() - reserveStarted;
      // The tables' statistics as a hotel's are once it has run a while (autovacuum analyses them within a
      // minute of such a change): without them the planner takes the new hotel's 300 rooms and locks for
      // one row each, and reads every lock of the hotel to find a room's (19 ms instead of 0.1).
      await client.query('ANALYZE');
      const started = Date.now();
      const cpu = processCpuMs(p.pid);
      await d.queues.stay.resume();
      await d.queues.credential.resume();
      const deadline = Date.now() + 180_000;
      for (;;) {
        const {
          rows: [r],
        } = await client.query<{ onLock: number; open: number; issued: number }>(
          `SELECT count(*) FILTER (WHERE "deliveryState" = 'on_lock')::int AS "onLock",
                  count(*) FILTER (WHERE "deliveryState" IN ('pending', 'removing'))::int AS open,
                  (SELECT count(*)::int FROM "Stay" WHERE "hotelId" = $1 AND "accessIssuedAt" IS NOT NULL) AS issued
             FROM "LockPassword" WHERE "hotelId" = $1`,
          [hotelId],
        );
        if (r!.issued === count && r!.open === 0) break;
        if (Date.now() > deadline) throw new Error(`${kind}: ${JSON.stringify(r)} after 180 s`);
        await sleep(25);
      }
      const platformCpuMs = processCpuMs(p.pid) - cpu;
      const {
        rows: [last],
      } = await client.query<{ at: Date; issued: Date }>(
        `SELECT max("deliveredAt") AS at, max("createdAt") AS issued FROM "LockPassword" WHERE "hotelId" = $1`,
        [hotelId],
      );
      const ms = last!.at.getTime() - started;
      const issuedMs = last!.issued.getTime() - started;

      // The truth on both sides: one code a stay, on_lock, on its lock.
      const { rows } = await client.query<{ roomId: number; code: string; deliveryState: string; outcome: string | null }>(
        `SELECT p."roomId", p.code, p."deliveryState"::text AS "deliveryState", s."accessOutcome" AS outcome
           FROM "LockPassword" p JOIN "Stay" s ON s.id = p."stayId" WHERE p."hotelId" = $1`,
        [hotelId],
      );
      const problems: string[] = [];
      if (rows.length !== count) problems.push(`${rows.length} passwords for ${count} arrivals`);
      for (const r of rows) {
        if (r.deliveryState !== 'on_lock') problems.push(`room ${r.roomId}: ${r.deliveryState}`);
        if (r.outcome !== 'as_rule') problems.push(`room ${r.roomId}: outcome ${r.outcome}`);
      }
      const held = await p.held([...lockOfRoom.values()]);
      for (const r of rows) {
        const codes = held.get(lockOfRoom.get(r.roomId) ?? '') ?? [];
        if (codes.length !== 1 || codes[0] !== r.code) problems.push(`lock of room ${r.roomId} holds ${JSON.stringify(codes)}, the database says ${r.code}`);
      }
      if (problems.length) throw new Error(`${kind}: ${problems.length} problems:\n${problems.slice(0, 20).join('\n')}`);
      engineCodes += rows.length;
      return { kind, ms, onLock: rows.length, platformCpuMs, reserveMs, issuedMs, note: await p.note(d, hotelId, started) };
    }

    /**
     * The engine's runs of a round: a worker process started, warmed up by a few arrivals of another
     * hotel through the same path (its pool's connections, the lock account's token, the statements'
     * plans: a worker has been running for hours when a day's arrivals come due), then the day's
     * `ARRIVALS` on each of the platform's set-ups, timed.
     */
    async function engineRound(): Promise<RunResult[]> {
      const worker = await startWorker();
      try {
        if (WARM_UP) await engineRun(WARM_UP, p.engines[0]!.kind);
        const runs: RunResult[] = [];
        for (const { kind } of p.engines) {
          const run = await engineRun(ARRIVALS, kind);
          console.log(
            `- ${LABEL[kind]}: reserved ${ARRIVALS} arrivals (queues paused) in ${fmt(run.reserveMs / 1000)} s; the last code issued by the rule's job after ${fmt(run.issuedMs / 1000, 2)} s, all on their locks after ${fmt(run.ms / 1000, 2)} s${run.note} (load ${load()}).`,
          );
          runs.push(run);
        }
        return runs;
      } finally {
        await stopProcess(worker);
      }
    }

    // Warm-up (not reported): the adapter's token, Prisma, BullMQ and the platform's code paths.
    if (!SMOKE) await bareRun('bare-8', WORKER_CONCURRENCY);

    const results: RunResult[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r: RunResult[] = [];
      r.push(await bareRun('bare-8', WORKER_CONCURRENCY));
      r.push(...(await engineRound()));
      r.push(await bareRun('bare-all', ARRIVALS));
      results.push(r);
    }

    console.log(
      `\n${ARRIVALS} arrivals on ${p.name}; the bare client sends \`${p.write}\`; the engine's credential worker runs ${WORKER_CONCURRENCY} deliveries at a time. Load after the runs ${load()}.\n`,
    );
    console.log("| round | run | on lock | wall s | codes/s | x baseline (same in flight) | x all at once | the platform's CPU s |");
    console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
    results.forEach((round, i) => {
      const of = (kind: RunKind) => round.find((x) => x.kind === kind)!;
      for (const x of round)
        console.log(
          `| ${i + 1} | ${LABEL[x.kind]} | ${x.onLock} | ${fmt(x.ms / 1000, 2)} | ${fmt(ARRIVALS / (x.ms / 1000), 0)} | ${fmt(x.ms / of('bare-8').ms, 2)} | ${fmt(x.ms / of('bare-all').ms, 2)} | ${fmt(x.platformCpuMs / 1000, 2)} |`,
        );
    });
    const ratio = (kind: RunKind, base: RunKind) =>
      median(results.map((round) => round.find((x) => x.kind === kind)!.ms / round.find((x) => x.kind === base)!.ms));
    for (const { kind } of p.engines)
      console.log(
        `\n**Median ratio, ${LABEL[kind]}, the arrivals' codes on their locks against the platform alone at the same concurrency: ${fmt(ratio(kind, 'bare-8'), 2)}** (against all ${ARRIVALS} at once: ${fmt(ratio(kind, 'bare-all'), 2)}).`,
      );
    console.log('Every engine run: every arrival issued by the rule (as_rule), every code on_lock, each lock holding exactly its stay’s code: checked.');
    // The platform is one process: a run cannot be shorter than the CPU it spent. Its CPU in the engine's
    // run against the baseline's wall time is the ratio the engine would have if it cost nothing itself.
    const cpuFloor = (kind: RunKind) =>
      median(results.map((round) => round.find((x) => x.kind === kind)!.platformCpuMs / round.find((x) => x.kind === 'bare-8')!.ms));
    for (const { kind } of p.engines)
      console.log(
        `The platform's own CPU in the run (${LABEL[kind]}) against the baseline's wall time, median: ${fmt(cpuFloor(kind), 2)}x (the baseline's own: ${fmt(cpuFloor('bare-8'), 2)}x); no engine can be faster than its platform's work.`,
      );
    const engine = ratio('engine', 'bare-8');
    const met = target(
      `${SEAM ? 'Seam: a' : 'A'} day's arrivals on their locks within ${TARGET_RATIO}x the platform alone at the same concurrency`,
      engine <= TARGET_RATIO,
      `median ${fmt(engine, 2)}x`,
    );
    const platformMet = await p.report(engineCodes);
    if (!SMOKE && !(met && platformMet)) process.exitCode = 1;
  } finally {
    await client.end().catch(() => {});
    if (deps) {
      const keys = await deps.redis.keys(`${redisPrefix}:*`);
      if (keys.length) await deps.redis.del(...keys);
    }
    // The platform first: Seam's webhooks' server is made of the services.
    await platform?.close();
    if (deps) await closeDeps(deps);
    if (process.env.BENCH_KEEP_DB === '1') console.log(`Kept the database: ${db.url}`);
    else await db.drop();
  }
}

process.chdir(root);
await main();
