/**
 * `pnpm --filter @console/bench run lock-delivery`: issue 7 §8, credential delivery at scale.
 *   1,000 custom passwords issued through the password service to the rooms of 100 simulated locks
 *   (10 each, each lock behind its own gateway), delivered by the real engine: BullMQ on Redis,
 *   worker processes as `pnpm worker` runs them (src/worker.ts, one credential worker of
 *   concurrency 8 each), the real TTLock adapter over HTTP, the simulator a child process
 *   (apps/lock-sim). The passwords are issued while the queue is paused; the clock runs from its
 *   resume to the last credential's final state. Runs, in rounds, each on 100 fresh locks:
 *     - bare client, every lock at once: the same 1,000 `keyboardPwd/add` calls sent straight to the
 *       simulator, one write per lock at a time, all locks in parallel: the simulator's capacity,
 *       the baseline;
 *     - bare client, at most 8 (then 16) writes in flight, one per lock: what one (two) worker
 *       processes could do at best;
 *     - engine, 1 worker process, then 2, no faults;
 *     - engine, 1 worker process, with faults: 10 locks offline for the first OFFLINE_MS, then back;
 *       5% of the credentials meet an injected retryable failure (3 locks answer "lock busy", -3037,
 *       to every write until each of their 30 credentials was refused once: the per-lock injection
 *       of /sim/locks/:id/failures; 20 single writes on 20 other locks answered "gateway busy",
 *       -3003: /sim/failures/next); and 10 codes were put on their lock at the keypad beforehand,
 *       so those 10 credentials are meant to fail (duplicate_code).
 *   Each engine run asserts: every credential in a final state (on_lock, or failed with
 *   duplicate_code when it was meant to), none lost (the credentials on_lock in the database are
 *   exactly the run's passcodes on the simulated locks, code and keyboardPwdId), none twice on a lock.
 *
 * Environment: BENCH_ROUNDS (default 2), BENCH_BACKOFF_MS (LOCK_DELIVERY_BACKOFF_MS, default 50),
 * BENCH_OFFLINE_MS (default 2000), BENCH_LATENCY_MS (the simulator's gateway latency, default
 * 20-50), BENCH_KEEP_DB=1. A smoke run (BENCH_SMOKE=1): no warm-up, one round on 5 locks of 2
 * passwords, each fault on one lock of its own (1 offline, 1 busy, 1 one-shot, 1 planted, and 1
 * undisturbed), its worker processes kept from one engine run to the next (2 started instead of 4:
 * one for the first run, a second beside it for the 2-process run, stopped before the faults run);
 * every check the same.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SimClient } from '../apps/lock-sim/src/test-client.ts';
import { isTooSimple } from '../apps/lock-sim/src/passcodes.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { createPassword } from '../apps/server/src/modules/credentials/password.service.ts';
import { connectAccount } from '../apps/server/src/modules/locks/accounts/account.service.ts';
import { SIM_DEFAULTS } from '../apps/lock-sim/src/server.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { fmt, median, root, SMOKE, startProcess, stopProcess, sized, bundledEntry } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(2, 1));
const BACKOFF_MS = Number(process.env.BENCH_BACKOFF_MS ?? 50);
const ATTEMPTS = 8;
const OFFLINE_MS = Number(process.env.BENCH_OFFLINE_MS ?? 2_000);
const LATENCY = process.env.BENCH_LATENCY_MS ?? '20-50';
// A smoke run: 5 locks of 2 passwords (10 writes a run: issuing and delivering 1,000 was most of
// its time), every kind of fault still met, each on one lock of its own, and one lock undisturbed.
// Not fewer: the four faults need four locks apart; two passwords a lock keep a lock's writes one at
// a time (a second waits for the first), a busy lock refusing each of its credentials in turn, and
// the check that no code is twice on a lock.
const LOCKS = sized(100, 5);
const PER_LOCK = sized(10, 2);
const WORKER_CONCURRENCY = 8; // startCredentialWorker's
const OFFLINE_LOCKS = sized(10, 1);
const BUSY_LOCKS = sized(3, 1); // every write refused until each of their credentials was refused once (per-lock injection)
const ONE_SHOT = sized(20, 1); // single writes refused once (/sim/failures/next)
const PLANTED = sized(10, 1); // codes already on the lock: meant to fail

type RunKind = 'bare-all' | 'bare-8' | 'bare-16' | 'engine-1' | 'engine-2' | 'faults-1';
const LABEL: Record<RunKind, string> = {
  'bare-all': 'bare client, every lock at once (baseline)',
  'bare-8': 'bare client, at most 8 writes at a time',
  'bare-16': 'bare client, at most 16 writes at a time',
  'engine-1': 'engine, 1 worker process, no faults',
  'engine-2': 'engine, 2 worker processes, no faults',
  'faults-1': 'engine, 1 worker process, faults',
};

interface RunResult {
  kind: RunKind;
  ms: number;
  onLock: number;
  failed: number;
  failedAsMeant: number;
  /** keyboardPwd/add calls the simulator answered during the run, by errcode. */
  adds: Record<string, number>;
}

