import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { testPostgres } from '../apps/server/src/test/test-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    redisUrl: string;
    redisPrefix: string;
    databaseUrl: string;
    /** The lock simulator the console runs inside itself (LOCK_PROVIDER=sim): its control API is `${lockSimUrl}/sim`. */
    lockSimUrl: string;
    /** The desk reader simulator the console runs beside itself (READER_SIM): its control API (docs/readers.md). */
    readerSimControlUrl: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts the built console (`pnpm build` first) as a real process on a fresh database with the
 * demo hotel, as `pnpm start` would, and stops it, the database and its Redis keys afterwards.
 */
export default async function setup(project: TestProject) {
  for (const file of ['apps/server/dist/main.js', 'apps/web/dist/index.html']) {
    if (!fs.existsSync(path.join(root, file))) throw new Error(`${file} is missing: run \`pnpm build\` before the browser tests`);
  }
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const postgres = await testPostgres((m) => process.stderr.write(`${m}\n`));
  const name = `smartlock_e2e_${randomBytes(6).toString('hex')}`;
  const url = new URL(postgres.adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const redisPrefix = `t:${name}`;
  // The simulated locks of this run only: their own state file, and any free port.
  const lockSimState = path.join(root, 'test-output', 'e2e', `${name}-lock-sim.json`);
  // The simulated desk reader of this run: its own state file, every service on a free port (the
  // console gives the browser their addresses).
  const readerSimState = path.join(root, 'test-output', 'e2e', `${name}-reader-sim.json`);
  let server: ChildProcess | undefined;

  /** Everything this set-up made, undone: the server, its database, its Redis keys, an embedded PostgreSQL. */
  const teardown = async () => {
    if (server) await stop(server);
    fs.rmSync(lockSimState, { force: true });
    fs.rmSync(readerSimState, { force: true });
    await adminQuery(postgres.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await postgres.stop();
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
    await adminQuery(postgres.adminUrl, `CREATE DATABASE "${name}"`);
    server = spawn(process.execPath, ['--openssl-legacy-provider', 'apps/server/dist/main.js'], {
      cwd: root,
      env: {
        // Never an external simulator a developer's shell may name: the run's own, inside the console.
        ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'LOCK_SIM_URL')),
        NODE_ENV: 'test',
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
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logFile = path.join(root, 'test-output', 'e2e', 'server.log');
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const log = fs.createWriteStream(logFile);
    server.stdout!.pipe(log);
    server.stderr!.pipe(log);
    const { port, lockSimUrl, readerSimControlUrl } = await waitForPort(server);
    project.provide('baseUrl', `http://127.0.0.1:${port}`);
    project.provide('lockSimUrl', lockSimUrl);
    project.provide('readerSimControlUrl', readerSimControlUrl);
  } catch (error) {
    // A server that did not start leaves nothing behind: no process, no database, no keys.
    await teardown();
    throw error;
  }

  project.provide('redisUrl', redisUrl);
  project.provide('redisPrefix', redisPrefix);
  project.provide('databaseUrl', databaseUrl);
  return teardown;
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
