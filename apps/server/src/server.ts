import os from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
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
import { createFileStore, probeFileStore } from './infra/file-store';
import { createLockCloud, lockCallbackPath, startEmbeddedLockSim } from './infra/locks';
import { claimEmbeddedLockSim, type EmbeddedLockSimClaim } from './infra/locks/embedded-claim';
import { startEmbeddedReaderSim, withReaderSim } from './infra/readers';
import { probeRedis } from './infra/redis';
import { addStartJob } from './jobs/queues';
import { startWorkers } from './jobs/workers';
import { pairDemoRoomsWithSimulatedLocks } from './modules/locks/demo-locks';

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

/** The advisory lock the demo seed is made under (any number, unused elsewhere). */
const SEED_LOCK = 72707370;

/** Runs `fn` holding a PostgreSQL advisory lock on one connection of `pool`, released after. */
async function withAdvisoryLock<T>(pool: Pool, key: number, fn: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    try {
      return await fn();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    client.release();
  }
}

/**
 * config -> database (embedded when DATABASE_URL is unset) -> migrations -> seed -> app -> listen.
 * Everything the process opens is closed by `close()`, in reverse order.
 */
export async function startServer(config: TConfig, log: FastifyBaseLogger = createLogger(config)): Promise<RunningServer> {
  assertDesAvailable();
  const started = Date.now();
  await probeRedis(config.redisUrl);
  // The file store every process of the install shares (decision 024): unusable, nothing starts.
  const files = await createFileStore(config);
  try {
    await probeFileStore(files);
  } catch (error) {
    await files.close();
    throw error;
  }
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dir: config.embeddedPg.dir, port: config.embeddedPg.port, log: (m) => log.info(m) });
    databaseUrl = embedded.url;
  }
  let deps: Deps | undefined;
  let lockSim: Awaited<ReturnType<typeof startEmbeddedLockSim>> = null;
  let lockSimClaim: EmbeddedLockSimClaim | undefined;
  let readerSim: Awaited<ReturnType<typeof startEmbeddedReaderSim>> = null;
  try {
    await applyMigrations(databaseUrl, { log: (m) => log.info(m) });
    // One simulator inside one process of the install at a time (decision 024).
    if (config.locks.provider === 'sim' && !config.locks.sim.url) lockSimClaim = await claimEmbeddedLockSim(config);
    lockSim = await startEmbeddedLockSim(config, log);
    readerSim = await startEmbeddedReaderSim(config, log);
    deps = await createDeps(withReaderSim(config, readerSim), databaseUrl, log, {
      locks: createLockCloud(config, lockSim?.url),
      files,
      instance: `server@${os.hostname()}:${process.pid}`,
    });
    if (config.locks.legacyTtlockAccount) {
      log.warn(
        'TTLOCK_USERNAME / TTLOCK_PASSWORD are no longer read: each hotel connects its own TTLock account in the console (Settings > Lock accounts, docs/ttlock-account.md)',
      );
    }
    const seedingDeps = deps;
    // One process at a time decides and seeds, and pairs the demo's simulated locks: servers
    // started together on an empty database make one demo hotel, never two, nor a start that fails
    // on the other's accounts, and one simulated lock per room.
    await withAdvisoryLock(deps.pool, SEED_LOCK, async () => {
      const shouldSeed = config.seedDemo === 'true' || (config.seedDemo === 'auto' && !config.isProduction && (await seedingDeps.prisma.hotel.count()) === 0);
      if (shouldSeed) {
        const seeded = await seedDemo(seedingDeps.prisma);
        if (seeded.created) log.info(`created the demo hotel (id ${seeded.hotelId})`);
      }
      const simUrl = lockSim?.url ?? (config.locks.provider === 'sim' ? config.locks.sim.url : undefined);
      if (simUrl) {
        const { paired } = await pairDemoRoomsWithSimulatedLocks(seedingDeps, simUrl);
        if (paired) log.info(`paired ${paired} rooms of the demo hotel with simulated locks`);
      }
    });
    if (deps.locks) {
      // The first status of every lock, by a job (a slow lock cloud does not delay the start): once
      // for the install however many servers start at once (decision 024).
      await addStartJob(deps.queues.locks, 'status', { task: 'status' as const }, 'locks-status-start', config.locks.everyMinutes.status * 60_000).catch(
        (error: unknown) => log.warn({ err: error }, 'could not queue the first read of the status of the locks'),
      );
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
      await fetch(`${config.locks.sim.url.replace(/\/+$/, '')}/sim/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ callbackUrl }),
        signal: AbortSignal.timeout(5_000),
      }).then(
        (res) =>
          res.ok ? log.info('the lock simulator pushes its records to this server') : log.warn(`the lock simulator refused its callback URL (${res.status})`),
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
          await step('lock simulator stopped', async () => {
            await lockSim?.close();
            await lockSimClaim?.release();
          });
          await step('reader simulator stopped', async () => readerSim?.close());
          await step('connections closed', () => closeDeps(readyDeps));
          await step('embedded PostgreSQL stopped', async () => embedded?.stop());
        })();
        return closing;
      },
    };
  } catch (error) {
    if (deps) await closeDeps(deps).catch(() => {});
    else await files.close();
    await lockSim?.close().catch(() => {});
    await lockSimClaim?.release();
    await readerSim?.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw error;
  }
}
