/**
 * `pnpm bench`: the numbers of issue 2, measured side by side in one run and printed as ratios.
 *   1. The customer list (20 rows) through a bare Fastify route, through tRPC, and through the
 *      legacy envelope (DES both ways): what tRPC and the envelope cost on top of the query.
 *   2. Sign-in with argon2id at OWASP parameters: throughput and p50 with 20 concurrent logins,
 *      and the latency of a health probe meanwhile (the event loop must stay free: < 50 ms).
 *   3. Start-up: from `node apps/server/dist/main.js` to /readyz answering, on an embedded
 *      PostgreSQL that is already initialised (target < 5 s).
 * Needs the build (`pnpm bench` builds first), PostgreSQL on 127.0.0.1:5432 and Redis.
 *
 * Smoke run (BENCH_SMOKE=1): every server started as in the full run and the same checks (tRPC and
 * the envelope each answer the 20 rows; every start reaches its ready line, /readyz answers), but
 * each load a few requests instead of seconds of them (`SMOKE_LOAD`: 10 a list route, one a
 * connection; 4 logins at once), no warm-up, one round and one timed restart of the embedded
 * PostgreSQL instead of 3.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import CryptoJS from 'crypto-js';
import { DEV_COMPAT_DES_IV, DEV_COMPAT_DES_KEY } from '../apps/server/src/config/keys.ts';
import { createPrisma } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { freePort } from '../apps/server/src/test/test-postgres.ts';
import { DEMO, seedDemo } from '../apps/server/src/db/seed.ts';
import { fmt, load, median, percentile, root, startProcess, stopProcess, type LoadResult, sized, SMOKE, target, bundledEntry } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisPrefix = `bench:${process.pid}`;
const encrypt = (payload: object) =>
  CryptoJS.DES.encrypt(JSON.stringify({ ...payload, action: 'manage' }), CryptoJS.enc.Utf8.parse(DEV_COMPAT_DES_KEY), {
    iv: CryptoJS.enc.Utf8.parse(DEV_COMPAT_DES_IV),
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.Pkcs7,
  }).toString();
const legacyBody = (payload: object) => new URLSearchParams({ data: encrypt(payload), language: 'zh-CN' }).toString();
/**
 * A smoke run's load: a fixed number of requests (`amount`, at least one a connection) instead of
 * seconds of them, sampled every 50 ms so that autocannon ends as soon as they are answered (it
 * stops on a sample's tick: a second after the last answer at its default). Nothing of it is read.
 */
const SMOKE_LOAD = (requests: number): Partial<Parameters<typeof load>[0]> => sized({}, { amount: requests, sampleInt: 50 });

async function main() {
  console.log(`# Benchmarks (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const db = await createScratchDatabase(adminUrl, 'bench', { migrated: true });
  try {
    const prisma = createPrisma(db.url, { max: 2 });
    await seedDemo(prisma);
    await prisma.$disconnect();
    await listBench(db.url);
    await loginBench(db.url);
  } finally {
    await db.drop();
  }
  await startupBench();
}

async function listBench(databaseUrl: string) {
  const { child, match } = await startProcess(
    process.execPath,
    ['--openssl-legacy-provider', ...bundledEntry('server.ts')],
    { DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix, NODE_ENV: 'development', SEED_DEMO: 'false' },
    /\{"port":\d+.*\}/,
    path.join(root, 'bench'),
  );
  try {
    const { port, webToken, legacyToken } = JSON.parse(match[0]) as { port: number; webToken: string; legacyToken: string };
    const base = `http://127.0.0.1:${port}`;
    const targets: Record<string, Parameters<typeof load>[0]> = {
      bare: { url: `${base}/bench/bare-customers` },
      trpc: {
        url: `${base}/trpc/customer.list?input=${encodeURIComponent(JSON.stringify({ page: 1, pageSize: 20 }))}`,
        headers: { cookie: `sl_session=${webToken}`, language: 'zh-CN' },
      },
      envelope: {
        url: `${base}/manage/room/clientList`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-token': legacyToken, language: 'zh-CN' },
        body: legacyBody({ page: 1, limit: 20 }),
      },
    };
    // Sanity: every target answers with the 20 rows.
    const trpc = (await (await fetch(targets.trpc!.url!, { headers: targets.trpc!.headers as Record<string, string> })).json()) as {
      result: { data: { items: unknown[] } };
    };
    if (trpc.result.data.items.length !== 20) throw new Error('tRPC did not return 20 rows');
    const legacyText = await (
      await fetch(targets.envelope!.url!, {
        method: 'POST',
        headers: targets.envelope!.headers as Record<string, string>,
        body: targets.envelope!.body as string,
      })
    ).text();
    const legacy = JSON.parse(
      CryptoJS.DES.decrypt(legacyText, CryptoJS.enc.Utf8.parse(DEV_COMPAT_DES_KEY), { iv: CryptoJS.enc.Utf8.parse(DEV_COMPAT_DES_IV) }).toString(
        CryptoJS.enc.Utf8,
      ),
    ) as { errno: number; data: { list: unknown[] } };
    if (legacy.errno !== 0 || legacy.data.list.length !== 20) throw new Error('the envelope did not return 20 rows');

    if (!SMOKE) for (const t of Object.values(targets)) await load({ ...t, duration: 1 }); // warm-up
    const rounds: Record<string, LoadResult[]> = { bare: [], trpc: [], envelope: [] };
    for (let round = 0; round < sized(3, 1); round++) {
      for (const [name, target] of Object.entries(targets)) rounds[name]!.push(await load({ ...target, ...SMOKE_LOAD(10) }));
    }
    const summary = Object.fromEntries(
      Object.entries(rounds).map(([name, results]) => [
        name,
        {
          rps: median(results.map((r) => r.requestsPerSecond)),
          p50: median(results.map((r) => r.p50)),
          p99: median(results.map((r) => r.p99)),
          errors: results.reduce((n, r) => n + r.errors + r.non2xx, 0),
        },
      ]),
    ) as Record<'bare' | 'trpc' | 'envelope', { rps: number; p50: number; p99: number; errors: number }>;
    console.log('## 1. Customer list, 20 rows (10 connections, 3 interleaved rounds of 8 s, medians)\n');
    console.log('| route | req/s | p50 ms | p99 ms | errors | req/s vs bare | req/s vs tRPC |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, s] of Object.entries(summary)) {
      console.log(
        `| ${name} | ${fmt(s.rps, 0)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${s.errors} | ${fmt(s.rps / summary.bare.rps, 2)} | ${fmt(s.rps / summary.trpc.rps, 2)} |`,
      );
    }
    const overhead = (summary.trpc.rps / summary.envelope.rps - 1) * 100;
    target('The legacy envelope at most 15 % over tRPC per request', overhead <= 15, `${fmt(overhead)} %`);
  } finally {
    await stopProcess(child);
  }
}

