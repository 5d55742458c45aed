import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { TConfig } from './config';
import { createLogger } from './infra/logger';
import type { Deps } from './context';
import { closeDeps, createDeps } from './deps';
import { startEmbeddedPostgres } from './db/embedded';
import { applyMigrations } from './db/migrate';
import { WEB_DIST_DIR } from './db/paths';
import { seedDemo } from './db/seed';
import { assertDesAvailable } from './infra/des';
import { createLockCloud, lockCallbackPath, startEmbeddedLockSim } from './infra/locks';
import { startEmbeddedReaderSim, withReaderSim } from './infra/readers';
import { probeRedis } from './infra/redis';
import { startWorkers } from './jobs/workers';
import { pairDemoRoomsWithSimulatedLocks } from './modules/locks/demo-locks';
import { refreshLockStatus } from './modules/locks/lock.service';

export interface RunningServer {
  app: FastifyInstance;
  deps: Deps;
  url: string;
  /** The lock simulator running inside the server (LOCK_PROVIDER=sim without LOCK_SIM_URL), or null. */
  lockSimUrl: string | null;
  /** The desk reader simulator running beside the server (READER_SIM): its services and control API, or null. */
  readerSim: { type1: string; type2: string; type3: string; controlUrl: string } | null;
  /** Stops accepting, lets requests and jobs finish, closes pools and the embedded database. */
  close(): Promise<void>;
}

export { createLogger };

/**
 * config -> database (embedded when DATABASE_URL is unset) -> migrations -> seed -> app -> listen.
 * Everything the process opens is closed by `close()`, in reverse order.
 */
export async function startServer(config: TConfig, log: FastifyBaseLogger = createLogger(config)): Promise<RunningServer> {
  assertDesAvailable();
  const started = Date.now();
  await probeRedis(config.redisUrl);
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dir: config.embeddedPg.dir, port: config.embeddedPg.port, log: (m) => log.info(m) });
    databaseUrl = embedded.url;
  }
  let deps: Deps | undefined;
  let lockSim: Awaited<ReturnType<typeof startEmbeddedLockSim>> = null;
  let readerSim: Awaited<ReturnType<typeof startEmbeddedReaderSim>> = null;
  try {
    await applyMigrations(databaseUrl, { log: (m) => log.info(m) });
    lockSim = await startEmbeddedLockSim(config, log);
    readerSim = await startEmbeddedReaderSim(config, log);
    deps = await createDeps(withReaderSim(config, readerSim), databaseUrl, log, { locks: createLockCloud(config, lockSim?.url) });
    if (config.locks.legacyTtlockAccount) {
      log.warn('TTLOCK_USERNAME / TTLOCK_PASSWORD are no longer read: each hotel connects its own TTLock account in the console (Settings > Lock accounts, docs/ttlock-account.md)');
    }
    const shouldSeed =
      config.seedDemo === 'true' || (config.seedDemo === 'auto' && !config.isProduction && (await deps.prisma.hotel.count()) === 0);
    if (shouldSeed) {
      const seeded = await seedDemo(deps.prisma);
      if (seeded.created) log.info(`created the demo hotel (id ${seeded.hotelId})`);
    }
    const simUrl = lockSim?.url ?? (config.locks.provider === 'sim' ? config.locks.sim.url : undefined);
    if (simUrl) {
      const { paired } = await pairDemoRoomsWithSimulatedLocks(deps, simUrl);
      if (paired) log.info(`paired ${paired} rooms of the demo hotel with simulated locks`);
    }
    if (deps.locks) {
      const readyDeps = deps;
      // The first status of every lock, in the background: a slow lock cloud does not delay the start.
      void refreshLockStatus(readyDeps, {}).catch((error: unknown) => log.warn({ err: error }, 'could not read the status of the locks'));
    }
    const workers = config.workersInProcess ? startWorkers(deps, { sweep: config.scheduleSweeps }) : undefined;
    const app = await buildApp(deps, { webDistDir: WEB_DIST_DIR });
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://127.0.0.1:${port}`;
    if (lockSim) {
      // The simulator pushes lock records to this server, as TTLock pushes them to its callback URL.
      lockSim.cloud.state.callbackUrl = `${url}${lockCallbackPath(config)}`;
      lockSim.cloud.changed();
    } else if (config.locks.provider === 'sim' && config.locks.sim.url && config.locks.publicUrl) {
      // An external simulator (the compose demo service) is told where this server is.
      const callbackUrl = `${config.locks.publicUrl.replace(/\/+$/, '')}${lockCallbackPath(config)}`;
      await fetch(`${config.locks.sim.url.replace(/\/+$/, '')}/sim/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callbackUrl }), signal: AbortSignal.timeout(5_000) }).then(
        (res) => (res.ok ? log.info('the lock simulator pushes its records to this server') : log.warn(`the lock simulator refused its callback URL (${res.status})`)),
        (error: unknown) => log.warn({ err: error }, 'could not give the lock simulator its callback URL'),
      );
    }
    log.info(`console ready on http://localhost:${port} in ${Date.now() - started} ms`);
    const readyDeps = deps;
    let closing: Promise<void> | undefined;
    return {
      app,
      deps: readyDeps,
      url,
      lockSimUrl: lockSim?.url ?? null,
      readerSim: readerSim ? { ...readerSim.urls, controlUrl: readerSim.controlUrl } : null,
      close() {
        closing ??= (async () => {
          const step = async (name: string, fn: () => Promise<unknown>) => {
            const t = Date.now();
            await fn();
            log.debug(`shutdown: ${name} in ${Date.now() - t} ms`);
          };
          await step('HTTP requests finished', () => app.close());
          await step('workers stopped', async () => workers?.close());
          await step('lock simulator stopped', async () => lockSim?.close());
          await step('reader simulator stopped', async () => readerSim?.close());
          await step('connections closed', () => closeDeps(readyDeps));
          await step('embedded PostgreSQL stopped', async () => embedded?.stop());
        })();
        return closing;
      },
    };
  } catch (error) {
    if (deps) await closeDeps(deps).catch(() => {});
    await lockSim?.close().catch(() => {});
    await readerSim?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}
