import { Worker, type Job } from 'bullmq';
import ExcelJS from 'exceljs';
import { COOKIES, localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportJobData } from '../../jobs/payloads';
import { QUEUE_NAMES } from '../../jobs/queues';
import { workerOptions } from '../../jobs/worker-options';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, refusal, stayIn, type Ctx } from '../../test/ledger-kit';
import { exportKey, exportStatus, runExport, startExport } from '../export/export.service';
import { recordPayment } from '../orders/payments';
import { recordCharge } from '../orders/posting';
import { getFolio } from '../orders/settlement.service';
import { openShift } from '../orders/shifts';
import { accountCodes, setAccountCodes } from './account-codes';
import { journalLines } from './journal-lines';
import { trialBalance } from './trial-balance';

/**
 * Issue 36, "a trial balance that ties" (docs/journal.md): the trial balance's page (the money
 * account per way of paying and shift, what is off and where), its drill-down to the day's lines
 * of an account, the hotel's chart-of-accounts codes, and the exports (the trial balance as a
 * workbook, the general ledger as CSV under the hotel's codes, its unmapped lines counted); each
 * for managers of the whole hotel, each reading its own hotel only.
 */
let ctx: TestContext;
/** Takes the queued exports up one at a time, for the test to run each as the job would (without its thread). */
let taker: Worker<ExportJobData>;
beforeAll(async () => {
  ctx = await createTestContext();
  taker = new Worker<ExportJobData>(QUEUE_NAMES.export, null, workerOptions(ctx.deps, 1));
});
afterAll(async () => {
  await taker?.close();
  await ctx?.close();
});

type Hotel = Awaited<ReturnType<typeof ledgerHotel>>;
const todayOf = (h: Hotel) => localDate(new Date(), h.owner.actor.timeZone);

/** A hotel's day: a clerk's shift, a stay with a cash deposit in it, a minibar charge, the rest paid by card. */
async function busyDay(h: Hotel) {
  const shift = await openShift(h.staff, { openingFloat: 10_000 });
  const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon', deposit: 5_000 });
  await recordCharge(h.staff, { stayId: stay.id, amount: 1_500, note: 'Minibar' });
  await recordPayment(h.staff, { stayId: stay.id, amount: stay.priceAmount + 1_500 - 5_000, method: 'bank_card' });
  const folio = await getFolio(h.staff, { stayId: stay.id });
  return { shift, stay, folio };
}

