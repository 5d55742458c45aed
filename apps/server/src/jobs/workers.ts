import type { Deps } from '../context';
import { startSmsWorker } from './sms.job';
import { scheduleStaySweep, startStayWorker } from './stay.job';

/** Starts every worker; `close` lets running jobs finish, then stops. `sweep: false` (tests) leaves the stay sweep unscheduled. */
export function startWorkers(deps: Deps, options: { sweep?: boolean } = {}) {
  const workers = [startSmsWorker(deps), startStayWorker(deps)];
  const ready = options.sweep === false ? Promise.resolve() : scheduleStaySweep(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the stay sweep'));
  return {
    workers,
    ready,
    async close() {
      await ready;
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
