import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import type { TLanguageHeader } from '@console/shared';
import { createRedis, type Redis } from '../infra/redis';
import type { DeliveryJobData, ExportJobData, FeedJobData, GuestMessageJobData, RotaKeysJobData, StayJobData } from './payloads';

export const QUEUE_NAMES = {
  sms: 'sms',
  stay: 'stay',
  credential: 'credential',
  locks: 'locks',
  export: 'export',
  guestMessage: 'guest-message',
  feeds: 'feeds',
  webhooks: 'webhooks',
  rotaKeys: 'rota-keys',
} as const;

/** One delivery of an event to a webhook endpoint (modules/webhooks, docs/webhooks.md). */
export interface WebhookJobData {
  deliveryId: string;
}

/** The periodic lock work (jobs/locks.job.ts). */
export interface LocksJobData {
  task: 'status' | 'records' | 'reconcile';
}

export interface SmsJobData {
  to: string;
  /**
   * An i18n key under `sms.` and its parameters; rendered in `lang` when sent. The first password
   * of a new member says the role it was added with: `staffWelcome` (an administrator),
   * `staffWelcomeOwner`, `staffWelcomeStaff`.
   */
  template: 'resetCode' | 'staffWelcome' | 'staffWelcomeOwner' | 'staffWelcomeStaff';
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
  /** Guest messages (SMS and e-mail) once the lock confirmed a code (modules/messages). */
  guestMessage: Queue<GuestMessageJobData>;
  /** Channel calendar feeds: the scan (every minute) and each feed's read, retried with backoff. */
  feeds: Queue<FeedJobData>;
  /** Webhook deliveries: one job per delivery, retried with backoff over three days. */
  webhooks: Queue<WebhookJobData>;
  /** Housekeeping attendants' keys (modules/housekeeping/attendant-access.ts): each shift's end, and the rota's sweep. */
  rotaKeys: Queue<RotaKeysJobData>;
  prefix: string;
  connection(): Redis;
  close(): Promise<void>;
}

/**
 * Queues the job a process runs "at start" (a sweep catching up after downtime, a first read of
 * the locks) once for the whole install: however many servers and workers start within
 * `intervalMs` (the work's own period), only the first start queues it (BullMQ deduplication,
 * kept in Redis for that long). Answers whether this start queued it.
 */
export async function addStartJob<T>(queue: Queue<T>, name: string, data: T, id: string, intervalMs: number, options: JobsOptions = {}): Promise<boolean> {
  // A job id of its own per start, so that a finished one (kept or removed) never hides the next.
  const jobId = `${id}-${Date.now()}-${process.pid}`;
  // Deduplicated, BullMQ answers the job that was queued first (its id), and queues nothing.
  const job = await (queue as Queue).add(name, data, { ...options, jobId, deduplication: { id, ttl: intervalMs } });
  return job.id === jobId;
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
  const locks = new Queue<LocksJobData>(QUEUE_NAMES.locks, {
    connection: connection() as ConnectionOptions,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: { age: 24 * 3600 } },
  });
  const exportQueue = new Queue<ExportJobData | Record<string, never>>(QUEUE_NAMES.export, {
    connection: connection() as ConnectionOptions,
    prefix,
    defaultJobOptions: { removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } },
  });
  const guestMessage = new Queue<GuestMessageJobData>(QUEUE_NAMES.guestMessage, { connection: connection() as ConnectionOptions, prefix });
  const feeds = new Queue<FeedJobData>(QUEUE_NAMES.feeds, {
    connection: connection() as ConnectionOptions,
    prefix,
    defaultJobOptions: { removeOnComplete: { age: 3600, count: 1_000 }, removeOnFail: { age: 24 * 3600 } },
  });
  const webhooks = new Queue<WebhookJobData>(QUEUE_NAMES.webhooks, {
    connection: connection() as ConnectionOptions,
    prefix,
    defaultJobOptions: { removeOnComplete: { age: 3600, count: 1_000 }, removeOnFail: { age: 24 * 3600 } },
  });
  const rotaKeys = new Queue<RotaKeysJobData>(QUEUE_NAMES.rotaKeys, {
    connection: connection() as ConnectionOptions,
    prefix,
    defaultJobOptions: { attempts: 5, backoff: { type: 'exponential', delay: 2_000 }, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } },
  });
  return {
    sms,
    stay,
    credential,
    locks,
    export: exportQueue,
    guestMessage,
    feeds,
    webhooks,
    rotaKeys,
    prefix,
    connection,
    async close() {
      await Promise.all([
        sms.close(),
        stay.close(),
        credential.close(),
        locks.close(),
        exportQueue.close(),
        guestMessage.close(),
        feeds.close(),
        webhooks.close(),
        rotaKeys.close(),
      ]);
      await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
