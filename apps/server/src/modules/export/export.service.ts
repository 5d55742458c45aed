import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import { LIMITS, localDate, type TLanguageHeader } from '@console/shared';
import {
  EXPORT_LIMITS,
  ZExportIdInput,
  ZExportStartInput,
  sanitizeExportFileName,
  type TExportFormat,
  type TExportList,
  type TExportScope,
  type TExportStartInput,
  type TExportState,
} from '@console/shared/export';
import type { z } from 'zod';
import type { Actor, AuthedContext, Deps } from '../../context';
import type { ExportJobData } from '../../jobs/payloads';
import type { KeysetCursor } from '../../db/keyset';
import { AppError, toAppError } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { resolveSessionById } from '../auth/session.service';
import { EXPORT_REGISTRY, type CellScope } from './lists';
import { FILE_TYPES, openExportFile } from './writers';

/**
 * Data export (issue 9 §5): `startExport` checks the request by reading the list's first row as
 * the operator, then queues a job on the `export` queue; the job (`runExport`) reads the list page
 * by page through the same service, as the same session, and streams the rows into an .xlsx file
 * (or a .csv: writers.ts) stored as `exports/<hotel>/<id>.<format>` in the install's file store (decision 024: a directory
 * every process shares, or an object store), private (the public `/uploads/` route serves room
 * pictures only). Whichever worker wrote it, the file is downloaded from any server through
 * `GET /api/exports/<id>` (http/exports.ts) by the operator who made it, in the same hotel, for an
 * hour; then `cleanupExports` removes it.
 */

export interface ExportProgress {
  done: number;
  total: number;
}

export interface ExportResult {
  rows: number;
  /** What the list counted besides its rows (`ExportListDefinition.tally`), by name. */
  tallies?: Record<string, number>;
}

export interface ExportView {
  id: string;
  list: TExportList;
  scope: TExportScope;
  format: TExportFormat;
  fileName: string;
  state: TExportState;
  done: number;
  total: number;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
  /** Where the file is downloaded, while it can be. */
  downloadUrl: string | null;
  /** A translated reason when the export failed. */
  error: string | null;
  /** What the finished file counted besides its rows, by name (empty until it is done). */
  tallies: Record<string, number>;
}

const EXPORT_JOB = 'export';
export const EXPORT_CLEANUP_JOB = 'cleanup';
/** How many rows the job reads at a time when it exports everything (the lists' largest page). */
const CHUNK = LIMITS.pageSizeMax;

/** The folder of the exports in the file store. */
export const EXPORTS_FOLDER = 'exports/';
/** The key of an export's file in the file store. */
export const exportKey = (hotelId: number, id: string, format: TExportFormat = 'xlsx') => `${EXPORTS_FOLDER}${hotelId}/${id}.${format}`;
/** The format of a job's file (jobs queued before there was a choice wrote .xlsx). */
const formatOf = (data: ExportJobData): TExportFormat => data.format ?? 'xlsx';
const recentKey = (deps: Deps, actor: { hotelId: number; accountId: number }) => deps.key('exports', actor.hotelId, actor.accountId);

/** The list's filters without paging (the export decides the pages). */
function filtersOf(raw: Record<string, unknown>): Record<string, unknown> {
  const { page: _page, pageSize: _pageSize, ...filters } = raw;
  return filters;
}

/** A refusal of the list's own validation, its fields named as fields of `filters`. */
function filterError(error: unknown): AppError {
  const app = toAppError(error);
  const fields = app.options.fields;
  if (app.code !== 'VALIDATION' || !fields) return app;
  return new AppError('VALIDATION', { ...app.options, fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [`filters.${k}`, v])), cause: error });
}

