import { Worker, type ConnectionOptions } from 'bullmq';
import { jobContext, type Deps } from '../context';
import type { StayJobData } from '../modules/stay/stay-schedule';
import { arriveOnTime, expireOnTime, sweepStays } from '../modules/stay/transitions';
import { QUEUE_NAMES } from './queues';

export const STAY_SWEEP_EVERY_MS = 5 * 60_000;

/** The stay jobs only call the stay services (modules/stay/transitions.ts), as the job itself. */
export function startStayWorker(deps: Deps): Worker<StayJobData> {
  const worker = new Worker<StayJobData>(
    QUEUE_NAMES.stay,
    async (job) => {
      const ctx = jobContext(deps, `stay.${job.name}`, `job:${job.id}`);
      if (job.name === 'arrive') return arriveOnTime(ctx, job.data);
      if (job.name === 'expire') return expireOnTime(ctx, job.data);
      if (job.name === 'sweep') return sweepStays(ctx);
      throw new Error(`unknown stay job ${job.name}`);
    },
    { connection: deps.queues.connection() as ConnectionOptions, prefix: deps.queues.prefix, concurrency: 4 },
  );
  worker.on('failed', (job, error) => deps.log.warn({ jobId: job?.id, err: error }, 'stay job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'stay worker error'));
  return worker;
}

/** The periodic sweep, and one right away at start (a restart after downtime catches up at once). */
export async function scheduleStaySweep(deps: Deps): Promise<void> {
  await deps.queues.stay.upsertJobScheduler('stay-sweep', { every: STAY_SWEEP_EVERY_MS }, { name: 'sweep', data: { stayId: 0, version: 0 } });
  await deps.queues.stay.add('sweep', { stayId: 0, version: 0 }, { jobId: `stay-sweep-start-${Date.now()}` });
}
