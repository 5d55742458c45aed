import type { ConnectionOptions, WorkerOptions } from 'bullmq';
import type { Deps } from '../context';

/**
 * The options of every worker of the install: a Redis connection of its own, the install's prefix,
 * its instance name, and how long it holds a job unheard before another worker takes the job up
 * (JOB_LOCK_MS: BullMQ's lock, renewed while the job runs, and its stalled check; a worker killed
 * in the middle of a job leaves it to the others after that long).
 */
export function workerOptions(deps: Deps, concurrency: number, more: Omit<WorkerOptions, 'connection'> = {}): WorkerOptions {
  return {
    connection: deps.queues.connection() as ConnectionOptions,
    prefix: deps.queues.prefix,
    concurrency,
    name: deps.instance,
    lockDuration: deps.config.jobLockMs,
    stalledInterval: deps.config.jobLockMs,
    ...more,
  };
}
