import { Worker } from 'bullmq';
import type { Deps } from '../context';
import { eventChannel } from '../db/events';
import { dispatchWebhooks, sweepWebhookDeliveries, type WebhookScope } from '../modules/webhooks/dispatch';
import { deliverWebhook, webhookBackoff, WebhookRetry } from '../modules/webhooks/send';
import { QUEUE_NAMES, type WebhookJobData } from './queues';
import { workerOptions } from './worker-options';

/** How often the dispatcher reads the outbox when no event was announced (a Redis message lost). */
export const WEBHOOK_DISPATCH_EVERY_MS = 5_000;
/** How often the sweep queues deliveries whose job was lost. */
export const WEBHOOK_SWEEP_EVERY_MS = 60_000;

/**
 * Webhooks (modules/webhooks, docs/webhooks.md). The dispatcher of each worker process reads the
 * committed events of the outbox into deliveries as soon as a commit is announced on the events
 * channel (and every 5 s, for a message lost), one dispatcher at a time in the install; each
 * delivery is a job of the `webhooks` queue, retried with the webhooks' backoff over three days.
 */
export function startWebhooksWorker(deps: Deps, options: { dispatch: boolean; scope?: WebhookScope }) {
  const scope = options.scope ?? {};
  const worker = new Worker<WebhookJobData>(
    QUEUE_NAMES.webhooks,
    async (job, token) => {
      if (job.name === 'sweep') return sweepWebhookDeliveries(deps, scope);
      if (job.name === 'deliver') return deliverWebhook(deps, job, token);
      throw new Error(`unknown webhooks job ${job.name}`);
    },
    workerOptions(deps, 16, { settings: { backoffStrategy: (attemptsMade: number) => webhookBackoff(deps, attemptsMade) } }),
  );
  worker.on('failed', (job, error) => {
    if (!(error instanceof WebhookRetry)) deps.log.warn({ jobId: job?.id, err: error }, 'webhook job failed');
  });
  worker.on('error', (error) => deps.log.error({ err: error }, 'webhooks worker error'));

  // The dispatcher: one pass at a time in this process, another right after when a commit came meanwhile.
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const dispatch = () => {
    if (closed || !options.dispatch) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await dispatchWebhooks(deps, scope);
        } catch (error) {
          deps.log.warn({ err: error }, 'webhook dispatch failed; the next one catches up');
        }
      } while (again && !closed);
      running = null;
    })();
  };
  const subscriber = deps.redis.duplicate();
  subscriber.on('error', (error) => deps.log.warn({ err: error }, 'webhooks: Redis connection error'));
  subscriber.on('message', dispatch);
  subscriber.subscribe(eventChannel(deps)).then(dispatch, (error: unknown) => deps.log.warn({ err: error }, 'webhooks: could not subscribe'));
  const timer = setInterval(dispatch, WEBHOOK_DISPATCH_EVERY_MS);
  timer.unref();

  return {
    worker,
    async close() {
      closed = true;
      clearInterval(timer);
      subscriber.disconnect();
      await running;
      await worker.close();
    },
  };
}

export async function scheduleWebhookSweep(deps: Deps): Promise<void> {
  await deps.queues.webhooks.upsertJobScheduler('webhooks-sweep', { every: WEBHOOK_SWEEP_EVERY_MS }, { name: 'sweep', data: { deliveryId: '0' } });
}
