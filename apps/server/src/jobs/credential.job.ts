import { Worker } from 'bullmq';
import type { Deps } from '../context';
import { deliver, DeliveryRetry, sweepDeliveries } from '../modules/credentials/delivery';
import { addStartJob, QUEUE_NAMES } from './queues';
import type { DeliveryJobData, SweepScope } from './payloads';
import { workerOptions } from './worker-options';

export const DELIVERY_SWEEP_EVERY_MS = 60_000;

/**
 * Carries credentials to locks. Many locks at once; one write per lock at a time (a Redis mutex
 * per lock inside `deliver`). The sweep job re-queues, from the database, any work whose job was
 * lost (a Redis restart, a stop between a commit and its queueing).
 */
export function startCredentialWorker(deps: Deps): Worker<DeliveryJobData> {
  const worker = new Worker<DeliveryJobData>(
    QUEUE_NAMES.credential,
    async (job, token) => {
      if (job.name === 'sweep') return sweepDeliveries(deps, job.data.hotelId === undefined ? {} : { hotelId: job.data.hotelId });
      // A confirmation on the lock tells the guest inside `deliver` (afterOnLock: issue 20 §3, once per code).
      return deliver(deps, job, token);
    },
    workerOptions(deps, 8),
  );
  worker.on('failed', (job, error) => {
    if (error instanceof DeliveryRetry) deps.log.info({ jobId: job?.id, reason: error.code }, 'credential delivery will be retried');
    else deps.log.warn({ jobId: job?.id, err: error }, 'credential job failed');
  });
  worker.on('error', (error) => deps.log.error({ err: error }, 'credential worker error'));
  return worker;
}

export async function scheduleDeliverySweep(deps: Deps, scope: SweepScope = {}): Promise<void> {
  if (!deps.locks) return;
  const data = { kind: 'password' as const, id: 0, version: 0, ...scope };
  await deps.queues.credential.upsertJobScheduler('delivery-sweep', { every: DELIVERY_SWEEP_EVERY_MS }, { name: 'sweep', data });
  await addStartJob(deps.queues.credential, 'sweep', data, 'delivery-sweep-start', DELIVERY_SWEEP_EVERY_MS, { removeOnComplete: true, removeOnFail: true });
}
