import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { Deps } from '../context';
import { EXPORT_CLEANUP_JOB, cleanupExports, runExport, type ExportJobData } from '../modules/export/export.service';
import { QUEUE_NAMES } from './queues';

export const EXPORT_CLEANUP_EVERY_MS = 10 * 60_000;

/** Writes the queued exports (modules/export), two at a time, and removes old files on schedule. */
export function startExportWorker(deps: Deps): Worker<ExportJobData | Record<string, never>> {
  const worker = new Worker<ExportJobData | Record<string, never>>(
    QUEUE_NAMES.export,
    async (job) => {
      if (job.name === EXPORT_CLEANUP_JOB) return { removed: await cleanupExports(deps) };
      return runExport(deps, job as Job<ExportJobData>);
    },
    { connection: deps.queues.connection() as ConnectionOptions, prefix: deps.queues.prefix, concurrency: 2 },
  );
  worker.on('failed', (job, error) => deps.log.warn({ jobId: job?.id, err: error }, 'export job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'export worker error'));
  return worker;
}

/** The periodic clean-up of export files older than an hour. */
export async function scheduleExportCleanup(deps: Deps): Promise<void> {
  await deps.queues.export.upsertJobScheduler('export-cleanup', { every: EXPORT_CLEANUP_EVERY_MS }, { name: EXPORT_CLEANUP_JOB, data: {} });
}