/** Runs an export as the job would (without a worker): started by `by` (its checks), written, and downloaded as the console does. */
async function exported(by: Ctx & { token: string }, input: Parameters<typeof startExport>[1]) {
  const started = await startExport(by, input);
  const job = (await taker.getNextJob('test-token')) as Job<ExportJobData>;
  expect(job.id).toBe(started.id);
  const result = await runExport(ctx.deps, { id: job.id, data: job.data, updateProgress: async () => undefined });
  await job.moveToCompleted(result, 'test-token', false);
  const download = await ctx.app.inject({ method: 'GET', url: `/api/exports/${started.id}`, headers: { cookie: `${COOKIES.session}=${by.token}` } });
  expect(download.statusCode).toBe(200);
  const format = input.format ?? 'xlsx';
  expect(download.headers['content-type']).toBe(
    format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  expect(download.headers['content-disposition']).toMatch(new RegExp(`\\.${format}"`));
  const bytes = await ctx.deps.files.read(exportKey(by.actor.hotelId, started.id, format));
  expect(download.rawPayload.equals(bytes!)).toBe(true);
  return { result, bytes: bytes!, status: await exportStatus(by, { id: started.id }) };
}

/** A CSV file's rows (ours: fields quoted only when they hold a comma, a quote or a line break). */
function csvRows(bytes: Buffer): string[][] {
  const text = bytes.toString('utf8');
  expect(text.startsWith('\ufeff')).toBe(true);
  return text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')));
}

describe('the trial balance page', () => {
  it('shows the money account per way of paying and shift, and drills down to the day’s lines of an account', async () => {
    const h = await ledgerHotel(ctx);
    const { shift, stay, folio } = await busyDay(h);
    const date = todayOf(h);
    const tb = await trialBalance(h.owner, { date });
    expect(tb.ties).toBe(true);
    expect(tb.closed).toBe(false);
    // The money account's ways sum to it; the cash is in the clerk's shift.
    const money = tb.rows.find((r) => r.account === 'money')!;
    expect(tb.money.reduce((s, w) => s + w.closing, 0)).toBe(money.closing);
    const cash = tb.money.find((w) => w.method === 'cash')!;
    expect(cash).toMatchObject({ opening: 0, debits: 5_000, credits: 0, closing: 5_000 });
    expect(cash.shifts).toEqual([expect.objectContaining({ debits: 5_000, shift: expect.objectContaining({ id: shift.id, closedAt: null }) })]);
    expect(tb.money.find((w) => w.method === 'bank_card')).toMatchObject({ debits: stay.priceAmount + 1_500 - 5_000 });

    // The guest ledger's lines of the day: the room charge, the deposit taken at check-in, the minibar charge, the card payment.
    const guest = tb.rows.find((r) => r.account === 'guest')!;
    const lines = await journalLines(h.owner, { date, account: 'guest', page: 1, pageSize: 20 });
    expect(lines.total).toBe(lines.items.length);
    expect({ debits: lines.debits, credits: lines.credits }).toEqual({ debits: guest.debits, credits: guest.credits });
    expect(lines.items.map((l) => [l.source, l.order?.kind ?? null, l.amount])).toEqual([
      ['order', 'room_charge', stay.priceAmount],
      ['order', 'deposit', -5_000],
      ['order', 'charge', 1_500],
      ['order', 'payment', -(stay.priceAmount + 1_500 - 5_000)],
    ]);
    expect(lines.items[2]).toMatchObject({ folioId: folio.folioId, stayId: stay.id, roomName: h.rooms[0].name, order: { note: 'Minibar' } });
    expect(lines.items[2]!.guestName).toMatch(/^Guest /);
    // A page of it, and the money lines of one way in one shift.
    const second = await journalLines(h.owner, { date, account: 'guest', page: 2, pageSize: 1 });
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 1, items: [lines.items[1]] });
    const inShift = await journalLines(h.owner, { date, account: 'money', method: 'cash', shiftId: shift.id, page: 1, pageSize: 20 });
    expect(inShift.items.map((l) => [l.order?.kind, l.amount, l.shift?.id])).toEqual([['deposit', 5_000, shift.id]]);
    expect((await journalLines(h.owner, { date, account: 'money', method: 'cash', shiftId: null, page: 1, pageSize: 20 })).total).toBe(0);
    // Room revenue by its nights.
    const revenue = await journalLines(h.owner, { date, account: 'revenue_rooms', page: 1, pageSize: 20 });
    expect(revenue.items.every((l) => l.serviceDate !== null)).toBe(true);
    expect(revenue.credits).toBe(-stay.priceAmount);
    // A way or a shift is the money account's only.
    expect(await refusal(journalLines(h.owner, { date, account: 'guest', method: 'cash', page: 1, pageSize: 20 }))).toMatchObject({ code: 'ZOD' });
  });

  it('names each folio that is off, with what its ledgers and its bill say and where its stay is', async () => {
    const h = await ledgerHotel(ctx);
    const { stay, folio } = await busyDay(h);
    // A bill's entry written behind the journal's back (its triggers off, as a restore or a bad import could).
    await ctx.deps.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
      await tx.$executeRawUnsafe(
        `INSERT INTO "OrderEntry" ("hotelId", "currency", "folioId", "stayId", "roomId", "kind", "amount", "note") VALUES ($1, 'CNY', $2, $3, $4, 'charge', -1000, 'Minibar')`,
        h.hotel.id,
        folio.folioId,
        stay.id,
        h.rooms[0].id,
      );
    });
    const tb = await trialBalance(h.owner, { date: todayOf(h) });
    expect(tb.ties).toBe(false);
    expect(tb.checks).toMatchObject({ balanced: true, foliosOff: [folio.folioId], customersOff: [] });
    expect(tb.offFolios).toEqual([
      {
        folioId: folio.folioId,
        journal: 0,
        bill: 1_000,
        stayId: stay.id,
        roomName: h.rooms[0].name,
        guestId: expect.any(Number),
        guestName: expect.stringMatching(/^Guest /),
      },
    ]);
  });
});

