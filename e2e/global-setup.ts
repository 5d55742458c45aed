import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migratedTemplate } from '../apps/server/src/db/template-database';
import { startSeamFake } from '../apps/server/src/test/seam-fake';
import { testPostgres } from '../apps/server/src/test/test-postgres';
import { e2eWorkers } from './workers';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    /**
     * One console per worker of the e2e project (`E2E_WORKERS`, vitest.config.ts), each on its own
     * database, Redis prefix and simulators: a file talks only to the console of the worker that
     * runs it (`server()` in support.ts), so files run side by side and never see each other.
     */
    e2eServers: E2eServer[];
    /**
     * Seam's fake (`@seamapi/fake-seam-connect`) with OUR layer, one for the run: every console
     * speaks to it as its Seam (SEAM_ENDPOINT); tests change its store through `controlUrl`.
     */
    seamFake: { url: string; controlUrl: string; fakeUrl: string };
  }
}

export interface E2eServer {
  baseUrl: string;
  databaseUrl: string;
  redisPrefix: string;
  /** The lock simulator the console runs inside itself (LOCK_PROVIDER=sim): its control API is `${lockSimUrl}/sim`. */
  lockSimUrl: string;
  /** The desk reader simulator the console runs beside itself (READER_SIM): its control API (docs/readers.md). */
  readerSimControlUrl: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts the built console (`pnpm build` first) as real processes, one per worker (no more than
 * there are files to run), each on a fresh database with the demo hotel, as `pnpm start` would,
 * and stops them, their databases and their Redis keys afterwards.
 */
export default async function setup(project: TestProject) {
  for (const file of ['apps/server/dist/main.js', 'apps/web/dist/index.html']) {
    if (!fs.existsSync(path.join(root, file))) throw new Error(`${file} is missing: run \`pnpm build\` before the browser tests`);
  }
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  // Seam's fake, the consoles' Seam (a Seam workspace is connected from the lock accounts page);
  // first, so that nothing else is left running if it cannot start.
  const seam = await startSeamFake();
  const postgres = await testPostgres((m) => process.stderr.write(`${m}\n`)).catch(async (error: unknown) => {
    await seam.stop();
    throw error;
  });
  const count = Math.max(1, Math.min(e2eWorkers, await fileCount(project)));
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startConsole(postgres.adminUrl, redisUrl, i + 1, { SEAM_ENDPOINT: seam.url })),
  );
  const consoles = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const teardown = async () => {
    await Promise.all(consoles.map((c) => c.teardown()));
    await seam.stop();
    await postgres.stop();
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    // A console that did not start leaves nothing behind: no process, no database, no keys.
    await teardown();
    throw failed.reason;
  }
  project.provide('redisUrl', redisUrl);
  project.provide('seamFake', { url: seam.url, controlUrl: seam.controlUrl, fakeUrl: seam.fakeUrl });
  project.provide(
    'e2eServers',
    consoles.map((c) => c.server),
  );
  return teardown;
}

/** How many test files this run has (a run of one file needs one console). */
async function fileCount(project: TestProject): Promise<number> {
  try {
    const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
    return (await project.globTestFiles(filters)).testFiles.length;
  } catch {
    return e2eWorkers;
  }
}

/**
 * One console as `pnpm start` runs it, on a fresh database with the demo hotel; `env` adds or
 * replaces settings (a file that needs its own install, e.g. an SMTP server and PUBLIC_URL, starts
 * one with them: e2e/booking-to-door.e2e.test.ts). `teardown` removes everything it made.
 */
export async function startConsole(
  adminUrl: string,
  redisUrl: string,
  worker: number | string,
  env: Record<string, string> = {},
): Promise<{ server: E2eServer; teardown: () => Promise<void> }> {
  const name = `smartlock_e2e_${randomBytes(6).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const redisPrefix = `t:${name}`;
  // The simulated locks of this console only: their own state file, and any free port.
  const lockSimState = path.join(root, 'test-output', 'e2e', `${name}-lock-sim.json`);
  // The simulated desk reader of this console: its own state file, every service on a free port
  // (the console gives the browser their addresses).
  const readerSimState = path.join(root, 'test-output', 'e2e', `${name}-reader-sim.json`);
  let server: ChildProcess | undefined;

  /** Everything this console made, undone: the server, its database, its Redis keys. */
  const teardown = async () => {
    if (server) await stop(server);
    fs.rmSync(lockSimState, { force: true });
    fs.rmSync(readerSimState, { force: true });
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    const redis = new Redis(redisUrl);
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}:*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  };

  try {
    // A copy of the migrated template (db/template-database.ts): the console's start applies nothing.
    await adminQuery(adminUrl, `CREATE DATABASE "${name}" TEMPLATE "${await migratedTemplate(adminUrl)}"`);
    // A test run's database: commits need not wait for the disk (db/scratch-database.ts, fastCommits).
    await adminQuery(adminUrl, `ALTER DATABASE "${name}" SET synchronous_commit = off`);
    server = spawn(process.execPath, ['--openssl-legacy-provider', 'apps/server/dist/main.js'], {
      cwd: root,
      env: {
        // Never an external simulator a developer's shell may name: the run's own, inside the console.
        ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'LOCK_SIM_URL')),
        NODE_ENV: 'test',
        // The calendar feeds the tests serve are on 127.0.0.1.
        FEED_PRIVATE_ADDRESSES: 'true',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: redisPrefix,
        PORT: '0',
        HOST: '127.0.0.1',
        SEED_DEMO: 'true',
        LOG_LEVEL: 'info',
        LOCK_PROVIDER: 'sim',
        LOCK_SIM_STATE_FILE: lockSimState,
        LOCK_SIM_PORT: '0',
        READER_SIM: 'true',
        READER_SIM_STATE_FILE: readerSimState,
        READER_SIM_TYPE1_PORT: '0',
        READER_SIM_TYPE2_PORT: '0',
        READER_SIM_TYPE3_PORT: '0',
        READER_SIM_CONTROL_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logFile = path.join(root, 'test-output', 'e2e', `server-${worker}.log`);
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const log = fs.createWriteStream(logFile);
    server.stdout!.pipe(log);
    server.stderr!.pipe(log);
    const { port, lockSimUrl, readerSimControlUrl } = await waitForPort(server);
    return { server: { baseUrl: `http://127.0.0.1:${port}`, databaseUrl, redisPrefix, lockSimUrl, readerSimControlUrl }, teardown };
  } catch (error) {
    await teardown();
    throw error;
  }
}

async function adminQuery(adminUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The console's port, and the URLs of the lock simulator and the reader simulator's control API it started, from what it logs. */
function waitForPort(server: ChildProcess): Promise<{ port: number; lockSimUrl: string; readerSimControlUrl: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the console did not start in 60 s:\n${output}`)), 60_000);
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/console ready on http:\/\/localhost:(\d+)/);
      if (match) {
        clearTimeout(timer);
        const sim = output.match(/lock simulator runs inside the server on (http:\/\/[\w.:-]+)/);
        const readers = output.match(/SIMULATED card readers: .*control API (http:\/\/[\w.:/-]+)\)/);
        resolve({ port: Number(match[1]), lockSimUrl: sim?.[1] ?? '', readerSimControlUrl: readers?.[1] ?? '' });
      }
    });
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.on('exit', (code) => reject(new Error(`the console exited with ${code}:\n${output}`)));
  });
}

function stop(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.on('exit', () => resolve());
    server.kill('SIGTERM');
    setTimeout(() => server.kill('SIGKILL'), 10_000).unref();
  });
}
