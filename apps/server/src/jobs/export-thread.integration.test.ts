import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, revokeSession } from '../modules/auth/session.service';
import { exportsRoot, type ExportJobData, type ExportProgress } from '../modules/export/export.service';
import { createCustomers, createHotelWithStaff } from '../test/factories';
import { createTestContext, testMeta, type TestContext } from '../test/harness';
import { EXPORT_THREAD_LIMITS, runExportInThread } from './export.job';

/**
 * An export runs on a worker thread of its own with a bounded heap (decision 018): the thread
 * writes the file and reports its progress to the job; a refusal inside it fails the job with its
 * message key; a thread that runs out of its heap fails the job, and the server goes on.
 */
let ctx: TestContext;
let hotel: Awaited<ReturnType<typeof createHotelWithStaff>>;

beforeAll(async () => {
  ctx = await createTestContext();
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

const fileOf = (id: string) => path.join(exportsRoot(ctx.deps), String(hotel.hotel.id), `${id}.xlsx`);

describe('an export on its own thread', () => {
  it('writes the file and reports its progress to the job, the last report before the end', async () => {
    const { job: exportJob, progress } = await job(`thread-${Date.now()}`);
    const result = await runExportInThread(ctx.deps, exportJob);
    expect(result).toEqual({ rows: 25 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p, i) => p.done <= p.total && (i === 0 || p.done >= progress[i - 1]!.done))).toBe(true);
    expect(progress.at(-1)).toEqual({ done: 25, total: 25 });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(fileOf(exportJob.id));
    expect(book.worksheets[0]!.rowCount).toBe(26);
    expect(EXPORT_THREAD_LIMITS.maxOldGenerationSizeMb).toBeLessThanOrEqual(128);
  });

  it('fails the job with the refusal\'s message key when the session has ended meanwhile, and writes nothing', async () => {
    const { job: exportJob, session } = await job(`ended-${Date.now()}`);
    await revokeSession(ctx.deps.prisma, session.sessionId, 'signed_out');
    await expect(runExportInThread(ctx.deps, exportJob)).rejects.toThrow(/^errors\.[A-Za-z_.]+$/);
    expect(fs.existsSync(fileOf(exportJob.id))).toBe(false);
    expect(fs.existsSync(`${fileOf(exportJob.id)}.part`)).toBe(false);
  });

  it('fails the job when the thread outgrows its heap, and the server goes on', async () => {
    const { job: exportJob } = await job(`tiny-${Date.now()}`);
    await expect(runExportInThread(ctx.deps, exportJob, { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 })).rejects.toMatchObject({ code: 'ERR_WORKER_OUT_OF_MEMORY' });
    expect(await ctx.deps.prisma.customer.count({ where: { hotelId: hotel.hotel.id } })).toBe(25);
  });
});
