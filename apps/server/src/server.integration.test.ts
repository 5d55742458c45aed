import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { loadConfig } from './config';
import { createScratchDatabase } from './db/scratch-database';
import { consoleEntry } from './test/processes';
import { freePort } from './test/test-postgres';
import { REDIS_CONTAINER_COMMAND, RedisUnavailableError, redisUnavailableMessage } from './infra/redis';
import { createLogger, startServer } from './server';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('starting the console', () => {
  it('without DATABASE_URL runs an embedded PostgreSQL, migrates and seeds it, and answers /readyz', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-embedded-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      EMBEDDED_PG_DIR: path.join(dir, 'postgres'),
      // The kernel's free port, not one derived from the pid: a port in the ephemeral range may be any connection's.
      EMBEDDED_PG_PORT: String(await freePort()),
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: `${inject('redisPrefix')}:embedded`,
      WORKERS_IN_PROCESS: 'false',
    });
    try {
      const server = await startServer(config, createLogger(config));
      try {
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ status: 'ok', database: 'ok', redis: 'ok', files: 'ok' });
        expect(await server.deps.prisma.room.count()).toBe(30);
      } finally {
        await server.close();
      }
      // A second start reuses the initialised data directory.
      const again = await startServer(config, createLogger(config));
      expect(await again.deps.prisma.hotel.count()).toBe(1);
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('stops with a paragraph naming how to start Redis when none answers', async () => {
    const db = await createScratchDatabase(inject('adminDatabaseUrl'), 'noredis');
    try {
      const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1' });
      const error = await startServer(config, createLogger(config)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUnavailableError);
      expect((error as Error).message).toMatch(/Cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
      expect((error as Error).message).toContain(REDIS_CONTAINER_COMMAND);
      expect((error as Error).message).not.toMatch(/\n/);
    } finally {
      await db.drop();
    }
  });

  it('hides a password in the Redis URL of that message', () => {
    expect(redisUnavailableMessage('redis://user:secret@host:6379', 'refused')).not.toContain('secret');
  });

  it('exits with the message, and no stack trace, from the real entry point', async () => {
    const db = await createScratchDatabase(inject('adminDatabaseUrl'), 'entry');
    try {
      const result = await runMain({ DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1', PORT: '0' }, { waitFor: 'exit' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/Cannot reach Redis/);
      expect(result.stderr).toMatch(/ECONNREFUSED/);
      expect(result.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    } finally {
      await db.drop();
    }
  }, 60_000);

  it('finishes an in-flight request and closes everything on SIGTERM', async () => {
    const db = await createScratchDatabase(inject('adminDatabaseUrl'), 'sigterm', { migrated: true });
    try {
      const result = await runMain(
        // A shutdown budget a loaded CI machine cannot exhaust: the test is about the order of the stop, not its speed.
        {
          DATABASE_URL: db.url,
          REDIS_URL: inject('redisUrl'),
          REDIS_PREFIX: `${inject('redisPrefix')}:sigterm`,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'debug',
          SEED_DEMO: 'false',
          SHUTDOWN_TIMEOUT_MS: '40000',
        },
        {
          waitFor: 'ready',
          async whenReady(url, child, output) {
            // A request whose body is still arriving when SIGTERM comes: it must still be answered.
            const { port } = new URL(url);
            const answer = new Promise<number>((resolveStatus, rejectStatus) => {
              const req = http.request(
                { host: '127.0.0.1', port, method: 'POST', path: '/trpc/auth.captcha', headers: { 'content-type': 'application/json', 'content-length': '2' } },
                (res) => {
                  res.resume();
                  resolveStatus(res.statusCode ?? 0);
                },
              );
              req.on('error', rejectStatus);
              req.write('{');
              // Once the server has logged the request, it is in flight: stop the server, then finish the body.
              const waitForRequest = setInterval(() => {
                if (!output().includes('"url":"/trpc/auth.captcha"')) return;
                clearInterval(waitForRequest);
                child.kill('SIGTERM');
                setTimeout(() => req.end('}'), 300);
              }, 20);
            });
            expect(await answer).toBe(200);
          },
        },
      );
      expect(result.code, result.stdout.slice(-3000) + result.stderr.slice(-2000)).toBe(0);
      expect(result.stdout).toMatch(/SIGTERM received/);
      expect(result.stdout).toMatch(/"msg":"stopped"/);
    } finally {
      await db.drop();
    }
  }, 120_000);
});

/** Runs the server's main.ts, bundled from the source (test/processes.ts), capturing its output. */
function runMain(
  env: Record<string, string>,
  options: { waitFor: 'exit' | 'ready'; whenReady?: (url: string, child: ReturnType<typeof spawn>, output: () => string) => Promise<void> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, consoleEntry('main'), {
      cwd: serverDir,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let isReady = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = stdout.match(/console ready on http:\/\/localhost:(\d+)/);
      if (options.waitFor === 'ready' && match && !isReady) {
        isReady = true;
        options.whenReady?.(`http://127.0.0.1:${match[1]!}`, child, () => stdout).catch(reject);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    // A last resort, inside the tests' own limits: on a loaded machine the start alone (then tsx
    // compiling main.ts) was measured at 35 s, so a start plus a shutdown of up to SHUTDOWN_TIMEOUT_MS needs room.
    setTimeout(() => child.kill('SIGKILL'), 100_000).unref();
  });
}