/** `export.start`: queues an export of a list the operator may read, and answers its status. */
export async function startExport(ctx: AuthedContext, raw: TExportStartInput): Promise<ExportView> {
  const { deps, actor, meta } = ctx;
  const input = ZExportStartInput.parse(raw);
  const entry = EXPORT_REGISTRY[input.list];
  const filters = filtersOf(input.filters);
  // The list's own checks, now: its permission, its filters, a room or stay out of the actor's scope.
  await entry.read(ctx, filters, 1, 1).catch((error: unknown) => {
    throw filterError(error);
  });
  const now = new Date();
  const fileName =
    sanitizeExportFileName(input.fileName ?? '') ||
    sanitizeExportFileName(`${deps.i18n.t(meta.lang, entry.title)} ${localDate(now, actor.timeZone)}`) ||
    'export';
  const id = `exp-${randomUUID()}`;
  const data: ExportJobData = {
    hotelId: actor.hotelId,
    accountId: actor.accountId,
    sessionId: actor.sessionId,
    list: input.list,
    filters,
    scope: input.scope,
    format: input.format,
    page: input.page,
    pageSize: input.pageSize,
    fileName,
    lang: meta.lang,
    createdAt: now.toISOString(),
  };
  const keepSeconds = Math.ceil(EXPORT_LIMITS.keepMs / 1000);
  const job = await deps.queues.export.add(EXPORT_JOB, data, {
    jobId: id,
    attempts: 1,
    removeOnComplete: { age: keepSeconds },
    removeOnFail: { age: keepSeconds },
  });
  const key = recentKey(deps, actor);
  await deps.redis
    .multi()
    .lpush(key, id)
    .ltrim(key, 0, EXPORT_LIMITS.recentMax - 1)
    .pexpire(key, EXPORT_LIMITS.keepMs * 24)
    .exec();
  await recordAudit(deps.prisma, ctx, {
    action: 'export.start',
    entityType: 'Export',
    entityId: id,
    after: { list: input.list, scope: input.scope, format: input.format, page: input.page, pageSize: input.pageSize, fileName, filters: filters as never },
  });
  return view(deps, job as Job<ExportJobData>, meta.lang);
}

async function findExport(deps: Deps, actor: Pick<Actor, 'hotelId' | 'accountId'>, id: string): Promise<Job<ExportJobData> | undefined> {
  const job = (await deps.queues.export.getJob(id)) as Job<ExportJobData> | undefined;
  // Another hotel's export, or another operator's, is not found: never "forbidden".
  if (!job || job.name !== EXPORT_JOB || job.data.hotelId !== actor.hotelId || job.data.accountId !== actor.accountId) return undefined;
  return job;
}

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'export.errors.notFound' });

async function view(deps: Deps, fetched: Job<ExportJobData>, lang: TLanguageHeader): Promise<ExportView> {
  const state = await fetched.getState();
  // A job read before it ended (the one `add` answered) has neither its end time nor its result yet.
  const job =
    (state === 'completed' || state === 'failed') && !fetched.finishedOn
      ? (((await deps.queues.export.getJob(fetched.id!)) as Job<ExportJobData> | undefined) ?? fetched)
      : fetched;
  const progress = (typeof job.progress === 'object' ? job.progress : {}) as Partial<ExportProgress>;
  const result = job.returnvalue as ExportResult | null | undefined;
  const finishedAt = job.finishedOn ? new Date(job.finishedOn) : null;
  const expiresAt = finishedAt ? new Date(finishedAt.getTime() + EXPORT_LIMITS.keepMs) : null;
  let exportState: TExportState = state === 'completed' ? 'done' : state === 'failed' ? 'failed' : state === 'active' ? 'running' : 'waiting';
  const format = formatOf(job.data);
  if (exportState === 'done' && (!expiresAt || expiresAt.getTime() <= Date.now() || !(await deps.files.exists(exportKey(job.data.hotelId, job.id!, format)))))
    exportState = 'expired';
  const done = exportState === 'done' ? (result?.rows ?? 0) : (progress.done ?? 0);
  return {
    id: job.id!,
    list: job.data.list,
    scope: job.data.scope,
    format,
    fileName: `${job.data.fileName}.${format}`,
    state: exportState,
    done,
    total: exportState === 'done' ? done : Math.max(progress.total ?? 0, done),
    createdAt: job.data.createdAt,
    finishedAt: finishedAt?.toISOString() ?? null,
    expiresAt: expiresAt?.toISOString() ?? null,
    downloadUrl: exportState === 'done' ? `/api/exports/${job.id}` : null,
    error: exportState === 'failed' ? failureText(deps, job.failedReason, lang) : null,
    tallies: exportState === 'done' ? (result?.tallies ?? {}) : {},
  };
}

