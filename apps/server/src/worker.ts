/**
 * `pnpm worker`: runs the BullMQ workers alone (set WORKERS_IN_PROCESS=false on the servers).
 * Needs DATABASE_URL; stops cleanly on SIGTERM/SIGINT after the running jobs finish. Any number
 * of workers and servers may run against one PostgreSQL, one Redis and one file store
 * (decision 024): each job runs once, on one of them, and the schedules exist once.
 */
import os from 'node:os';
import { ConfigError, loadConfig } from './config';
import { closeDeps, createDeps } from './deps';
import { assertDesAvailable } from './infra/des';
import { createFileStore, probeFileStore } from './infra/file-store';
import { startWorkers } from './jobs/workers';
import { createLogger } from './server';

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
const log = createLogger(config);
if (!config.databaseUrl) {
  console.error('pnpm worker needs DATABASE_URL: a worker shares the database of the servers it works for.');
  process.exit(2);
}
try {
  assertDesAvailable();
  const files = await createFileStore(config);
  await probeFileStore(files);
  const deps = await createDeps(config, config.databaseUrl, log, { files, instance: `worker@${os.hostname()}:${process.pid}` });
  const workers = startWorkers(deps, { sweep: config.scheduleSweeps });
  if (config.locks.provider === 'sim' && !config.locks.sim.url) {
    // The simulator a server runs inside itself is not reachable from here.
    log.warn(
      'LOCK_PROVIDER=sim without LOCK_SIM_URL: this worker has no lock cloud, so credentials it takes up stay pending. Run one simulator for the install (`pnpm lock-sim`) and set LOCK_SIM_URL on every server and worker',
    );
  }
  log.info({ instance: deps.instance }, 'workers running');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await workers.close();
    await closeDeps(deps);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
} catch (error) {
  console.error(`\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
