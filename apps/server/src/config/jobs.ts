import { z } from 'zod';
import { bool } from './variables';

/** Redis, and the BullMQ workers and periodic jobs on it. */
export const jobsEnv = z.object({
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key and BullMQ queue, so several installs can share one Redis. */
  REDIS_PREFIX: z.string().min(1).default('sl'),
  /** Run the BullMQ workers inside the server process (otherwise run `pnpm worker`). */
  WORKERS_IN_PROCESS: bool.default(true),
  /** Whether this process schedules the periodic jobs (stay expiry sweep, delivery sweep, lock status, records, reconcile). */
  SCHEDULE_SWEEPS: bool.default(true),
  /** How long a job's worker holds it unheard before another worker takes it up (a worker that died: BullMQ's lock and stalled check). */
  JOB_LOCK_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** How many rows an export of a whole list reads at a time (a keyset chunk: one query, held in memory). */
  EXPORT_CHUNK_ROWS: z.coerce.number().int().min(10).max(10_000).default(1_000),
});
