import type { Worker } from 'bullmq';
import ExcelJS from 'exceljs';
import { COOKIES } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExportWorker } from '../../jobs/export.job';
import { listAuditLog } from '../audit/audit-log';
import { createSession } from '../auth/session.service';
import { listPasswords } from '../credentials/password.service';
import { listOrders } from '../orders/order-list';
import { listStays } from '../stays/stay-list';
import { listRecordsByPerson } from '../unlock-records/unlock-record.service';
import { createAccount, createCustomers, createHotelWithStaff, createRooms } from '../../test/factories';
import { actorContext, createTestContext, testMeta, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { countAuditLog, listAuditLogAfter } from './audit-source';

/**
 * The exports of the credential (lock password) list, the audit log, and of everything in the
 * large lists (stays, unlock records, orders, audit log), which the job reads by keyset
 * (db/keyset.ts) in chunks of EXPORT_CHUNK_ROWS (100 here): each list has more rows than a chunk, many of them at
 * the very same time, so a cursor that loses or repeats rows of one instant shows. Every file is
 * read back with exceljs and compared with the rows of the list's own service, page by page.
 */

let ctx: TestContext;
let worker: Worker;
let api: ReturnType<typeof trpcClient>;
let a: Awaited<ReturnType<typeof createHotelWithStaff>>;
let rooms: { id: number; name: string }[];
/** Staff who may manage P101 only. */
let staffToken: string;
/** An administrator (audit.read) limited to P101: the audit log names every room, so not for them. */
let limitedAdminToken: string;
const SAME_TIME = new Date('2026-03-01T08:00:00.123Z');
/** The export's chunk here: the rules of a chunk's end are the same at 100 rows as at the default 1,000, for a tenth of the rows. */
const CHUNK = 100;
const STAYS = CHUNK * 2 + 35;
const RECORDS = CHUNK + 23;
const ORDERS = CHUNK + 50;
const AUDIT = CHUNK + 10;

async function limitedMember(role: 'staff' | 'admin', roomIds: number[]) {
  const account = await createAccount(ctx.deps);
  const membership = await ctx.deps.prisma.membership.create({ data: { accountId: account.id, hotelId: a.hotel.id, role, allRooms: false } });
  await ctx.deps.prisma.membershipRoom.createMany({ data: roomIds.map((roomId) => ({ hotelId: a.hotel.id, membershipId: membership.id, roomId })) });
  return (await createSession(ctx.deps, { accountId: account.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() })).token;
}

beforeAll(async () => {
  ctx = await createTestContext({ env: { EXPORT_CHUNK_ROWS: String(CHUNK) } });
  worker = startExportWorker(ctx.deps);
  api = trpcClient(ctx.app);
  a = await createHotelWithStaff(ctx.deps);
  ({ rooms } = await createRooms(ctx.deps, a.hotel.id, ['P101', 'P102', '=P103']));
  staffToken = await limitedMember('staff', [rooms[0]!.id]);
  limitedAdminToken = await limitedMember('admin', [rooms[0]!.id]);
  const hotelId = a.hotel.id;
  const db = ctx.deps.prisma;
  // Lock passwords: two a room, one holder's name a formula.
  await db.lockPassword.createMany({
    data: rooms.flatMap((room, i) => [
      {
        hotelId,
        roomId: room.id,
        kind: 'custom' as const,
        holderName: i === 1 ? '=1+1' : `Holder ${room.name} A`,
        code: `1234${i}0`,
        validFrom: SAME_TIME,
        deliveryState: 'on_lock' as const,
      },
      {
        hotelId,
        roomId: room.id,
        kind: 'one_time' as const,
        holderName: `Holder ${room.name} B`,
        code: `5678${i}0`,
        validFrom: SAME_TIME,
        validUntil: new Date('2026-03-02T00:00:00Z'),
        deliveryState: 'removed' as const,
      },
    ]),
  });
  // Stays, records, orders and audit entries: more than a chunk, most of them at one instant (orders
  // and audit entries: 60 at each instant, so that a chunk ends within one).
  await db.$executeRaw`
    INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "checkedOutAt", "priceAmount", "depositAmount", "updatedAt")
    SELECT ${hotelId}::int, (ARRAY[${rooms[0]!.id}::int, ${rooms[1]!.id}::int, ${rooms[2]!.id}::int])[1 + n % 3], 'checked_out'::"StayStatus",
           CASE WHEN n % 10 = 0 THEN ${SAME_TIME}::timestamptz - (n || ' minutes')::interval ELSE ${SAME_TIME}::timestamptz END,
           ${SAME_TIME}::timestamptz + interval '1 day', ${SAME_TIME}::timestamptz + interval '1 day', 10000, 0, now()
    FROM generate_series(1, ${STAYS}::int) n`;
  await db.$executeRaw`
    INSERT INTO "StayGuest" ("hotelId", "stayId", "isPrimary", "name") SELECT ${hotelId}::int, s."id", true, 'Guest ' || s."id" FROM "Stay" s WHERE s."hotelId" = ${hotelId}::int`;
  await db.$executeRaw`
    INSERT INTO "UnlockRecord" ("hotelId", "roomId", "occurredAt", "style", "operator")
    SELECT ${hotelId}::int, (ARRAY[${rooms[0]!.id}::int, ${rooms[1]!.id}::int, ${rooms[2]!.id}::int])[1 + n % 3],
           CASE WHEN n % 7 = 0 THEN ${SAME_TIME}::timestamptz - (n || ' seconds')::interval ELSE ${SAME_TIME}::timestamptz END,
           'password'::"UnlockStyle", CASE WHEN n = 5 THEN '@Op 5' ELSE 'Op ' || n END
    FROM generate_series(1, ${RECORDS}::int) n`;
  const [customer] = await createCustomers(ctx.deps, hotelId, 1, 'Ledger');
  await db.orderEntry.createMany({
    data: Array.from({ length: ORDERS }, (_, i) => ({
      hotelId,
      currency: 'CNY',
      kind: 'recharge' as const,
      method: 'cash' as const,
      amount: 100 + i,
      customerId: customer!.id,
      note: `N${i}`,
      createdAt: new Date(SAME_TIME.getTime() - Math.floor(i / 60) * 1000),
    })),
  });
  await db.auditLog.createMany({
    data: Array.from({ length: AUDIT }, (_, i) => ({
      hotelId,
      actorType: 'job' as const,
      actorJob: 'bench',
      action: i === 3 ? 'room.delete' : 'room.update',
      entityType: 'Room',
      entityId: String(rooms[i % 3]!.id),
      ip: i === 3 ? '+1-2' : `10.0.${Math.floor(i / 250)}.${i % 250}`,
      channel: 'job' as const,
      createdAt: new Date(SAME_TIME.getTime() - Math.floor(i / 60) * 1000),
    })),
  });
});

afterAll(async () => {
  await worker?.close();
  await ctx?.close();
});

type Started = NonNullable<Awaited<ReturnType<typeof api.mutation<'export.start'>>>['data']>;

async function exportAndWait(token: string, input: Parameters<typeof api.mutation<'export.start'>>[1]) {
  const started = await api.mutation('export.start', input, { token });
  expect(started.error, JSON.stringify(started.error)).toBeUndefined();
  let status: Started = started.data!;
  const seen: Started[] = [status];
  for (let i = 0; i < 600 && (status.state === 'waiting' || status.state === 'running'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    status = (await api.query('export.status', { id: status.id }, { token })).data!;
    seen.push(status);
  }
  expect(status.state).toBe('done');
  expect(seen.every((s) => s.state === 'done' || s.total >= s.done)).toBe(true);
  return status;
}

/** The exported sheet's rows (header first), read back with exceljs. */
async function exported(token: string, input: Parameters<typeof api.mutation<'export.start'>>[1]) {
  const status = await exportAndWait(token, input);
  const res = await ctx.app.inject({ method: 'GET', url: `/api/exports/${status.id}`, headers: { cookie: `${COOKIES.session}=${token}` } });
  expect(res.statusCode).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: ExcelJS.CellValue[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
  // Text that looks like a formula is never a formula cell.
  sheet.eachRow((row) => row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula)));
  return { status, header: rows[0]!, body: rows.slice(1) };
}

/** Every row of a list through its own service (OFFSET pages of 100), as the actor sees it. */
async function allOf<T>(read: (page: number) => Promise<{ items: T[] }>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await read(page);
    items.push(...result.items);
    if (result.items.length < 100) return items;
  }
}

