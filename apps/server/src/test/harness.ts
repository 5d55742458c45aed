import { randomBytes } from 'node:crypto';
import { expect, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type TConfig } from '../config';
import type { Actor, AuthedContext, Deps, RequestMeta } from '../context';
import { closeDeps, createDeps } from '../deps';
import type { LockCloud } from '../infra/locks';
import type { SmsSender } from '../infra/sms';
import { createLogger } from '../server';
import { resolveSession } from '../modules/auth/session.service';

export interface TestContext {
  deps: Deps;
  app: FastifyInstance;
  config: TConfig;
  close(): Promise<void>;
}

/**
 * Redis keys of this test file: queues, mutexes and limits of files running at the same time
 * never meet (a worker of one file would otherwise take the delivery jobs of another, whose locks
 * live in another simulator). Every context of one file shares it (a test may stop and start
 * "servers"); the run's clean-up removes `<run prefix>:*`, these included.
 */
const filePrefixes = new Map<string, string>();
function fileRedisPrefix(): string {
  // The integration project runs its files one after another in each worker without reloading the
  // modules (vitest.config.ts, `isolate: false`): this module outlives a file, so the prefix is
  // kept per test file, never per module.
  const file = expect.getState().testPath ?? '';
  let prefix = filePrefixes.get(file);
  if (!prefix) filePrefixes.set(file, (prefix = `${inject('redisPrefix')}:f${randomBytes(4).toString('hex')}`));
  return prefix;
}

/**
 * A range of simulated lock ids for one test file's simulator (`startLockSim({ lockIdBase })`):
 * files running at once share the database, where a lock id names one lock of one provider.
 */
export function testLockIdBase(): number {
  return 1_000_000 + randomBytes(3).readUIntBE(0, 3) * 1_000;
}

export function testConfig(env: Record<string, string> = {}): TConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: inject('databaseUrl'),
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: fileRedisPrefix(),
    UPLOAD_DIR: inject('uploadDir'),
    ...env,
  });
}

/**
 * The real app on the run's database and Redis, driven with `app.inject()`. `sim`: the lock
 * simulator the lock cloud of the app is (LOCK_PROVIDER=sim, LOCK_SIM_URL), which the hotels'
 * lock accounts then speak to (test/lock-factories.ts).
 */
export async function createTestContext(
  options: { sms?: SmsSender; env?: Record<string, string>; locks?: LockCloud | null; sim?: { url: string } } = {},
): Promise<TestContext> {
  const config = testConfig({ ...(options.sim ? { LOCK_PROVIDER: 'sim', LOCK_SIM_URL: options.sim.url } : {}), ...options.env });
  const deps = await createDeps(config, inject('databaseUrl'), createLogger(config), { sms: options.sms, poolSize: 5, locks: options.locks });
  const app = await buildApp(deps);
  await app.ready();
  return {
    deps,
    app,
    config,
    async close() {
      await app.close();
      await closeDeps(deps);
    },
  };
}

let counter = 0;
/** A request meta with its own client address, so rate limits of one test never touch another. */
export function testMeta(overrides: Partial<RequestMeta> = {}): RequestMeta {
  counter += 1;
  return { ip: `10.${process.pid % 250}.${Math.floor(counter / 250) % 250}.${counter % 250}`, requestId: `test-${counter}`, lang: 'en', ...overrides };
}

/** A service context for an account signed in with a web session (what tRPC procedures get). */
export async function actorContext(deps: Deps, token: string, meta = testMeta()): Promise<AuthedContext & { actor: Actor }> {
  const actor = await resolveSession(deps, token, 'web');
  return { deps, meta, actor };
}
