import type { Deps } from '../context';
import { scheduleDeliverySweep, startCredentialWorker } from './credential.job';
import { scheduleExportCleanup, startExportWorker } from './export.job';
import { scheduleLockJobs, startLocksWorker } from './locks.job';
import { startSmsWorker } from './sms.job';
import { scheduleStaySweep, startStayWorker } from './stay.job';

/** Starts every worker; `close` lets running jobs finish, then stops. `sweep: false` (tests) leaves the stay sweep unscheduled. */
export function startWorkers(deps: Deps, options: { sweep?: boolean } = {}) {
  const workers = [startSmsWorker(deps), startStayWorker(deps), startCredentialWorker(deps), startLocksWorker(deps), startExportWorker(deps)];
  const ready =
    options.sweep === false
      ? Promise.resolve()
      : Promise.all([
          scheduleStaySweep(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the stay sweep')),
          scheduleDeliverySweep(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the delivery sweep')),
          scheduleLockJobs(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the lock jobs')),
          scheduleExportCleanup(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the export clean-up')),
        ]).then(() => undefined);
  return {
    workers,
    ready,
    async close() {
      await ready;
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}
