/**
 * The body of an export's worker thread (export.job.ts, decision 018): connects to the database
 * and Redis with the server's own configuration, runs the export, reports its progress and its
 * end to the thread that started it, and closes everything. A thread of its own gives the
 * export a heap of its own, bounded: the rows it reads are collected as it goes instead of piling
 * up in the server's heap.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeDeps, createDeps } from '../deps';
import { disabledSmsSender } from '../infra/sms';
import { runExport } from '../modules/export/export.service';
import { createLogger } from '../infra/logger';
import type { ExportThreadInput, ExportThreadMessage } from './export-thread-protocol';

const input = workerData as ExportThreadInput;
const post = (message: ExportThreadMessage) => parentPort!.postMessage(message);

const log = createLogger(input.config);
const deps = await createDeps(input.config, input.databaseUrl, log, { poolSize: 2, locks: null, sms: disabledSmsSender });
try {
  const result = await runExport(deps, {
    id: input.job.id,
    data: input.job.data,
    updateProgress: async (progress) => post({ type: 'progress', progress }),
  });
  post({ type: 'done', result });
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
} finally {
  await closeDeps(deps);
}