/** 10 codes a lock, 6 digits, distinct on the lock, never too simple; the same for every run. */
function codesOf(lockIndex: number): string[] {
  const codes: string[] = [];
  let x = (lockIndex + 1) * 7919;
  while (codes.length < PER_LOCK) {
    x = (x * 48271) % 2147483647;
    const code = String(100000 + (x % 900000));
    if (!isTooSimple(code) && !codes.includes(code)) codes.push(code);
  }
  return codes;
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  console.log(`# Credential delivery at scale (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const db = await createScratchDatabase(adminUrl, 'benchlkd', { migrated: true });
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lock-sim-'));
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const redisPrefix = `benchlkd:${process.pid}`;
  let simChild: Awaited<ReturnType<typeof startProcess>>['child'] | undefined;
  /** A smoke run's worker processes, kept from one engine run to the next (workersFor). */
  const kept: ChildProcess[] = [];
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  try {
    await client.connect();
    const sim = await startProcess(
      process.execPath,
      [...bundledEntry('../apps/lock-sim/src/main.ts')],
      { LOCK_SIM_PORT: '0', LOCK_SIM_STATE_FILE: path.join(stateDir, 'sim.json'), LOCK_SIM_SEED_LOCKS: '0', LOCK_SIM_LATENCY_MS: LATENCY },
      /listening on (http:\/\/[\d.:]+)/,
      path.join(root, 'bench'),
    );
    simChild = sim.child;
    const simUrl = sim.match[1]!;
    const bare = new SimClient(simUrl);
    await bare.login();

    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: redisPrefix,
      LOCK_PROVIDER: 'sim',
      LOCK_SIM_URL: simUrl,
      LOCK_DELIVERY_BACKOFF_MS: String(BACKOFF_MS),
      LOCK_DELIVERY_ATTEMPTS: String(ATTEMPTS),
    });
    deps = await createDeps(config, db.url, createLogger(config));
    const d = deps;
    const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
    const {
      rows: [account],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ('13312345680', 'x', 'Bench', now()) RETURNING "id"`,
    );

    /** LOCKS fresh locks (100), each paired with its own gateway. */
    async function freshLocks(n = LOCKS): Promise<{ lockIds: number[]; gatewayIds: number[] }> {
      const lockIds: number[] = [];
      const gatewayIds: number[] = [];
      for (let i = 0; i < n; i++) {
        const { lockId, gatewayId } = await bare.lockWithGateway({ name: `SIM Bench ${i + 1}` });
        lockIds.push(lockId);
        gatewayIds.push(gatewayId);
      }
      return { lockIds, gatewayIds };
    }

    /**
     * A hotel whose rooms are paired with these locks, and a staff context of it: it connects the
     * simulator's account (the real connect service), and its locks are its Lock rows of that
     * account (as "get locks" leaves them, each on its own gateway).
     */
    async function hotelFor(lockIds: number[], gatewayIds: number[]): Promise<{ hotelId: number; roomIds: number[]; ctx: AuthedContext }> {
      const {
        rows: [hotel],
      } = await client.query<{ id: number }>(
        `INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench locks', 'Asia/Shanghai', now()) RETURNING "id"`,
      );
      const hotelId = hotel!.id;
      await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [account!.id, hotelId]);
      const { id: lockAccountId } = await connectAccount({ deps: d, meta }, hotelId, {
        username: SIM_DEFAULTS.username,
        password: SIM_DEFAULTS.password,
        kind: 'ttlock',
        label: '',
      });
      const { rows: locks } = await client.query<{ id: number }>(
        `INSERT INTO "Lock" ("hotelId", "accountId", "provider", "providerLockId", "name", "simulated", "gatewayId", "updatedAt")
         SELECT $1, $2, 'ttlock', l::text, 'SIM Bench', true, g::text, now() FROM unnest($3::int[], $4::int[]) WITH ORDINALITY AS t(l, g, i) ORDER BY i RETURNING "id"`,
        [hotelId, lockAccountId, lockIds, gatewayIds],
      );
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "lockId", "updatedAt")
         SELECT $1, 'R' || lpad(i::text, 3, '0'), i, 20000, ($2::int[])[i], now() FROM generate_series(1, $3::int) i ORDER BY i RETURNING "id"`,
        [hotelId, locks.map((l) => l.id), lockIds.length],
      );
      const { token } = await createSession(d, { accountId: account!.id, hotelId, kind: 'web', meta });
      const actor = await resolveSession(d, token, 'web');
      return { hotelId, roomIds: rows.map((r) => r.id), ctx: { deps: d, meta, actor } };
    }

    const addCalls = async (since: number) => {
      const { calls } = await bare.control<{ calls: { path: string; at: number; errcode: number }[] }>('GET', '/calls');
      const out: Record<string, number> = {};
      for (const c of calls) if (c.at >= since && c.path.endsWith('keyboardPwd/add')) out[c.errcode] = (out[c.errcode] ?? 0) + 1;
      return out;
    };

    /** The same 1,000 writes straight to the simulator: one per lock at a time, at most `inFlight` at once. */
    async function bareRun(kind: 'bare-all' | 'bare-8' | 'bare-16', inFlight: number): Promise<RunResult> {
      const { lockIds } = await freshLocks();
      const queues = lockIds.map((lockId, i) =>
        codesOf(i).map((code, j) => ({ lockId, code, name: `Guest ${i * PER_LOCK + j + 1} #P${i * PER_LOCK + j + 1}` })),
      );
      const ready = shuffle(queues.map((_, i) => i));
      let running = 0;
      let ok = 0;
      const errors: Record<string, number> = {};
      const started = Date.now();
      const t = performance.now();
      await new Promise<void>((resolve, reject) => {
        let left = lockIds.length;
        const pump = () => {
          while (running < inFlight && ready.length) {
            const i = ready.shift()!;
            const write = queues[i]!.shift()!;
            running += 1;
            const now = Date.now();
            bare
              .call('keyboardPwd/add', {
                lockId: write.lockId,
                keyboardPwd: write.code,
                keyboardPwdName: write.name,
                keyboardPwdType: 2,
                startDate: now - (now % 60_000),
                addType: 2,
              })
              .then((answer) => {
                if (typeof answer.keyboardPwdId === 'number') ok += 1;
                else errors[String(answer.errcode)] = (errors[String(answer.errcode)] ?? 0) + 1;
                running -= 1;
                if (queues[i]!.length) ready.push(i);
                else left -= 1;
                if (left === 0) resolve();
                else pump();
              }, reject);
          }
        };
        pump();
      });
      const ms = performance.now() - t;
      if (ok !== LOCKS * PER_LOCK) throw new Error(`${kind}: ${ok} writes succeeded, refusals ${JSON.stringify(errors)}`);
      return { kind, ms, onLock: ok, failed: 0, failedAsMeant: 0, adds: await addCalls(started) };
    }

    /** Worker processes (`pnpm worker`, src/worker.ts) on the scratch database, started and ready before a run is timed. */
    async function startWorkerProcesses(n: number) {
      return Promise.all(
        Array.from({ length: n }, () =>
          startProcess(
            process.execPath,
            ['--openssl-legacy-provider', ...bundledEntry('../apps/server/src/worker.ts')],
            {
              NODE_ENV: 'development',
              LOG_LEVEL: 'info',
              DATABASE_URL: db.url,
              REDIS_PREFIX: redisPrefix,
              LOCK_PROVIDER: 'sim',
              LOCK_SIM_URL: simUrl,
              LOCK_DELIVERY_BACKOFF_MS: String(BACKOFF_MS),
              LOCK_DELIVERY_ATTEMPTS: String(ATTEMPTS),
              SCHEDULE_SWEEPS: 'false',
            },
            /workers running/,
            path.join(root, 'bench'),
          ).then((p) => p.child),
        ),
      );
    }

    /**
     * The `n` worker processes of an engine run, started after its passwords were issued. A smoke run
     * keeps those of the run before (each start of src/worker.ts through tsx costs seconds of CPU):
     * it starts only the ones missing, and stops the ones too many.
     */
    async function workersFor(n: number): Promise<ChildProcess[]> {
      if (!SMOKE) return startWorkerProcesses(n);
      while (kept.length > n) await stopProcess(kept.pop()!);
      if (kept.length < n) kept.push(...(await startWorkerProcesses(n - kept.length)));
      return [...kept];
    }

    /**
     * 1,000 passwords through the service, queued while the queue is paused; the worker processes
     * start; the queue is resumed and the clock starts; it stops at the last credential's final state.
     */
    async function engineRun(kind: 'engine-1' | 'engine-2' | 'faults-1', processes: number, count = LOCKS): Promise<RunResult> {
      const faults = kind === 'faults-1';
      const { lockIds, gatewayIds } = await freshLocks(count);
      const { hotelId, roomIds, ctx } = await hotelFor(lockIds, gatewayIds);
      const order = shuffle(lockIds.map((_, i) => i));
      const offline = faults ? order.slice(0, OFFLINE_LOCKS) : [];
      const busy = faults ? order.slice(OFFLINE_LOCKS, OFFLINE_LOCKS + BUSY_LOCKS) : [];
      const oneShot = faults ? order.slice(OFFLINE_LOCKS + BUSY_LOCKS, OFFLINE_LOCKS + BUSY_LOCKS + ONE_SHOT) : [];
      // Codes put on their lock at the keypad before the console sends them, on 10 locks not otherwise disturbed.
      const planted = new Set(faults ? order.slice(-PLANTED).map((i) => `${lockIds[i]}:${codesOf(i)[0]}`) : []);
      for (const key of planted) {
        const [lockId, code] = key.split(':');
        await bare.control('POST', `/locks/${lockId}/drift`, { action: 'plant', kind: 'passcode', code, name: 'front desk keypad', cloud: true });
      }
      await d.queues.credential.pause();
      const writes = shuffle(
        lockIds.flatMap((lockId, i) => codesOf(i).map((code, j) => ({ lockId, roomId: roomIds[i]!, code, holder: `Guest ${i * PER_LOCK + j + 1}` }))),
      );
      const createStarted = performance.now();
      for (const w of writes) await createPassword(ctx, { roomId: w.roomId, holderName: w.holder, kind: 'custom', code: w.code });
      const createMs = performance.now() - createStarted;
      const workers = await workersFor(processes);

      for (const i of offline) await bare.control('PATCH', `/locks/${lockIds[i]}`, { online: false });
      for (const i of busy)
        await bare.control('POST', `/locks/${lockIds[i]}/failures`, { code: -3037, message: 'lock busy (injected)', ops: ['keyboardPwd/add'] });
      for (const i of oneShot)
        await bare.control('POST', '/failures/next', { code: -3003, message: 'gateway busy (injected)', op: 'keyboardPwd/add', lockId: lockIds[i], times: 1 });
      const busyRooms = busy.map((i) => roomIds[i]!);

      const started = Date.now();
      await d.queues.credential.resume();
      const offlineTimer = offline.length
        ? setTimeout(() => void Promise.all(offline.map((i) => bare.control('PATCH', `/locks/${lockIds[i]}`, { online: true }))), OFFLINE_MS)
        : undefined;
      let busyLeft = busy.length > 0;
      const deadline = Date.now() + 180_000;
      try {
        for (;;) {
          const {
            rows: [r],
          } = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM "LockPassword" WHERE "hotelId" = $1 AND "deliveryState" IN ('pending', 'removing')`,
            [hotelId],
          );
          if (r!.n === 0) break;
          if (Date.now() > deadline) throw new Error(`${kind}: ${r!.n} credentials still pending after 180 s`);
          if (busyLeft) {
            // The busy locks accept again once every credential of theirs has been refused once.
            const {
              rows: [b],
            } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "LockPassword" WHERE "roomId" = ANY($1) AND "lastError" = 'lock_busy'`, [
              busyRooms,
            ]);
            if (b!.n === busy.length * PER_LOCK) {
              busyLeft = false;
              await Promise.all(busy.map((i) => bare.control('DELETE', `/locks/${lockIds[i]}/failures`)));
            }
          }
          await sleep(25);
        }
      } finally {
        clearTimeout(offlineTimer);
        if (!SMOKE) await Promise.all(workers.map(stopProcess));
      }
      const {
        rows: [last],
      } = await client.query<{ at: Date }>(`SELECT max(coalesce("deliveredAt", "lastAttemptAt")) AS at FROM "LockPassword" WHERE "hotelId" = $1`, [hotelId]);
      const ms = last!.at.getTime() - started;

      // The truth on both sides.
      const { rows } = await client.query<{
        id: number;
        roomId: number;
        code: string;
        deliveryState: string;
        lastError: string | null;
        providerRef: string | null;
        attempts: number;
      }>(
        `SELECT "id", "roomId", "code", "deliveryState"::text AS "deliveryState", "lastError", "providerRef", "attempts" FROM "LockPassword" WHERE "hotelId" = $1`,
        [hotelId],
      );
      const lockOfRoom = new Map(roomIds.map((id, i) => [id, lockIds[i]!]));
      const problems: string[] = [];
      if (rows.length !== writes.length) problems.push(`${rows.length} credentials in the database, ${writes.length} issued`);
      let failedAsMeant = 0;
      const onLockById = new Map<string, { id: number; code: string }[]>();
      for (const r of rows) {
        const lockId = lockOfRoom.get(r.roomId)!;
        const meant = planted.has(`${lockId}:${r.code}`);
        if (meant) {
          if (r.deliveryState === 'failed' && r.lastError === 'duplicate_code') failedAsMeant += 1;
          else problems.push(`password ${r.id} (code planted at the keypad) is ${r.deliveryState} ${r.lastError ?? ''}`);
        } else if (r.deliveryState !== 'on_lock') problems.push(`password ${r.id} is ${r.deliveryState} (${r.lastError})`);
        else onLockById.set(String(lockId), [...(onLockById.get(String(lockId)) ?? []), { id: r.id, code: r.code }]);
      }
      let onSim = 0;
      for (const lockId of lockIds) {
        const { lock } = await bare.control<{
          lock: { passcodes: { keyboardPwdId: number; keyboardPwd: string; keyboardPwdName: string; onLock: boolean }[] };
        }>('GET', `/locks/${lockId}`);
        const held = lock.passcodes.filter((p) => p.onLock);
        const codes = held.map((p) => p.keyboardPwd);
        if (new Set(codes).size !== codes.length) problems.push(`lock ${lockId} holds a code twice: ${codes.sort().join(',')}`);
        const ours = held.filter((p) => /#P\d+$/.test(p.keyboardPwdName));
        onSim += ours.length;
        const expected = onLockById.get(String(lockId)) ?? [];
        if (ours.length !== expected.length) problems.push(`lock ${lockId} holds ${ours.length} of our passcodes, the database says ${expected.length}`);
        for (const e of expected) {
          const copies = ours.filter((p) => p.keyboardPwd === e.code && p.keyboardPwdName.endsWith(`#P${e.id}`));
          if (copies.length !== 1) problems.push(`password ${e.id} is on lock ${lockId} ${copies.length} times`);
          else if (String(copies[0]!.keyboardPwdId) !== rows.find((r) => r.id === e.id)!.providerRef)
            problems.push(`password ${e.id}: providerRef differs from the lock's keyboardPwdId`);
        }
        for (const key of planted)
          if (key.startsWith(`${lockId}:`) && held.filter((p) => p.keyboardPwd === key.split(':')[1]).length !== 1)
            problems.push(`lock ${lockId}: the planted code is not there exactly once`);
      }
      const onLock = rows.filter((r) => r.deliveryState === 'on_lock').length;
      if (onSim !== onLock) problems.push(`${onLock} on_lock in the database, ${onSim} of ours on the simulated locks`);
      if (problems.length) throw new Error(`${kind}: ${problems.length} problems:\n${problems.slice(0, 20).join('\n')}`);
      if (count === LOCKS)
        console.log(
          `- ${LABEL[kind]}: issued ${writes.length} passwords through the service in ${fmt(createMs / 1000)} s (${fmt(writes.length / (createMs / 1000), 0)}/s, queue paused); delivered in ${fmt(ms / 1000, 2)} s.`,
        );
      return { kind, ms, onLock, failed: rows.filter((r) => r.deliveryState === 'failed').length, failedAsMeant, adds: await addCalls(started) };
    }

    // Warm-up (not reported): the adapter's token, Prisma, BullMQ and the simulator's code paths.
    // A smoke run times nothing worth reading: no warm-up.
    if (!SMOKE) {
      await engineRun('engine-1', 1, 5);
      await bareRun('bare-all', LOCKS);
    }

    const results: RunResult[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const roundResults: RunResult[] = [];
      roundResults.push(await bareRun('bare-all', LOCKS));
      roundResults.push(await bareRun('bare-8', WORKER_CONCURRENCY));
      roundResults.push(await bareRun('bare-16', 2 * WORKER_CONCURRENCY));
      roundResults.push(await engineRun('engine-1', 1));
      roundResults.push(await engineRun('engine-2', 2));
      roundResults.push(await engineRun('faults-1', 1));
      results.push(roundResults);
    }

    console.log(
      `\n${LOCKS} locks, each behind its own gateway, ${PER_LOCK} custom passwords each: ${LOCKS * PER_LOCK} writes a run, every run on ${LOCKS} fresh locks. Simulator (a child process) gateway latency ${LATENCY} ms a write.`,
    );
    console.log(
      `Engine: worker processes (src/worker.ts), each one credential worker of concurrency ${WORKER_CONCURRENCY}; LOCK_DELIVERY_BACKOFF_MS=${BACKOFF_MS} (doubling), LOCK_DELIVERY_ATTEMPTS=${ATTEMPTS}.`,
    );
    console.log(
      `Faults: ${OFFLINE_LOCKS} locks offline for the first ${fmt(OFFLINE_MS / 1000)} s; ${BUSY_LOCKS} locks answer every write "lock busy" (-3037) until each of their ${BUSY_LOCKS * PER_LOCK} credentials was refused once, and ${ONE_SHOT} writes on ${ONE_SHOT} other locks are answered "gateway busy" (-3003) once (${fmt((100 * (BUSY_LOCKS * PER_LOCK + ONE_SHOT)) / (LOCKS * PER_LOCK), 0)}% of the credentials meet an injected failure); ${PLANTED} codes were put on their lock at the keypad beforehand (meant to fail: duplicate_code).\n`,
    );
    console.log('| round | run | on lock | failed (as meant) | wall s | writes/s | x bare (all locks) | x bare (same in flight) | keyboardPwd/add answers |');
    console.log('|---:|---|---:|---:|---:|---:|---:|---:|---|');
    const sameInFlight: Partial<Record<RunKind, RunKind>> = {
      'bare-8': 'bare-8',
      'bare-16': 'bare-16',
      'engine-1': 'bare-8',
      'engine-2': 'bare-16',
      'faults-1': 'bare-8',
    };
    results.forEach((round, r) => {
      const of = (kind: RunKind) => round.find((x) => x.kind === kind)!;
      for (const x of round) {
        const answers = Object.entries(x.adds)
          .sort(([a], [b]) => Number(b) - Number(a))
          .map(([code, n]) => `${code === '0' ? 'ok' : code} ${n}`)
          .join(', ');
        const same = sameInFlight[x.kind];
        console.log(
          `| ${r + 1} | ${LABEL[x.kind]} | ${x.onLock} | ${x.failed} (${x.failedAsMeant}) | ${fmt(x.ms / 1000, 2)} | ${fmt((LOCKS * PER_LOCK) / (x.ms / 1000), 0)} | ${fmt(x.ms / of('bare-all').ms, 2)} | ${same ? fmt(x.ms / of(same).ms, 2) : ''} |  ${answers} |`,
        );
      }
    });
    const ratio = (kind: RunKind, baseKind: RunKind) =>
      median(results.map((round) => round.find((x) => x.kind === kind)!.ms / round.find((x) => x.kind === baseKind)!.ms));
    console.log(`\nMedian ratios over the rounds (each against the baseline of its own round):\n`);
    console.log('| run | x bare (all locks) | x bare (same in flight) |');
    console.log('|---|---:|---:|');
    for (const kind of ['bare-8', 'bare-16', 'engine-1', 'engine-2', 'faults-1'] as const)
      console.log(`| ${LABEL[kind]} | ${fmt(ratio(kind, 'bare-all'), 2)} | ${fmt(ratio(kind, sameInFlight[kind]!), 2)} |`);
    console.log(`\nWith faults / without (1 worker process): ${fmt(ratio('faults-1', 'engine-1'), 2)}.`);
    console.log(
      'Every engine run: every credential in a final state (on_lock, or failed with duplicate_code when its code was planted), none lost (database = simulator, code and keyboardPwdId), none twice on a lock: checked.\n',
    );
  } finally {
    await Promise.all(kept.map(stopProcess));
    await client.end().catch(() => {});
    if (deps) {
      const keys = await deps.redis.keys(`${redisPrefix}:*`);
      if (keys.length) await deps.redis.del(...keys);
      await closeDeps(deps);
    }
    if (simChild) await stopProcess(simChild);
    fs.rmSync(stateDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DB === '1') console.log(`Kept the database: ${db.url}`);
    else await db.drop();
  }
}

process.chdir(root);
await main();
