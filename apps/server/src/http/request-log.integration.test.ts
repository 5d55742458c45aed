import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { closeDeps, createDeps } from '../deps';
import { testConfig } from '../test/harness';

/** The app with a logger at `level` whose lines are kept, as a hotel's log would receive them. */
async function appLoggingAt(level: 'info' | 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = testConfig({ LOG_LEVEL: level });
  // The same redaction as the process's logger (infra/logger.ts), on a stream the test reads.
  const log = pino(
    { level, redact: ['req.headers.cookie', 'req.headers["x-token"]', 'req.headers.authorization', 'res.headers["set-cookie"]'] },
    sink,
  ) as FastifyBaseLogger;
  const deps = await createDeps(config, inject('databaseUrl'), log, { poolSize: 2, locks: null });
  const app = await buildApp(deps);
  await app.ready();
  // Closed right after a few requests: the queues' connections are made before they are closed.
  await Promise.all([deps.queues.sms, deps.queues.stay, deps.queues.credential, deps.queues.locks, deps.queues.export].map((queue) => queue.waitUntilReady()));
  return {
    app,
    lines,
    async close() {
      await app.close();
      await closeDeps(deps);
    },
  };
}

describe('request logs', () => {
  it('are not written at the default level (info): a busy desk does not fill the disk with them', async () => {
    const { app, lines, close } = await appLoggingAt('info');
    try {
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      expect((await app.inject('/trpc/no.such.procedure')).statusCode).toBe(404);
      expect((await app.inject('/wp-login.php')).statusCode).toBe(404);
      expect(lines.filter((l) => /incoming request|request completed|not found/.test(String(l.msg)) || l.req || l.res)).toEqual([]);
    } finally {
      await close();
    }
  });

  it('are written at debug: the request, then its status and duration, with the credentials hidden', async () => {
    const { app, lines, close } = await appLoggingAt('debug');
    try {
      const res = await app.inject({ url: '/healthz', headers: { cookie: 'sl_session=secret-session-token', 'x-token': 'secret-token' } });
      const id = res.headers['x-request-id'];
      const incoming = lines.find((l) => l.msg === 'incoming request' && l.reqId === id);
      const completed = lines.find((l) => l.msg === 'request completed' && l.reqId === id);
      expect(incoming).toMatchObject({ level: 20, req: { method: 'GET', url: '/healthz' } });
      expect(completed).toMatchObject({ level: 20, res: { statusCode: 200 } });
      expect(typeof completed?.responseTime).toBe('number');
      expect(JSON.stringify(lines)).not.toContain('secret');
      await app.inject('/wp-login.php');
      expect(lines.find((l) => l.msg === 'Route GET:/wp-login.php not found')).toMatchObject({ level: 20 });
    } finally {
      await close();
    }
  });
});
