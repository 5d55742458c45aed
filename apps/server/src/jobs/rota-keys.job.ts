import { Worker } from 'bullmq';
import { jobContext, type Deps } from '../context';
import { sweepAttendantAccess, syncAttendantAccess } from '../modules/housekeeping/attendant-access';
import type { RotaKeysJobData, SweepScope } from './payloads';
import { addStartJob, QUEUE_NAMES } from './queues';
import { workerOptions } from './worker-options';

/** The rota's sweep catches up what a lost job or a failed sync after a commit left (docs/housekeeping-keys.md). */
export const ROTA_SWEEP_EVERY_MS = 5 * 60_000;

/**
 * Attendants' keys (modules/housekeeping/attendant-access.ts): `sync` runs at a shift's end (queued,
 * delayed, by every sync of a shift still to end) and withdraws its keys; `sweep` catches up.
 */
export function startRotaKeysWorker(deps: Deps): Worker<RotaKeysJobData> {
  const worker = new Worker<RotaKeysJobData>(
    QUEUE_NAMES.rotaKeys,
    async (job) => {
      const ctx = jobContext(deps, 'housekeeping.keys', `job:${job.id}`);
      const data = job.data;
      if ('sweep' in data) return { synced: await sweepAttendantAccess(ctx, new Date(), data.hotelId === undefined ? {} : { hotelId: data.hotelId }) };
      return syncAttendantAccess(ctx, data.hotelId, data.membershipId, data.day);
    },
    workerOptions(deps, 2),
  );
  worker.on('failed', (job, error) => deps.log.warn({ jobId: job?.id, err: error }, 'rota keys job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'rota keys worker error'));
  return worker;
}

/** The rota's sweep, every 5 minutes and once at start for the whole install (decision 024). */
export async function scheduleRotaSweep(deps: Deps, scope: SweepScope = {}): Promise<void> {
  const data = { sweep: true as const, ...scope };
  await deps.queues.rotaKeys.upsertJobScheduler('rota-sweep', { every: ROTA_SWEEP_EVERY_MS }, { name: 'sweep', data });
  await addStartJob(deps.queues.rotaKeys, 'sweep', data, 'rota-sweep-start', ROTA_SWEEP_EVERY_MS);
}
