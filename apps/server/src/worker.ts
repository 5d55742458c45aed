/**
 * `pnpm worker`: runs the BullMQ workers alone (set WORKERS_IN_PROCESS=false on the servers).
 * Needs DATABASE_URL; stops cleanly on SIGTERM/SIGINT after the running jobs finish.
 */
import { loadConfig } from './config';
import { closeDeps, createDeps } from './deps';
import { assertDesAvailable } from './infra/des';
import { startWorkers } from './jobs/workers';
import { createLogger } from './server';

const config = loadConfig();
const log = createLogger(config);
if (!config.databaseUrl) {
  console.error('pnpm worker needs DATABASE_URL: a worker shares the database of the servers it works for.');
  process.exit(2);
}
try {
  assertDesAvailable();
  const deps = await createDeps(config, config.databaseUrl, log);
  const workers = startWorkers(deps, { sweep: config.scheduleSweeps });
  log.info('workers running');
  const stop = async () => {
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