const escaped = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);
const en = (key: string) => ctx.deps.i18n.t('en', key);

describe('export of the lock password list', () => {
  it('exports a room credentials tab as it lists them, formulas escaped', async () => {
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const { header, body } = await exported(a.ownerToken, { list: 'passwords', scope: 'all', filters: { roomId: rooms[1]!.id, scope: 'all' } });
    expect(header.slice(0, 4)).toEqual(['stays.room', 'credentials.columns.holder', 'credentials.columns.kind', 'credentials.columns.code'].map(en));
    const listed = await allOf((page) => listPasswords(owner, { roomId: rooms[1]!.id, scope: 'all', page, pageSize: 100 }));
    expect(body.map((r) => [r[0], r[1], r[3]])).toEqual(listed.map((p) => [p.roomName, escaped(p.holderName), p.code]));
    expect(body.map((r) => r[1])).toContain("'=1+1");
    // The tab's scope is a filter: active passwords only.
    const active = await exported(a.ownerToken, {
      list: 'passwords',
      scope: 'page',
      page: 1,
      pageSize: 10,
      filters: { roomId: rooms[1]!.id, scope: 'active' },
    });
    expect(active.body.map((r) => r[1])).toEqual(["'=1+1"]);
  });

  it('gives a staff member only the passwords of their rooms, and refuses another room', async () => {
    const { body } = await exported(staffToken, { list: 'passwords', scope: 'all', filters: { scope: 'all' } });
    expect(body.length).toBe(2);
    expect(new Set(body.map((r) => r[0]))).toEqual(new Set(['P101']));
    const refused = await api.mutation(
      'export.start',
      { list: 'passwords', scope: 'all', filters: { roomId: rooms[1]!.id, scope: 'all' } },
      { token: staffToken },
    );
    expect(refused.error?.data.code).toBe('NOT_FOUND');
  });
});