/** A failure the operator can read: an AppError's message key is kept as the reason, others are "failed". */
function failureText(deps: Deps, reason: string | undefined, lang: TLanguageHeader): string {
  return reason && /^[a-zA-Z]+(\.[a-zA-Z]+)+$/.test(reason) && deps.i18n.has(reason) ? deps.i18n.t(lang, reason) : deps.i18n.t(lang, 'export.errors.failed');
}

/** `export.status`: one of the operator's exports in this hotel. */
export async function exportStatus(ctx: AuthedContext, raw: z.input<typeof ZExportIdInput>): Promise<ExportView> {
  const { id } = ZExportIdInput.parse(raw);
  const job = await findExport(ctx.deps, ctx.actor, id);
  if (!job) throw notFound();
  return view(ctx.deps, job, ctx.meta.lang);
}

/** `export.list`: the operator's recent exports in this hotel, newest first. */
export async function listExports(ctx: AuthedContext): Promise<ExportView[]> {
  const ids = await ctx.deps.redis.lrange(recentKey(ctx.deps, ctx.actor), 0, EXPORT_LIMITS.recentMax - 1);
  const jobs = await Promise.all(ids.map((id) => findExport(ctx.deps, ctx.actor, id)));
  return Promise.all(jobs.filter((j): j is Job<ExportJobData> => j !== undefined).map((j) => view(ctx.deps, j, ctx.meta.lang)));
}

/** The file of a finished export for the download route (its key in the file store), or undefined (not found, not the operator's, expired). */
export async function exportDownload(deps: Deps, actor: Actor, id: string): Promise<{ key: string; fileName: string; type: string } | undefined> {
  if (!ZExportIdInput.safeParse({ id }).success) return undefined;
  const job = await findExport(deps, actor, id);
  if (!job) return undefined;
  const v = await view(deps, job, 'en');
  if (v.state !== 'done') return undefined;
  return { key: exportKey(job.data.hotelId, id, v.format), fileName: v.fileName, type: FILE_TYPES[v.format] };
}

/** What `runExport` needs of its BullMQ job (the export's thread passes its own). */
export type ExportJob = { id?: string; data: ExportJobData; updateProgress(progress: ExportProgress): Promise<void> };

/**
 * The job: reads the list page by page as the session that asked (its hotel, permissions and
 * rooms as they are now: a member removed or frozen meanwhile gets nothing), writes each page's
 * rows to the streaming workbook, and reports the rows done out of the total as it goes. The
 * export worker runs it on a thread of its own (jobs/export.job.ts, decision 018).
 */
