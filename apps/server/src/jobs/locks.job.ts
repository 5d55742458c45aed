import { Worker } from 'bullmq';
import type { Deps } from '../context';
import { pruneCardDenylists } from '../modules/cards/denylist-prune';
import { reconcileAllLocks } from '../modules/credentials/reconcile';
import { refreshLockStatus } from '../modules/locks/lock-status';
import { pollLockRecords } from '../modules/locks/records';
import { QUEUE_NAMES, type LocksJobData } from './queues';
import { workerOptions } from './worker-options';

/**
 * The periodic lock work, one job at a time (TTLock limits calls per minute): the status of every
 * lock, its records for locks without callbacks, and reconciliation of what locks hold (with it,
 * the denylist entries of expired cards come off their locks).
 */
export function startLocksWorker(deps: Deps): Worker<LocksJobData> {
  const worker = new Worker<LocksJobData>(
    QUEUE_NAMES.locks,
    async (job) => {
      if (job.data.task === 'status') return refreshLockStatus(deps);
      if (job.data.task === 'records') return pollLockRecords(deps);
      const reconciled = await reconcileAllLocks(deps);
      const pruned = await pruneCardDenylists(deps);
      return { reconciled, pruned };
    },
    workerOptions(deps, 1),
  );
  worker.on('failed', (job, error) => deps.log.warn({ task: job?.data.task, err: error }, 'lock job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'locks worker error'));
  return worker;
}

/** Schedules the periodic lock jobs (an interval of 0 removes its schedule). */
export async function scheduleLockJobs(deps: Deps): Promise<void> {
  const every = deps.config.locks.everyMinutes;
  const tasks: [LocksJobData['task'], number][] = [
    ['status', deps.locks ? every.status : 0],
    ['records', deps.locks ? every.records : 0],
    ['reconcile', deps.locks ? every.reconcile : 0],
  ];
  for (const [task, minutes] of tasks) {
    if (minutes > 0) await deps.queues.locks.upsertJobScheduler(`locks-${task}`, { every: minutes * 60_000 }, { name: task, data: { task } });
    else await deps.queues.locks.removeJobScheduler(`locks-${task}`);
  }
}
