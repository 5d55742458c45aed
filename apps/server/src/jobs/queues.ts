import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import type { TLanguageHeader } from '@console/shared';
import type { DeliveryJobData } from '../modules/credentials/delivery';
import type { ExportJobData } from '../modules/export/export.service';
import type { StayJobData } from '../modules/stay/stay-schedule';
import { createRedis, type Redis } from '../infra/redis';

export const QUEUE_NAMES = { sms: 'sms', stay: 'stay', credential: 'credential', locks: 'locks', export: 'export' } as const;

/** The periodic lock work (jobs/locks.job.ts). */
export interface LocksJobData {
  task: 'status' | 'records' | 'reconcile';
}

export interface SmsJobData {
  to: string;
  /** An i18n key under `sms.` and its parameters; rendered in `lang` when sent. */
  template: 'resetCode' | 'staffWelcome';
  params: Record<string, string | number>;
  lang: TLanguageHeader;
}

export const SMS_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export const STAY_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 24 * 3600, count: 5_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export interface Queues {
  sms: Queue<SmsJobData>;
  stay: Queue<StayJobData>;
  /** Credential deliveries to locks (one job per credential version) and the delivery sweep. */
  credential: Queue<DeliveryJobData>;
  /** Lock status, record polling and reconciliation, on schedules. */
  locks: Queue<LocksJobData>;
  /** Data exports to .xlsx (modules/export) and their periodic clean-up. */
  export: Queue<ExportJobData | Record<string, never>>;
  prefix: string;
  connection(): Redis;
  close(): Promise<void>;
}

/** The producers. Each queue and worker has its own Redis connection, closed on shutdown. */
export function createQueues(redisUrl: string, redisPrefix: string): Queues {
  const prefix = `${redisPrefix}:bull`;
  const connections: Redis[] = [];
  const connection = () => {
    const c = createRedis(redisUrl);
    c.on('error', () => {});
    connections.push(c);
    return c;
  };
  const sms = new Queue<SmsJobData>(QUEUE_NAMES.sms, { connection: connection() as ConnectionOptions, prefix, defaultJobOptions: SMS_JOB_OPTIONS });
  const stay = new Queue<StayJobData>(QUEUE_NAMES.stay, { connection: connection() as ConnectionOptions, prefix, defaultJobOptions: STAY_JOB_OPTIONS });
  const credential = new Queue<DeliveryJobData>(QUEUE_NAMES.credential, { connection: connection() as ConnectionOptions, prefix });
  const locks = new Queue<LocksJobData>(QUEUE_NAMES.locks, { connection: connection() as ConnectionOptions, prefix, defaultJobOptions: { removeOnComplete: true, removeOnFail: { age: 24 * 3600 } } });
  const exportQueue = new Queue<ExportJobData | Record<string, never>>(QUEUE_NAMES.export, { connection: connection() as ConnectionOptions, prefix, defaultJobOptions: { removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } } });
  return {
    sms,
    stay,
    credential,
    locks,
    export: exportQueue,
    prefix,
    connection,
    async close() {
      await Promise.all([sms.close(), stay.close(), credential.close(), locks.close(), exportQueue.close()]);
      await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}

