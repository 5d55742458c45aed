import { Worker } from 'bullmq';
import type { Deps } from '../context';
import { QUEUE_NAMES, type SmsJobData } from './queues';
import { workerOptions } from './worker-options';

/** Sends queued SMS through the configured sender; a failure is retried with backoff (SMS_JOB_OPTIONS). */
export function startSmsWorker(deps: Deps): Worker<SmsJobData> {
  const worker = new Worker<SmsJobData>(
    QUEUE_NAMES.sms,
    async (job) => {
      const text = deps.i18n.t(job.data.lang, `sms.${job.data.template}`, job.data.params);
      await deps.sms.send({ to: job.data.to, text });
    },
    workerOptions(deps, 4),
  );
  worker.on('failed', (job, error) => {
    deps.log.warn({ jobId: job?.id, attempts: job?.attemptsMade, err: error }, 'SMS sending failed');
  });
  worker.on('error', (error) => deps.log.error({ err: error }, 'SMS worker error'));
  return worker;
}
