import { WEBHOOK_LIMITS } from '@console/shared';
import type { JobsOptions } from 'bullmq';
import type { Deps } from '../../context';

/** A delivery's job: WEBHOOK_LIMITS.attempts attempts, the retries' delays by `webhookRetryDelay` (the worker's backoff strategy). */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = { attempts: WEBHOOK_LIMITS.attempts, backoff: { type: 'webhook' } };

/**
 * Queues the deliveries' jobs. Job id = the delivery: queued twice (the dispatcher and the sweep,
 * two dispatchers) it is one job. `again` ("send again", a test event): a job of its own, since the
 * delivery's first job may be kept finished. Never throws: the sweep queues what this could not.
 */
export async function queueDeliveries(deps: Pick<Deps, 'queues' | 'log'>, ids: bigint[], options: { again?: boolean } = {}): Promise<void> {
  if (ids.length === 0) return;
  try {
    await deps.queues.webhooks.addBulk(
      ids.map((id) => ({
        name: 'deliver',
        data: { deliveryId: String(id) },
        opts: { ...WEBHOOK_JOB_OPTIONS, jobId: options.again ? `wh-${id}-${Date.now()}` : `wh-${id}` },
      })),
    );
  } catch (error) {
    deps.log.warn({ err: error, deliveries: ids.length }, 'could not queue webhook deliveries now; the sweep will');
  }
}
