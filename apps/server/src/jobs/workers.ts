import type { Deps } from '../context';
import { startSmsWorker } from './sms.job';

/** Starts every worker; `close` lets running jobs finish, then stops. */
export function startWorkers(deps: Deps) {
  const workers = [startSmsWorker(deps)];
  return {
    workers,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
