import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job, Worker } from 'bullmq';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, revokeSession } from '../modules/auth/session.service';
import { exportKey, type ExportProgress } from '../modules/export/export.service';
import { createCustomers, createHotelWithStaff } from '../test/factories';
import { createTestContext, testMeta, type TestContext } from '../test/harness';
import { trpcClient } from '../test/trpc-client';
import { EXPORT_THREAD_LIMITS, runExportInThread, startExportWorker } from './export.job';
import type { ExportJobData } from './payloads';

/**
 * An export runs on a worker thread of its own with a bounded heap (decision 018): the thread
 * writes the file and reports its progress to the job; a refusal inside it fails the job with its
 * message key; a thread that runs out of its heap fails the job, and the server goes on; through
 * the export worker, the console then reads the job as failed, with the refusal's reason.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let hotel: Awaited<ReturnType<typeof createHotelWithStaff>>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
  hotel = await createHotelWithStaff(ctx.deps);
  await createCustomers(ctx.deps, hotel.hotel.id, 25, 'Thread');
});
afterAll(() => ctx?.close());

async function job(id: string) {
  const session = await createSession(ctx.deps, { accountId: hotel.owner.id, hotelId: hotel.hotel.id, kind: 'web', meta: testMeta() });
  const data: ExportJobData = {
    hotelId: hotel.hotel.id,
    accountId: hotel.owner.id,
    sessionId: session.sessionId,
    list: 'customers',
    filters: {},
    scope: 'all',
    page: 1,
    pageSize: 20,
    fileName: 'customers',
    lang: 'en',
    createdAt: new Date().toISOString(),
  };
  const progress: ExportProgress[] = [];
  return { session, job: { id, data, updateProgress: async (p: ExportProgress) => void progress.push(p) }, progress };
}

const fileOf = (id: string) => path.join(path.resolve(ctx.config.uploadDir), exportKey(hotel.hotel.id, id));

describe('an export on its own thread', () => {
  it('writes the file and reports its progress to the job, the last report before the end', async () => {
    const { job: exportJob, progress } = await job(`thread-${Date.now()}`);
    const result = await runExportInThread(ctx.deps, exportJob);
    expect(result).toEqual({ rows: 25, tallies: {} });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p, i) => p.done <= p.total && (i === 0 || p.done >= progress[i - 1]!.done))).toBe(true);
    expect(progress.at(-1)).toEqual({ done: 25, total: 25 });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(fileOf(exportJob.id));
    expect(book.worksheets[0]!.rowCount).toBe(26);
    expect(EXPORT_THREAD_LIMITS.maxOldGenerationSizeMb).toBeLessThanOrEqual(128);
  });

  it('finds the locales from any working directory (a worker process runs in apps/server), as bundled from the source', async () => {
    const { job: exportJob } = await job(`cwd-${Date.now()}`);
    const before = process.cwd();
    process.chdir(os.tmpdir());
    try {
      expect(await runExportInThread(ctx.deps, exportJob)).toEqual({ rows: 25, tallies: {} });
    } finally {
      process.chdir(before);
    }
  });

  it("fails the job with the refusal's message key when the session has ended meanwhile, and writes nothing", async () => {
    const { job: exportJob, session } = await job(`ended-${Date.now()}`);
    await revokeSession(ctx.deps.prisma, session.sessionId, 'signed_out');
    await expect(runExportInThread(ctx.deps, exportJob)).rejects.toThrow(/^errors\.[A-Za-z_.]+$/);
    expect(fs.existsSync(fileOf(exportJob.id))).toBe(false);
    // Nor a half-written one beside it.
    expect(
      (fs.existsSync(path.dirname(fileOf(exportJob.id))) ? fs.readdirSync(path.dirname(fileOf(exportJob.id))) : []).filter((name) =>
        name.startsWith(path.basename(fileOf(exportJob.id))),
      ),
    ).toEqual([]);
  });

  it('fails the job when the thread outgrows its heap, and the server goes on', async () => {
    const { job: exportJob } = await job(`tiny-${Date.now()}`);
    await expect(runExportInThread(ctx.deps, exportJob, { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 })).rejects.toMatchObject({
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    expect(await ctx.deps.prisma.customer.count({ where: { hotelId: hotel.hotel.id } })).toBe(25);
  });
});

/**
 * The export worker as the server runs it: the export is queued over tRPC, then a worker is
 * started (its threads given `limits`) and the job's end awaited; the console reads that end
 * through another session of the same operator.
 */
async function exportThroughWorker(options: { limits?: Parameters<typeof startExportWorker>[1]; endSession?: boolean }) {
  const make = () => createSession(ctx.deps, { accountId: hotel.owner.id, hotelId: hotel.hotel.id, kind: 'web', meta: testMeta() });
  const [asking, reading] = [await make(), await make()];
  const started = await api.mutation('export.start', { list: 'customers', scope: 'all' }, { token: asking.token });
  expect(started.error, JSON.stringify(started.error)).toBeUndefined();
  if (options.endSession) await revokeSession(ctx.deps.prisma, asking.sessionId, 'signed_out');
  let worker: Worker | undefined;
  try {
    const { job, error } = await new Promise<{ job: Job | undefined; error?: Error }>((resolve) => {
      worker = startExportWorker(ctx.deps, options.limits);
      worker.on('failed', (failed, reason) => resolve({ job: failed, error: reason }));
      worker.on('completed', (completed) => resolve({ job: completed }));
    });
    expect(job?.id).toBe(started.data!.id);
    const status = await api.query('export.status', { id: started.data!.id }, { token: reading.token });
    return { error, status: status.data!, reading };
  } finally {
    await worker?.close();
  }
}

describe('an export through the export worker', () => {
  it('fails the job when its thread outgrows its heap: the console says it failed, and the server goes on serving', async () => {
    const { error, status, reading } = await exportThroughWorker({ limits: { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 } });
    expect(error).toMatchObject({ code: 'ERR_WORKER_OUT_OF_MEMORY' });
    expect(status).toMatchObject({ state: 'failed', error: ctx.deps.i18n.t('en', 'export.errors.failed'), downloadUrl: null });
    const customers = await api.query('customer.list', { page: 1, pageSize: 10 }, { token: reading.token });
    expect(customers.error).toBeUndefined();
    expect(customers.data!.total).toBe(25);
  });

  it("fails the job with the refusal's reason from inside the thread, which the console shows translated", async () => {
    const { error, status } = await exportThroughWorker({ endSession: true });
    expect(error?.message).toMatch(/^errors\.[A-Za-z_.]+$/);
    expect(ctx.deps.i18n.has(error!.message)).toBe(true);
    expect(status).toMatchObject({ state: 'failed', error: ctx.deps.i18n.t('en', error!.message), downloadUrl: null });
    expect(status.error).not.toBe(ctx.deps.i18n.t('en', 'export.errors.failed'));
  });
});
