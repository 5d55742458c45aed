import type { TConfig } from '../config';
import type { ExportProgress, ExportResult } from '../modules/export/export.service';
import type { ExportJobData } from './payloads';

/** What an export's thread is started with (structured-cloned: plain data only). */
export interface ExportThreadInput {
  config: TConfig;
  databaseUrl: string;
  job: { id: string; data: ExportJobData };
}

/** What the thread tells the one that started it, in order: progress, then done or failed. */
export type ExportThreadMessage = { type: 'progress'; progress: ExportProgress } | { type: 'done'; result: ExportResult } | { type: 'failed'; message: string };