async function loginBench(databaseUrl: string) {
  const { child, match } = await startProcess(
    process.execPath,
    ['--openssl-legacy-provider', 'apps/server/dist/main.js'],
    {
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `${redisPrefix}:login`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      WORKERS_IN_PROCESS: 'false',
    },
    /console ready on http:\/\/localhost:(\d+)/,
  );
  try {
    const base = `http://127.0.0.1:${match[1]}`;
    const login = {
      url: `${base}/manage/login`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/x-www-form-urlencoded', language: 'en' },
      body: legacyBody({ mobile: DEMO.owner.mobile, password: DEMO.owner.password }),
    };
    const probes: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const t = performance.now();
        await fetch(`${base}/healthz`);
        probes.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    // A smoke run: 4 logins at once, once each (argon2id at 19 MiB is the cost of this section).
    const result = await load({ ...login, connections: sized(20, 4), duration: sized(10, 1), ...SMOKE_LOAD(4) });
    probing = false;
    await probe;
    console.log('## 2. Sign-in (argon2id, 19 MiB, 2 iterations, parallelism 1; 20 concurrent logins for 10 s)\n');
    console.log('| logins/s | p50 ms | p99 ms | errors | /healthz probes | probe p50 ms | probe p99 ms | probe max ms |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${fmt(result.requestsPerSecond)} | ${fmt(result.p50)} | ${fmt(result.p99)} | ${result.errors + result.non2xx} | ${probes.length} | ${fmt(median(probes))} | ${fmt(percentile(probes, 99))} | ${fmt(Math.max(...probes))} |`,
    );
    const max = Math.max(...probes);
    target('The event loop responsive during the logins (every probe under 50 ms)', max < 50, `slowest probe ${fmt(max)} ms`);
  } finally {
    await stopProcess(child);
  }
}

async function startupBench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-bench-start-'));
  // A port the kernel says is free, chosen again for every start: a fixed one (55432 was) lies in
  // the machine's ephemeral range (32768-60999), where another benchmark's connection run beside
  // this one can hold it as its local port (CI on 2026-11-28: "could not bind ... Address already in use").
  const env = {
    EMBEDDED_PG_DIR: path.join(dir, 'postgres'),
    EMBEDDED_PG_PORT: String(await freePort()),
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_PREFIX: `${redisPrefix}:start`,
    LOG_LEVEL: 'info',
  };
  delete process.env.DATABASE_URL;
  try {
    // First start: initialises, migrates and seeds the embedded database (not measured as start-up).
    const first = performance.now();
    const init = await startProcess(
      process.execPath,
      ['--openssl-legacy-provider', 'apps/server/dist/main.js'],
      env,
      /console ready on http:\/\/localhost:(\d+)/,
    );
    const firstMs = performance.now() - first;
    await stopProcess(init.child);
    const times: number[] = [];
    for (let i = 0; i < sized(3, 1); i++) {
      env.EMBEDDED_PG_PORT = String(await freePort());
      const started = performance.now();
      const { child, match } = await startProcess(
        process.execPath,
        ['--openssl-legacy-provider', 'apps/server/dist/main.js'],
        env,
        /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
      );
      const url = `http://127.0.0.1:${match[1]}/readyz`;
      for (;;) {
        const ok = await fetch(url)
          .then((r) => r.ok)
          .catch(() => false);
        if (ok) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      times.push(performance.now() - started);
      await stopProcess(child);
    }
    console.log('## 3. Start-up with an initialised embedded PostgreSQL\n');
    console.log('| first start (initdb, migrate, seed) ms | start to /readyz ms (median of 3) | runs |');
    console.log('|---:|---:|---|');
    console.log(`| ${fmt(firstMs, 0)} | ${fmt(median(times), 0)} | ${times.map((t) => fmt(t, 0)).join(', ')} |`);
    target('Start-up under 5 s', median(times) < 5000, `median ${fmt(median(times) / 1000, 2)} s`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

process.chdir(root);
await main();
