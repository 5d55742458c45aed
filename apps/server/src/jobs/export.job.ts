import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker as Thread, type ResourceLimits } from 'node:worker_threads';
import { Worker, type Job } from 'bullmq';
import type * as esbuild from 'esbuild';
import type { Deps } from '../context';
import { EXPORT_CLEANUP_JOB, cleanupExports, type ExportJob, type ExportResult } from '../modules/export/export.service';
import type { ExportThreadInput, ExportThreadMessage } from './export-thread-protocol';
import { QUEUE_NAMES } from './queues';
import type { ExportJobData } from './payloads';
import { workerOptions } from './worker-options';

export const EXPORT_CLEANUP_EVERY_MS = 10 * 60_000;

/**
 * Writes the queued exports (modules/export), two at a time, each on a thread of its own with a
 * bounded heap (`limits`: the server's are EXPORT_THREAD_LIMITS), and removes old files on schedule.
 */
export function startExportWorker(deps: Deps, limits: ResourceLimits = EXPORT_THREAD_LIMITS): Worker<ExportJobData | Record<string, never>> {
  const worker = new Worker<ExportJobData | Record<string, never>>(
    QUEUE_NAMES.export,
    async (job) => {
      if (job.name === EXPORT_CLEANUP_JOB) return { removed: await cleanupExports(deps) };
      return runExportInThread(deps, job as Job<ExportJobData> & { id: string }, limits);
    },
    workerOptions(deps, 2),
  );
  worker.on('failed', (job, error) => deps.log.warn({ jobId: job?.id, err: error }, 'export job failed'));
  worker.on('error', (error) => deps.log.error({ err: error }, 'export worker error'));
  return worker;
}

/** The periodic clean-up of export files older than an hour. */
export async function scheduleExportCleanup(deps: Deps): Promise<void> {
  await deps.queues.export.upsertJobScheduler('export-cleanup', { every: EXPORT_CLEANUP_EVERY_MS }, { name: EXPORT_CLEANUP_JOB, data: {} });
}

/**
 * The heap of an export's thread (decision 018): the rows it reads are garbage as soon as they are
 * written, and V8 collects them when the heap nears its ceiling; with the server's ceiling (V8's
 * default, about 2 GB here) an export of 200,000 stays grew the process by 265 MB, with this one
 * it does not (bench/README.md §14). 96 MB is far more than an export keeps alive at once.
 */
export const EXPORT_THREAD_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/**
 * The thread's code: the bundle's `dist/jobs/export-thread.js`; from the source (tests, `pnpm
 * dev`), `export-thread.ts` bundled by esbuild as `build.mjs` bundles it (bundle-options.cjs) into
 * apps/server/node_modules/.cache, named by its content (a worker thread does not take Node's
 * `--import` loaders on Node 20). Bundled at each start (about 0.15 s), so that a watching test run
 * or `pnpm dev` never starts an older code: a thread that loaded the source through tsx took 2.3 s
 * of CPU to start, the bundle 1.0 s, and an export test's time was mostly that.
 */
export function threadEntry(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./jobs/export-thread.js', here);
  return bundleFromSource(here);
}

function bundleFromSource(here: string): URL {
  const require = createRequire(here);
  const serverDir = fileURLToPath(new URL('../../', here));
  const { buildSync } = require('esbuild') as typeof esbuild;
  const { bundleOptions } = require(path.join(serverDir, 'bundle-options.cjs')) as { bundleOptions: () => esbuild.BuildOptions };
  const built = buildSync({ ...bundleOptions(), entryPoints: [fileURLToPath(new URL('./export-thread.ts', here))], write: false, logLevel: 'silent' });
  const code = built.outputFiles[0]!.contents;
  // Named by its content: processes that bundle the same source at once write the same file.
  const file = path.join(serverDir, 'node_modules', '.cache', 'export-thread', `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, file);
  }
  return pathToFileURL(file);
}

/**
 * Runs an export on a worker thread of its own, with a bounded heap, and follows it: its progress
 * goes to the job as it comes, its end settles the job (a refusal's message key is the job's
 * reason, as in the thread). A thread that dies (out of memory, a crash) fails the job; the
 * server goes on. `entry` is the thread's code (the benchmark names the bundle's from the source).
 */
export function runExportInThread(
  deps: Deps,
  job: ExportJob & { id: string },
  limits: ResourceLimits = EXPORT_THREAD_LIMITS,
  entry: URL = threadEntry(),
): Promise<ExportResult> {
  const workerData: ExportThreadInput = { config: deps.config, databaseUrl: deps.databaseUrl, job: { id: job.id, data: job.data } };
  return new Promise<ExportResult>((resolve, reject) => {
    const thread = new Thread(entry, { workerData, resourceLimits: limits });
    let progress = Promise.resolve();
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      // The last progress reaches the job before the job ends.
      void progress.then(outcome, outcome);
    };
    thread.on('message', (message: ExportThreadMessage) => {
      if (message.type === 'progress') progress = progress.then(() => job.updateProgress(message.progress)).catch(() => undefined);
      else if (message.type === 'done') settle(() => resolve(message.result));
      else settle(() => reject(new Error(message.message)));
    });
    thread.on('error', (error) => settle(() => reject(error)));
    thread.on('exit', (code) => settle(() => reject(new Error(`the export's thread stopped (exit code ${code})`))));
  });
}
