import type { Deps } from '../context';
import type { SweepScope } from './payloads';
import { scheduleDeliverySweep, startCredentialWorker } from './credential.job';
import { scheduleExportCleanup, startExportWorker } from './export.job';
import { scheduleFeedScan, startFeedsWorker } from './feeds.job';
import { scheduleLockJobs, startLocksWorker } from './locks.job';
import { startGuestMessageWorker } from '../modules/messages/message.job';
import { scheduleRotaSweep, startRotaKeysWorker } from './rota-keys.job';
import { startSmsWorker } from './sms.job';
import { scheduleWebhookSweep, startWebhooksWorker } from './webhooks.job';
import { scheduleStaySweep, startStayWorker } from './stay.job';

/**
 * Starts every worker; `close` lets running jobs finish, then stops. `sweep: false` (tests) leaves
 * the sweeps and periodic jobs unscheduled; `sweepScope` (tests) has the stay and delivery sweeps
 * look at one hotel only: the test files share one database, and a sweep of every hotel would
 * take another file's stays and credentials (its delivery with this file's lock simulator).
 * `webhooks` (tests): the webhooks' dispatcher runs, limited to that hotel, even without the sweeps.
 */
export function startWorkers(deps: Deps, options: { sweep?: boolean; sweepScope?: SweepScope; webhooks?: SweepScope } = {}) {
  const workers = [
    startSmsWorker(deps),
    startStayWorker(deps),
    startCredentialWorker(deps),
    startLocksWorker(deps),
    startExportWorker(deps),
    startGuestMessageWorker(deps),
    startFeedsWorker(deps),
    // The webhooks' dispatcher runs where the sweeps do, or (tests) limited to one hotel.
    startWebhooksWorker(deps, { dispatch: options.sweep !== false || options.webhooks !== undefined, scope: options.webhooks ?? options.sweepScope }),
    startRotaKeysWorker(deps),
  ];
  const ready =
    options.sweep === false
      ? Promise.resolve()
      : Promise.all([
          scheduleStaySweep(deps, options.sweepScope).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the stay sweep')),
          scheduleDeliverySweep(deps, options.sweepScope).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the delivery sweep')),
          scheduleLockJobs(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the lock jobs')),
          scheduleExportCleanup(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the export clean-up')),
          scheduleFeedScan(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the calendar feed scan')),
          scheduleWebhookSweep(deps).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the webhook sweep')),
          scheduleRotaSweep(deps, options.sweepScope).catch((error: unknown) => deps.log.error({ err: error }, 'could not schedule the rota sweep')),
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