export async function runExport(deps: Deps, job: ExportJob): Promise<ExportResult> {
  const data = job.data;
  const actor = await resolveSessionById(deps, data.sessionId, 'web');
  if (actor.hotelId !== data.hotelId || actor.accountId !== data.accountId) throw new AppError('UNAUTHENTICATED');
  const ctx: AuthedContext = { deps, actor, meta: { ip: 'job', requestId: `job:${job.id}`, lang: data.lang, job: 'export', channel: 'job' } };
  const entry = EXPORT_REGISTRY[data.list];
  const t = (key: string, params?: Record<string, unknown>) => deps.i18n.t(data.lang, key, params);
  const scope: CellScope = {
    t,
    code: (prefix, code) => (code === null || code === undefined || code === '' ? null : deps.i18n.has(`${prefix}.${code}`) ? t(`${prefix}.${code}`) : code),
  };

  // Written to a local file first, then stored whole: nobody downloads half a file.
  const format = formatOf(data);
  const staged = await deps.files.stage(exportKey(data.hotelId, job.id!, format));
  const file = openExportFile({ format, path: staged.path, title: t(entry.title), columns: entry.columns, scope, actor, rightToLeft: data.lang === 'ar' });
  const tallies: Record<string, number> = {};
  const writeRow = (row: unknown) => {
    file.write(row);
    const tally = entry.tally?.(row);
    if (tally) tallies[tally] = (tallies[tally] ?? 0) + 1;
  };

  let done = 0;
  try {
    if (data.scope === 'page') {
      const page = await entry.read(ctx, data.filters, data.page, data.pageSize);
      await job.updateProgress({ done: 0, total: page.items.length } satisfies ExportProgress);
      for (const row of page.items) writeRow(row);
      done = page.items.length;
      await job.updateProgress({ done, total: done } satisfies ExportProgress);
    } else if (entry.keyset) {
      // Keyset: each chunk starts after the last one's row, by the index (never an OFFSET).
      const source = entry.keyset;
      // A chunk's rows are written before the next is read (EXPORT_CHUNK_ROWS).
      const chunk = deps.config.exportChunkRows;
      let total = Math.min(await source.count(ctx, data.filters, EXPORT_LIMITS.rowsMax), EXPORT_LIMITS.rowsMax);
      await job.updateProgress({ done, total } satisfies ExportProgress);
      let after: KeysetCursor | null = null;
      while (done < EXPORT_LIMITS.rowsMax) {
        const items = await source.after(ctx, data.filters, after, chunk);
        for (const row of items.slice(0, EXPORT_LIMITS.rowsMax - done)) writeRow(row);
        done = Math.min(done + items.length, EXPORT_LIMITS.rowsMax);
        total = Math.max(total, done);
        await file.drained();
        await job.updateProgress({ done, total } satisfies ExportProgress);
        if (items.length < chunk) break;
        after = source.cursor(items.at(-1)!);
      }
    } else {
      let total = 0;
      for (let page = 1; done < EXPORT_LIMITS.rowsMax; page += 1) {
        const result = await entry.read(ctx, data.filters, page, CHUNK);
        if (page === 1) total = Math.min(result.total, EXPORT_LIMITS.rowsMax);
        for (const row of result.items.slice(0, EXPORT_LIMITS.rowsMax - done)) writeRow(row);
        done = Math.min(done + result.items.length, EXPORT_LIMITS.rowsMax);
        // Rows added while the export runs can make it longer than first counted.
        total = Math.max(total, done);
        await file.drained();
        await job.updateProgress({ done, total } satisfies ExportProgress);
        if (result.items.length < CHUNK) break;
      }
    }
    await file.finish();
    await staged.commit(FILE_TYPES[format]);
  } catch (error) {
    file.abandon();
    await staged.discard();
    const app = toAppError(error);
    // The reason the status shows: the message key of a refusal, never internals.
    if (app.code !== 'INTERNAL') throw app;
    throw error;
  }
  return { rows: done, tallies };
}

/**
 * Removes export files older than an hour (and files a stopped job left half written in a
 * directory store), of every hotel; the jobs themselves leave BullMQ at the same age. Returns how
 * many it removed.
 */
export async function cleanupExports(deps: Deps, now = Date.now()): Promise<number> {
  let removed = 0;
  for await (const file of deps.files.list(EXPORTS_FOLDER)) {
    const age = now - file.modifiedAt.getTime();
    if (age >= EXPORT_LIMITS.keepMs || (file.key.endsWith('.part') && age >= 24 * EXPORT_LIMITS.keepMs)) {
      await deps.files.remove(file.key);
      removed += 1;
    }
  }
  return removed;
}