describe('export of everything, read by keyset', () => {
  it('exports every stay once, in the stay list order, across chunks of rows at one instant', async () => {
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const { status, body } = await exported(a.ownerToken, { list: 'stays', scope: 'all', filters: { state: 'all' } });
    expect(status.done).toBe(STAYS);
    const listed = await allOf((page) => listStays(owner, { state: 'all', page, pageSize: 100 }));
    expect(body.map((r) => r[1])).toEqual(listed.map((s) => s.guests[0]!.name));
    expect(new Set(body.map((r) => r[1])).size).toBe(STAYS);
    expect(body.map((r) => r[0])).toContain("'=P103");
  });

  it('gives a staff member the stays of their room only', async () => {
    const staff = await actorContext(ctx.deps, staffToken);
    const { body } = await exported(staffToken, { list: 'stays', scope: 'all', filters: { state: 'all' } });
    const listed = await allOf((page) => listStays(staff, { state: 'all', page, pageSize: 100 }));
    expect(body.length).toBe(Math.floor(STAYS / 3));
    expect(body.map((r) => r[1])).toEqual(listed.map((s) => s.guests[0]!.name));
    expect(new Set(body.map((r) => r[0]))).toEqual(new Set(['P101']));
  });

  it('exports every unlock record of the filters once, in the list order; a staff member gets their room only', async () => {
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const { body } = await exported(a.ownerToken, { list: 'unlockRecords', scope: 'all', filters: { person: 'Op' } });
    const listed = await allOf((page) => listRecordsByPerson(owner, { person: 'Op', page, pageSize: 100 }));
    expect(body.length).toBe(RECORDS);
    expect(body.map((r) => r[2])).toEqual(listed.map((u) => escaped(u.operator)));
    expect(body.map((r) => r[2])).toContain("'@Op 5");
    const mine = await exported(staffToken, { list: 'unlockRecords', scope: 'all', filters: { person: 'Op' } });
    expect(mine.body.length).toBe(Math.floor(RECORDS / 3));
    expect(new Set(mine.body.map((r) => r[1]))).toEqual(new Set(['P101']));
  });

  it('exports every order of the filters once, in the ledger order', async () => {
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const { body } = await exported(a.ownerToken, { list: 'orders', scope: 'all', filters: { kinds: ['recharge'] } });
    const listed = await allOf((page) => listOrders(owner, { kinds: ['recharge'], page, pageSize: 100 }));
    expect(body.length).toBe(ORDERS);
    expect(body.map((r) => r[6])).toEqual(listed.map((o) => o.note));
  });

  it('exports the audit log of the filters as the viewer lists it, formulas escaped; only for readers of the whole hotel', async () => {
    const owner = await actorContext(ctx.deps, a.ownerToken);
    const { header, body } = await exported(a.ownerToken, { list: 'auditLog', scope: 'all', filters: { action: 'room', channel: 'job' } });
    expect(header[0]).toBe(en('auditLog.columns.time'));
    const listed = await allOf((page) => listAuditLog(owner, { action: 'room', channel: 'job', page, pageSize: 100 }));
    expect(body.length).toBe(AUDIT);
    // The action in words of the export's language, as the list names it.
    expect(body.map((r) => [r[2], r[5]])).toEqual(listed.map((e) => [e.actionLabel, escaped(e.ip!)]));
    expect(new Set(body.map((r) => r[2]))).toEqual(new Set([en('auditLog.actions.room.update'), en('auditLog.actions.room.delete')]));
    expect(body.map((r) => r[5])).toContain("'+1-2");
    const filtered = await exported(a.ownerToken, { list: 'auditLog', scope: 'all', filters: { action: 'room.delete' } });
    expect(filtered.body.map((r) => r[5])).toEqual(["'+1-2"]);
    for (const token of [staffToken, limitedAdminToken]) {
      const refused = await api.mutation('export.start', { list: 'auditLog', scope: 'all' }, { token });
      expect(refused.error?.data.code).toBe('FORBIDDEN');
    }
    // The keyset reader checks again, as the job reads with the session as it is now.
    const limitedAdmin = await actorContext(ctx.deps, limitedAdminToken);
    await expect(listAuditLogAfter(limitedAdmin, {}, null, 10)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(countAuditLog(limitedAdmin, {}, 10)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
