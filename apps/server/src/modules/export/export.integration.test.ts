import fs from 'node:fs/promises';
import path from 'node:path';
import type { Worker } from 'bullmq';
import ExcelJS from 'exceljs';
import { COOKIES, localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExportWorker } from '../../jobs/export.job';
import { createSession } from '../auth/session.service';
import { listCustomers } from '../customers/customer.service';
import { listOrders } from '../orders/order-list';
import { listRooms } from '../room/room-list';
import { listStays } from '../stays/stay-list';
import { createAccount, createCustomers, createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { actorContext, createTestContext, testMeta, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { cleanupExports, exportKey } from './export.service';

/**
 * Exports end to end (issue 9 §5): export.start over tRPC, the job on the `export` queue, the file
 * downloaded from /api/exports/<id> and read back with exceljs's reader, compared with the rows of
 * the list service the console uses. The hotel is in New York, so hotel time is not UTC nor the
 * test machine's.
 */

let ctx: TestContext;
let worker: Worker;
let api: ReturnType<typeof trpcClient>;
let a: Awaited<ReturnType<typeof createHotelWithStaff>>;
let b: Awaited<ReturnType<typeof createHotelWithStaff>>;
let limitedToken: string;
let rooms: { id: number; name: string }[];
const checkInAt = new Date('2026-07-04T13:05:09Z');

beforeAll(async () => {
  ctx = await createTestContext();
  worker = startExportWorker(ctx.deps);
  api = trpcClient(ctx.app);
  a = await createHotelWithStaff(ctx.deps);
  b = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.hotel.update({ where: { id: a.hotel.id }, data: { timeZone: 'America/New_York', currency: 'USD' } });
  // Names a spreadsheet would take for formulas.
  ({ rooms } = await createRooms(ctx.deps, a.hotel.id, ['X101', 'X102', '=HYPERLINK("http://evil.test","x")', '+SUM(1,2)', '-2+3', '@cmd', 'X107'], {
    groupName: 'Export',
    usualPrice: 12_345,
  }));
  await createRooms(ctx.deps, b.hotel.id, ['B-only']);
  for (const [i, room] of rooms.slice(0, 4).entries()) {
    await insertStay(ctx.deps, {
      hotelId: a.hotel.id,
      roomId: room.id,
      checkInAt: new Date(checkInAt.getTime() - i * 86_400_000),
      expectedCheckOutAt: hours(24 + i),
      guestName: i === 1 ? '=cmd|" /C calc"!A0' : `Guest ${i}`,
      guestMobile: `1390000000${i}`,
    });
  }
  await createCustomers(ctx.deps, a.hotel.id, 3, 'Export');
  // A staff member who may manage only X101 and X102.
  const limited = await createAccount(ctx.deps);
  const membership = await ctx.deps.prisma.membership.create({ data: { accountId: limited.id, hotelId: a.hotel.id, role: 'staff', allRooms: false } });
  await ctx.deps.prisma.membershipRoom.createMany({ data: rooms.slice(0, 2).map((r) => ({ hotelId: a.hotel.id, membershipId: membership.id, roomId: r.id })) });
  limitedToken = (await createSession(ctx.deps, { accountId: limited.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() })).token;
});

afterAll(async () => {
  await worker?.close();
  await ctx?.close();
});

type Started = NonNullable<Awaited<ReturnType<typeof api.mutation<'export.start'>>>['data']>;

async function exportAndWait(token: string, input: Parameters<typeof api.mutation<'export.start'>>[1], lang = 'en') {
  const started = await api.mutation('export.start', input, { token, lang });
  expect(started.error, JSON.stringify(started.error)).toBeUndefined();
  let status: Started = started.data!;
  const seen: Started[] = [status];
  for (let i = 0; i < 300 && (status.state === 'waiting' || status.state === 'running'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await api.query('export.status', { id: status.id }, { token, lang })).data!;
    seen.push(status);
  }
  expect(status.state).toBe('done');
  return { status, seen };
}

async function download(token: string | undefined, id: string) {
  return ctx.app.inject({ method: 'GET', url: `/api/exports/${id}`, headers: token ? { cookie: `${COOKIES.session}=${token}` } : {} });
}

async function readSheet(bytes: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: ExcelJS.CellValue[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
  return { sheet, header: rows[0]!, body: rows.slice(1) };
}

/** Every row of a list through its service, as the actor sees it. */
async function allOf<T>(read: (page: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await read(page);
    items.push(...result.items);
    if (result.items.length < 100) return items;
  }
}

/** The hotel's wall-clock time of an instant, as exceljs reads a date cell back (UTC fields). */
const wallClock = (iso: string, timeZone: string) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return new Date(Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!)).toISOString();
};

describe('export', () => {
  it('exports every room the owner sees, as the room board lists them, with formulas escaped and amounts as numbers', async () => {
    const { status, seen } = await exportAndWait(a.ownerToken, { list: 'rooms', scope: 'all', fileName: 'Rooms: "all"/today.xlsx' });
    expect(status.fileName).toBe('Rooms all today.xlsx');
    expect(status.done).toBe(rooms.length);
    expect(seen.every((s) => s.total === 0 || s.total >= s.done)).toBe(true);
    const res = await download(a.ownerToken, status.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''Rooms%20all%20today.xlsx");
    const { sheet, header, body } = await readSheet(res.rawPayload);
    const en = (key: string) => ctx.deps.i18n.t('en', key);
    expect(header).toEqual([
      ...[
        'frontDesk.board.room',
        'frontDesk.board.group',
        'frontDesk.board.status',
        'frontDesk.board.guest',
        'frontDesk.board.checkInAt',
        'frontDesk.board.expectedCheckOut',
        'frontDesk.board.lockPower',
      ].map(en),
      `${en('stays.price')} (USD)`,
    ]);
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const listed = await allOf((page) => listRooms(owner, { page, pageSize: 100 }));
    expect(body.map((r) => r[0])).toEqual(listed.map((r) => (/^[=+\-@]/.test(r.name) ? `'${r.name}` : r.name)));
    expect(body.map((r) => r[0])).toContain(`'=HYPERLINK("http://evil.test","x")`);
    // Never a formula cell: text stays text.
    sheet.eachRow((row) => row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula)));
    expect(body.every((r) => r.at(-1) === 123.45)).toBe(true);
  });

  it('exports a page of stays as the stay list shows it, times in the hotel time zone, headers in the operator language', async () => {
    const { status } = await exportAndWait(a.ownerToken, { list: 'stays', scope: 'page', page: 2, pageSize: 2, filters: { state: 'all' } }, 'zh-CN');
    expect(status.fileName).toBe(`${ctx.deps.i18n.t('zh-CN', 'menu.stays')} ${localDate(new Date(), 'America/New_York')}.xlsx`);
    const { header, body } = await readSheet((await download(a.ownerToken, status.id)).rawPayload);
    expect(header[0]).toBe(ctx.deps.i18n.t('zh-CN', 'stays.room'));
    expect(header.slice(-3)).toEqual([
      `${ctx.deps.i18n.t('zh-CN', 'stays.deposit')} (USD)`,
      `${ctx.deps.i18n.t('zh-CN', 'stays.balanceDue')} (USD)`,
      ctx.deps.i18n.t('zh-CN', 'stays.bill'),
    ]);
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const page = await listStays(owner, { page: 2, pageSize: 2, state: 'all' });
    expect(body).toHaveLength(2);
    // The bill as the list shows it: what is owed (the folio's balance, signed), and its state in words.
    expect(body.map((r) => [r.at(-2), r.at(-1)])).toEqual(
      page.items.map((s) => [(s.bill.owed - s.bill.dueBack) / 100, ctx.deps.i18n.t('zh-CN', `orders.billStates.${s.bill.state}`)]),
    );
    expect(body.map((r) => r[0])).toEqual(page.items.map((s) => (/^[=+\-@]/.test(s.roomName) ? `'${s.roomName}` : s.roomName)));
    expect(body.map((r) => (r[3] as Date).toISOString())).toEqual(page.items.map((s) => wallClock(s.checkInAt, 'America/New_York')));
    // 13:05:09 UTC on 4 July is 09:05:09 in New York (daylight time).
    const first = await listStays(owner, { page: 1, pageSize: 1, state: 'all' });
    expect(first.items[0]!.checkInAt).toBe(checkInAt.toISOString());
    expect(wallClock(checkInAt.toISOString(), 'America/New_York')).toBe('2026-07-04T09:05:09.000Z');
    // A guest name that looks like a formula is escaped.
    const guests = await exportAndWait(a.ownerToken, { list: 'stays', scope: 'all', filters: { state: 'all' } });
    const all = await readSheet((await download(a.ownerToken, guests.status.id)).rawPayload);
    expect(all.body.map((r) => r[1])).toContain(`'=cmd|" /C calc"!A0`);
    expect(all.body.find((r) => r[0] === 'X101')![3]).toEqual(new Date('2026-07-04T09:05:09.000Z'));
  });

  it('exports customers as the customer list has them', async () => {
    const { status } = await exportAndWait(a.ownerToken, { list: 'customers', scope: 'all' });
    const { body } = await readSheet((await download(a.ownerToken, status.id)).rawPayload);
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const listed = await allOf((page) => listCustomers(owner, { page, pageSize: 100 }));
    expect(body.map((r) => [r[0], r[1], r[2]])).toEqual(listed.map((c) => [c.id, c.nickname, c.mobile]));
  });

  it('exports the orders ledger as the order list has it, amounts signed in the currency; staff without order.manage may not', async () => {
    const [customer] = await createCustomers(ctx.deps, a.hotel.id, 1, 'Ledger');
    await ctx.deps.prisma.orderEntry.create({
      data: { hotelId: a.hotel.id, currency: 'USD', kind: 'recharge', method: 'cash', amount: 10_050, customerId: customer!.id, note: '=2+2' },
    });
    const { status } = await exportAndWait(a.ownerToken, { list: 'orders', scope: 'all', filters: { kinds: ['recharge'] } });
    const { header, body } = await readSheet((await download(a.ownerToken, status.id)).rawPayload);
    expect(header).toContain(`${ctx.deps.i18n.t('en', 'orders.columns.amount')} (USD)`);
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const listed = (await listOrders(owner, { page: 1, pageSize: 100, kinds: ['recharge'] })).items;
    expect(body.map((r) => r[5])).toEqual(listed.map((o) => o.amount / 100));
    expect(body.map((r) => r[6])).toEqual(["'=2+2"]);
    const refused = await api.mutation('export.start', { list: 'orders', scope: 'all' }, { token: limitedToken });
    expect(refused.error?.data.code).toBe('FORBIDDEN');
  });

  it('gives a staff member limited to some rooms only those rooms and their stays', async () => {
    const roomsExport = await exportAndWait(limitedToken, { list: 'rooms', scope: 'all' });
    expect((await readSheet((await download(limitedToken, roomsExport.status.id)).rawPayload)).body.map((r) => r[0])).toEqual(['X101', 'X102']);
    const staysExport = await exportAndWait(limitedToken, { list: 'stays', scope: 'all', filters: { state: 'all' } });
    expect((await readSheet((await download(limitedToken, staysExport.status.id)).rawPayload)).body.map((r) => r[0]).sort()).toEqual(['X101', 'X102']);
    // A filter naming a room out of the staff member's scope is refused when the export starts.
    const refused = await api.mutation('export.start', { list: 'unlockRecords', scope: 'all', filters: { roomId: rooms[3]!.id } }, { token: limitedToken });
    expect(refused.error?.data.code).toBe('NOT_FOUND');
  });

  it('keeps an export to the operator who made it, in that hotel', async () => {
    const { status } = await exportAndWait(a.ownerToken, { list: 'rooms', scope: 'page', page: 1, pageSize: 3 });
    expect((await download(undefined, status.id)).statusCode).toBe(401);
    expect((await download(b.ownerToken, status.id)).statusCode).toBe(404);
    expect((await download(a.staffToken, status.id)).statusCode).toBe(404);
    expect((await api.query('export.status', { id: status.id }, { token: b.ownerToken })).error?.data.code).toBe('NOT_FOUND');
    expect((await api.query('export.status', { id: status.id }, { token: a.staffToken })).error?.data.code).toBe('NOT_FOUND');
    expect((await api.query('export.list', undefined, { token: b.ownerToken })).data).toEqual([]);
    const mine = (await api.query('export.list', undefined, { token: a.ownerToken })).data!;
    expect(mine[0]!.id).toBe(status.id);
    expect(mine.every((e) => e.downloadUrl === null || e.downloadUrl === `/api/exports/${e.id}`)).toBe(true);
    // Hotel B's own export holds only hotel B's rooms.
    const other = await exportAndWait(b.ownerToken, { list: 'rooms', scope: 'all' });
    expect((await readSheet((await download(b.ownerToken, other.status.id)).rawPayload)).body.map((r) => r[0])).toEqual(['B-only']);
    // The file is in the hotel's private directory, never under the public picture area.
    await expect(fs.stat(path.join(path.resolve(ctx.config.uploadDir), exportKey(a.hotel.id, status.id)))).resolves.toBeTruthy();
    expect((await ctx.app.inject({ method: 'GET', url: `/uploads/exports/${a.hotel.id}/${status.id}.xlsx` })).statusCode).toBe(404);
  });

  it('refuses bad filters with a field of the request, and an unknown export', async () => {
    const bad = await api.raw.mutation('export.start', { list: 'rooms', filters: { status: 'nonsense' } }, { token: a.ownerToken });
    expect(bad.error?.data.code).toBe('BAD_REQUEST');
    expect(Object.keys(bad.error?.data.app?.fields ?? {})).toEqual(['filters.status']);
    const unknown = await api.query('export.status', { id: 'exp-00000000-0000-4000-8000-000000000000' }, { token: a.ownerToken });
    expect(unknown.error?.data.code).toBe('NOT_FOUND');
  });

  it('removes files after an hour, and the export then says it expired', async () => {
    const { status } = await exportAndWait(a.ownerToken, { list: 'customers', scope: 'page' });
    const file = path.join(path.resolve(ctx.config.uploadDir), exportKey(a.hotel.id, status.id));
    expect(await cleanupExports(ctx.deps)).toBe(0);
    const old = new Date(Date.now() - 61 * 60_000);
    await fs.utimes(file, old, old);
    expect(await cleanupExports(ctx.deps)).toBeGreaterThanOrEqual(1);
    await expect(fs.stat(file)).rejects.toThrow();
    expect((await api.query('export.status', { id: status.id }, { token: a.ownerToken })).data!.state).toBe('expired');
    expect((await download(a.ownerToken, status.id)).statusCode).toBe(404);
  });
});