describe('the chart-of-accounts codes and the exports', () => {
  it('keeps the hotel’s codes (audited, with an event), and exports the general ledger under them, counting the lines of no code', async () => {
    const h = await ledgerHotel(ctx);
    await busyDay(h);
    // A reservation's deposit, in the deposit ledger.
    await stayIn(h.staff, h.rooms[1].id, { from: 48, to: 72, deposit: 3_000 });
    const date = todayOf(h);
    expect(await accountCodes(h.owner)).toEqual({ codes: [], updatedAt: null });
    const saved = await setAccountCodes(h.owner, {
      codes: [
        { key: 'guest', code: '1200' },
        { key: 'money', code: '1000' },
        { key: 'money.cash', code: '1010' },
        { key: 'revenue_rooms', code: '4000' },
        { key: 'deposit', code: '' },
      ],
    });
    expect(saved.codes).toEqual([
      { key: 'guest', code: '1200' },
      { key: 'revenue_rooms', code: '4000' },
      { key: 'money', code: '1000' },
      { key: 'money.cash', code: '1010' },
    ]);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'order.accountCodes' } });
    expect(audit.after).toEqual({ guest: '1200', money: '1000', 'money.cash': '1010', revenue_rooms: '4000' });
    expect(await ctx.deps.prisma.domainEvent.count({ where: { hotelId: h.hotel.id, kind: 'hotel.changed' } })).toBe(1);
    // The same codes again change nothing and write nothing.
    await setAccountCodes(h.owner, { codes: saved.codes });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'order.accountCodes' } })).toBe(1);

    const { result, bytes, status } = await exported(
      { ...h.owner, token: h.ownerToken },
      { list: 'generalLedger', filters: { from: date, to: date }, scope: 'all', format: 'csv' },
    );
    const [header, ...rows] = csvRows(bytes);
    expect(header!.slice(0, 7)).toEqual(['Business date', 'Entry', 'Posted', 'Account code', 'Account', 'Debit (CNY)', 'Credit (CNY)']);
    const codeOf = (what: string) => [...new Set(rows.filter((r) => r[4] === what).map((r) => r[3]))];
    expect(codeOf('Guest ledger')).toEqual(['1200']);
    expect(codeOf('Room revenue')).toEqual(['4000']);
    // A way of paying with its own code, and one that takes the money account's.
    expect(codeOf('Money in hand: Cash')).toEqual(['1010']);
    expect(codeOf('Money in hand: Bank card')).toEqual(['1000']);
    // Of no code: under our account's name, and counted.
    expect(codeOf('Deposit ledger')).toEqual(['deposit']);
    expect(codeOf('Other revenue')).toEqual(['revenue_extras']);
    const unmapped = rows.filter((r) => ['deposit', 'revenue_extras'].includes(r[3]!)).length;
    expect(unmapped).toBeGreaterThan(0);
    expect(result).toEqual({ rows: rows.length, tallies: { unmapped } });
    // The export's status says it, for the dialog.
    expect(status).toMatchObject({ state: 'done', format: 'csv', tallies: { unmapped }, fileName: expect.stringMatching(/\.csv$/) });
    // Every entry balances in the file.
    const byEntry = new Map<string, number>();
    for (const r of rows) byEntry.set(r[1]!, (byEntry.get(r[1]!) ?? 0) + Math.round(Number(r[5] || 0) * 100) - Math.round(Number(r[6] || 0) * 100));
    expect([...byEntry.values()].every((sum) => sum === 0)).toBe(true);
    expect(byEntry.size).toBeGreaterThanOrEqual(5);
  });

  it('exports the trial balance as a workbook: each account with its code, the ways and shifts, the total and whether it ties', async () => {
    const h = await ledgerHotel(ctx);
    const { stay } = await busyDay(h);
    await setAccountCodes(h.owner, { codes: [{ key: 'guest', code: '1200' }] });
    const date = todayOf(h);
    const { bytes } = await exported({ ...h.owner, token: h.ownerToken }, { list: 'trialBalance', filters: { date }, scope: 'all', format: 'xlsx' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const rows: ExcelJS.CellValue[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    expect(rows[0]).toEqual([
      'Account',
      'Account code',
      'Shift opened',
      'Opening (debit +, credit −) (CNY)',
      'Debits (CNY)',
      'Credits (CNY)',
      'Closing (debit +, credit −) (CNY)',
    ]);
    const labels = rows.slice(1).map((r) => r[0]);
    expect(labels).toEqual([
      'Guest ledger',
      'Deposit ledger',
      'Receivables',
      'Customers’ balances',
      'Room revenue',
      'Other revenue',
      'Taxes payable',
      'Money in hand',
      'Money in hand: Cash',
      expect.stringMatching(/^Cash, shift of /),
      'Money in hand: Bank card',
      expect.stringMatching(/^Bank card, shift of /),
      'Total',
      'The trial balance ties.',
    ]);
    expect(rows[1]).toEqual(['Guest ledger', '1200', undefined, 0, (stay.priceAmount + 1_500) / 100, (stay.priceAmount + 1_500) / 100, 0]);
    expect(rows[5]!.slice(3)).toEqual([0, 0, stay.priceAmount / 100, -stay.priceAmount / 100]);
  });
});

describe('tenancy and permissions', () => {
  it('reads one hotel only: another hotel’s shift is not found, its lines, codes and exports are its own', async () => {
    const a = await ledgerHotel(ctx);
    const b = await ledgerHotel(ctx);
    const { shift } = await busyDay(a);
    await setAccountCodes(a.owner, { codes: [{ key: 'guest', code: 'A-1200' }] });
    const date = todayOf(a);
    expect(await refusal(journalLines(b.owner, { date, account: 'money', method: 'cash', shiftId: shift.id, page: 1, pageSize: 20 }))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await journalLines(b.owner, { date, account: 'guest', page: 1, pageSize: 20 })).toMatchObject({ total: 0, items: [], debits: 0, credits: 0 });
    const tb = await trialBalance(b.owner, { date });
    expect(tb.rows.every((r) => r.closing === 0 && r.debits === 0)).toBe(true);
    expect(tb.money).toEqual([]);
    expect(await accountCodes(b.owner)).toEqual({ codes: [], updatedAt: null });
    await setAccountCodes(b.owner, { codes: [{ key: 'guest', code: 'B-1200' }] });
    expect((await accountCodes(a.owner)).codes).toEqual([{ key: 'guest', code: 'A-1200' }]);
    const { result, bytes } = await exported(
      { ...b.owner, token: b.ownerToken },
      { list: 'generalLedger', filters: { from: date, to: date }, scope: 'all', format: 'csv' },
    );
    expect(csvRows(bytes)).toHaveLength(1);
    expect(result).toEqual({ rows: 0, tallies: {} });
  });

  it('is for managers of the whole hotel: a clerk, and an administrator of some rooms, are refused', async () => {
    const h = await ledgerHotel(ctx);
    const date = todayOf(h);
    for (const by of [h.staff, h.limitedAdmin.ctx]) {
      expect(await refusal(journalLines(by, { date, account: 'guest', page: 1, pageSize: 20 }))).toMatchObject({ code: 'FORBIDDEN' });
      expect(await refusal(accountCodes(by))).toMatchObject({ code: 'FORBIDDEN' });
      expect(await refusal(setAccountCodes(by, { codes: [{ key: 'guest', code: '1200' }] }))).toMatchObject({ code: 'FORBIDDEN' });
      expect(await refusal(startExport(by, { list: 'trialBalance', filters: { date }, scope: 'all', format: 'csv' }))).toMatchObject({ code: 'FORBIDDEN' });
      expect(await refusal(startExport(by, { list: 'generalLedger', filters: { from: date, to: date }, scope: 'all' }))).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(await ctx.deps.prisma.accountCode.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    // A range the export cannot take is refused before anything is queued, naming its field.
    expect(await refusal(startExport(h.owner, { list: 'generalLedger', filters: { from: date, to: '2020-01-01' }, scope: 'all' }))).toMatchObject({
      code: 'VALIDATION',
      fields: { 'filters.to': 'validation.endAfterStart' },
    });
  });
});
