import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createHotelWithStaff } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';

/**
 * The desk card-reader registry and binding (issue 8 §3) and card dispensers (§5) over tRPC:
 * register from what the reader reports, list with the bound account, rename, bind (one reader
 * per account), unbind, delete, `reader.mine`; dispensers added, listed, their status recorded;
 * who may do what; hotel B gets "not found" on hotel A's readers and dispensers.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx?.close());

let deviceCounter = 0;
const deviceId = () => `SIM-0417-8020-${String(process.pid % 10_000).padStart(4, '0')}${(deviceCounter += 1)}`;

async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  return h;
}

describe('reader registry', () => {
  it('registers the attached reader from what it reports, again without a duplicate, and lists it with its bound account', async () => {
    const h = await hotel();
    const id = deviceId();
    const first = await api.mutation('reader.register', { deviceId: id, serial: 'SIM12345678', readerType: 1, name: 'Front desk' }, { token: h.staffToken });
    expect(first.error).toBeUndefined();
    expect(first.data).toMatchObject({ deviceId: id, serial: 'SIM12345678', readerType: 1, name: 'Front desk', boundAccount: null });

    // The same device reported again (another type chosen on that computer): the same row, updated; the name stays.
    const again = await api.mutation(
      'reader.register',
      { deviceId: ` ${id} `, serial: 'SIM87654321', readerType: '3', name: 'Ignored' },
      { token: h.staffToken },
    );
    expect(again.data).toMatchObject({ id: first.data!.id, serial: 'SIM87654321', readerType: 3, name: 'Front desk' });

    const bound = await api.mutation('reader.bind', { id: first.data!.id, accountId: h.staff.id }, { token: h.staffToken });
    expect(bound.data?.boundAccount).toMatchObject({ id: h.staff.id, nickname: h.staff.nickname });

    const list = await api.query('reader.list', undefined, { token: h.ownerToken });
    expect(list.data?.items).toHaveLength(1);
    expect(list.data?.items[0]).toMatchObject({ deviceId: id, serial: 'SIM87654321', readerType: 3, boundAccount: { id: h.staff.id, mobile: h.staff.mobile } });

    expect((await api.query('reader.mine', undefined, { token: h.staffToken })).data).toMatchObject({ id: first.data!.id });
    expect((await api.query('reader.mine', undefined, { token: h.ownerToken })).data).toBeNull();

    const audit = await ctx.deps.prisma.auditLog.findMany({
      where: { hotelId: h.hotel.id, entityType: 'CardReader' },
      orderBy: { id: 'asc' },
      select: { action: true },
    });
    expect(audit.map((a) => a.action)).toEqual(['reader.register', 'reader.register', 'reader.bind']);
  });

  it('refuses what a reader could not have reported, with the field named', async () => {
    const h = await hotel();
    const empty = await api.mutation('reader.register', { deviceId: '  ', serial: '', readerType: 1 }, { token: h.staffToken });
    expect(empty.error?.data.app?.fields?.deviceId).toBe('Device number is required');
    const spaced = await api.mutation('reader.register', { deviceId: 'A B', serial: '', readerType: 1 }, { token: h.staffToken });
    expect(spaced.error?.data.app?.fields?.deviceId).toBeTruthy();
    const type = await api.raw.mutation('reader.register', { deviceId: deviceId(), serial: '', readerType: 4 }, { token: h.staffToken });
    expect(type.error?.data.app?.fields?.readerType).toBeTruthy();
    expect(await ctx.deps.prisma.cardReader.count({ where: { hotelId: h.hotel.id } })).toBe(0);
  });

  it('keeps one reader per account: binding another reader to the account unbinds the first', async () => {
    const h = await hotel();
    const a = (await api.mutation('reader.register', { deviceId: deviceId(), serial: 'S1', readerType: 1 }, { token: h.ownerToken })).data!;
    const b = (await api.mutation('reader.register', { deviceId: deviceId(), serial: 'S2', readerType: 2 }, { token: h.ownerToken })).data!;
    await api.mutation('reader.bind', { id: a.id, accountId: h.staff.id }, { token: h.ownerToken });
    const moved = await api.mutation('reader.bind', { id: b.id, accountId: h.staff.id }, { token: h.ownerToken });
    expect(moved.data?.boundAccount?.id).toBe(h.staff.id);
    const rows = await ctx.deps.prisma.cardReader.findMany({
      where: { hotelId: h.hotel.id },
      orderBy: { id: 'asc' },
      select: { id: true, boundAccountId: true },
    });
    expect(rows).toEqual([
      { id: a.id, boundAccountId: null },
      { id: b.id, boundAccountId: h.staff.id },
    ]);
    expect((await api.query('reader.mine', undefined, { token: h.staffToken })).data?.id).toBe(b.id);
  });

  it('lets front-desk staff register and bind an unbound reader to themselves, and unbind their own; the rest needs hotel management', async () => {
    const h = await hotel();
    const reader = (await api.mutation('reader.register', { deviceId: deviceId(), serial: 'S', readerType: 1 }, { token: h.staffToken })).data!;
    // Staff cannot bind a reader to someone else, rename or delete.
    expect((await api.mutation('reader.bind', { id: reader.id, accountId: h.owner.id }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    expect((await api.mutation('reader.rename', { id: reader.id, name: 'Mine' }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    expect((await api.mutation('reader.delete', { id: reader.id }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    // Bound to the owner, staff cannot take it, nor unbind it.
    expect((await api.mutation('reader.bind', { id: reader.id, accountId: h.owner.id }, { token: h.ownerToken })).data?.boundAccount?.id).toBe(h.owner.id);
    expect((await api.mutation('reader.bind', { id: reader.id, accountId: h.staff.id }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    expect((await api.mutation('reader.unbind', { id: reader.id }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    // Unbound by the owner, staff take it and give it back.
    expect((await api.mutation('reader.unbind', { id: reader.id }, { token: h.ownerToken })).data?.boundAccount).toBeNull();
    expect((await api.mutation('reader.bind', { id: reader.id, accountId: h.staff.id }, { token: h.staffToken })).data?.boundAccount?.id).toBe(h.staff.id);
    expect((await api.mutation('reader.unbind', { id: reader.id }, { token: h.staffToken })).data?.boundAccount).toBeNull();
    // The owner names and deletes it.
    expect((await api.mutation('reader.rename', { id: reader.id, name: ' Desk 2 ' }, { token: h.ownerToken })).data?.name).toBe('Desk 2');
    expect((await api.mutation('reader.delete', { id: reader.id }, { token: h.ownerToken })).data).toEqual({ deleted: true });
    expect(await ctx.deps.prisma.cardReader.count({ where: { hotelId: h.hotel.id } })).toBe(0);
  });

  it('binds only accounts of the hotel that are not frozen', async () => {
    const h = await hotel();
    const other = await hotel();
    const reader = (await api.mutation('reader.register', { deviceId: deviceId(), serial: 'S', readerType: 1 }, { token: h.ownerToken })).data!;
    const outsider = await api.mutation('reader.bind', { id: reader.id, accountId: other.staff.id }, { token: h.ownerToken });
    expect(outsider.error?.data.app?.code).toBe('NOT_FOUND');
    expect(outsider.error?.data.app?.fields?.accountId).toBeTruthy();
    const frozen = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'staff' });
    await ctx.deps.prisma.account.update({ where: { id: frozen.id }, data: { frozenAt: new Date() } });
    expect((await api.mutation('reader.bind', { id: reader.id, accountId: frozen.id }, { token: h.ownerToken })).error?.data.app?.code).toBe('NOT_FOUND');
    expect((await ctx.deps.prisma.cardReader.findUniqueOrThrow({ where: { id: reader.id } })).boundAccountId).toBeNull();
  });

  it('the same device in two hotels is two readers; hotel B gets "not found" on hotel A\'s reader', async () => {
    const a = await hotel();
    const b = await hotel();
    const id = deviceId();
    const readerA = (await api.mutation('reader.register', { deviceId: id, serial: 'S', readerType: 1 }, { token: a.ownerToken })).data!;
    const readerB = (await api.mutation('reader.register', { deviceId: id, serial: 'S', readerType: 1 }, { token: b.ownerToken })).data!;
    expect(readerB.id).not.toBe(readerA.id);

    const calls = [
      api.mutation('reader.rename', { id: readerA.id, name: 'x' }, { token: b.ownerToken }),
      api.mutation('reader.bind', { id: readerA.id, accountId: b.owner.id }, { token: b.ownerToken }),
      api.mutation('reader.unbind', { id: readerA.id }, { token: b.ownerToken }),
      api.mutation('reader.delete', { id: readerA.id }, { token: b.ownerToken }),
    ];
    for (const res of await Promise.all(calls)) expect(res.error?.data.app?.code, JSON.stringify(res.error)).toBe('NOT_FOUND');
    expect((await api.query('reader.list', undefined, { token: b.ownerToken })).data?.items.map((r) => r.id)).toEqual([readerB.id]);
    const untouched = await ctx.deps.prisma.cardReader.findUniqueOrThrow({ where: { id: readerA.id } });
    expect(untouched).toMatchObject({ name: '', boundAccountId: null, hotelId: a.hotel.id });
  });

  it('answers the environment of the desk readers: not simulated unless the server runs the simulator', async () => {
    const h = await hotel();
    expect((await api.query('reader.environment', undefined, { token: h.staffToken })).data).toEqual({ simulated: false, urls: {} });
    expect((await api.query('reader.environment')).error?.data.app?.code).toBe('UNAUTHENTICATED');
  });

  it('an account of two hotels has a reader in each', async () => {
    const a = await hotel();
    const b = await hotel();
    await ctx.deps.prisma.membership.create({ data: { accountId: a.staff.id, hotelId: b.hotel.id, role: 'staff' } });
    const inB = await createSession(ctx.deps, { accountId: a.staff.id, hotelId: b.hotel.id, kind: 'web', meta: testMeta() });
    const ra = (await api.mutation('reader.register', { deviceId: deviceId(), serial: 'S', readerType: 1 }, { token: a.staffToken })).data!;
    const rb = (await api.mutation('reader.register', { deviceId: deviceId(), serial: 'S', readerType: 1 }, { token: inB.token })).data!;
    await api.mutation('reader.bind', { id: ra.id, accountId: a.staff.id }, { token: a.staffToken });
    await api.mutation('reader.bind', { id: rb.id, accountId: a.staff.id }, { token: inB.token });
    expect((await api.query('reader.mine', undefined, { token: a.staffToken })).data?.id).toBe(ra.id);
    expect((await api.query('reader.mine', undefined, { token: inB.token })).data?.id).toBe(rb.id);
  });
});

describe('card dispensers', () => {
  it('are added once per device, listed, and keep the status the browser reports (online with no card left is empty)', async () => {
    const h = await hotel();
    const id = deviceId();
    const added = await api.mutation('dispenser.add', { deviceId: id, name: 'Lobby' }, { token: h.ownerToken });
    expect(added.data).toMatchObject({ deviceId: id, name: 'Lobby', stock: 0, capacity: null, status: 'offline', lastCheckedAt: null });
    const twice = await api.mutation('dispenser.add', { deviceId: id, name: 'Again' }, { token: h.ownerToken });
    expect(twice.error?.data.app?.code).toBe('CONFLICT');
    expect(twice.error?.data.app?.fields?.deviceId).toBeTruthy();

    const checked = await api.mutation('dispenser.checkStatus', { id: added.data!.id, status: 'online', stock: 49, capacity: 100 }, { token: h.staffToken });
    expect(checked.data).toMatchObject({ status: 'online', stock: 49, capacity: 100 });
    expect(checked.data?.lastCheckedAt).toBeTruthy();
    const empty = await api.mutation('dispenser.checkStatus', { id: added.data!.id, status: 'online', stock: 0 }, { token: h.staffToken });
    expect(empty.data).toMatchObject({ status: 'empty', stock: 0, capacity: 100 });
    // Offline keeps the last known stock.
    await api.mutation('dispenser.checkStatus', { id: added.data!.id, status: 'online', stock: 7 }, { token: h.staffToken });
    const offline = await api.mutation('dispenser.checkStatus', { id: added.data!.id, status: 'offline' }, { token: h.staffToken });
    expect(offline.data).toMatchObject({ status: 'offline', stock: 7 });
    // Online without a stock is not a reading.
    expect(
      (await api.mutation('dispenser.checkStatus', { id: added.data!.id, status: 'online' }, { token: h.staffToken })).error?.data.app?.fields?.stock,
    ).toBeTruthy();

    expect((await api.mutation('dispenser.rename', { id: added.data!.id, name: 'Desk' }, { token: h.ownerToken })).data?.name).toBe('Desk');
    const list = await api.query('dispenser.list', undefined, { token: h.staffToken });
    expect(list.data?.items).toMatchObject([{ id: added.data!.id, name: 'Desk', stock: 7, status: 'offline' }]);
  });

  it('staff report statuses but do not add, rename or delete', async () => {
    const h = await hotel();
    expect((await api.mutation('dispenser.add', { deviceId: deviceId(), name: 'x' }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    const d = (await api.mutation('dispenser.add', { deviceId: deviceId(), name: 'x' }, { token: h.ownerToken })).data!;
    expect((await api.mutation('dispenser.rename', { id: d.id, name: 'y' }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    expect((await api.mutation('dispenser.delete', { id: d.id }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    expect((await api.mutation('dispenser.delete', { id: d.id }, { token: h.ownerToken })).data).toEqual({ deleted: true });
  });

  it('hotel B gets "not found" on hotel A\'s dispenser and never sees it', async () => {
    const a = await hotel();
    const b = await hotel();
    const d = (await api.mutation('dispenser.add', { deviceId: deviceId(), name: 'A' }, { token: a.ownerToken })).data!;
    const calls = [
      api.mutation('dispenser.checkStatus', { id: d.id, status: 'online', stock: 1 }, { token: b.staffToken }),
      api.mutation('dispenser.rename', { id: d.id, name: 'B' }, { token: b.ownerToken }),
      api.mutation('dispenser.delete', { id: d.id }, { token: b.ownerToken }),
    ];
    for (const res of await Promise.all(calls)) expect(res.error?.data.app?.code, JSON.stringify(res.error)).toBe('NOT_FOUND');
    expect((await api.query('dispenser.list', undefined, { token: b.ownerToken })).data?.items).toEqual([]);
    expect(await ctx.deps.prisma.cardDispenser.findUniqueOrThrow({ where: { id: d.id } })).toMatchObject({
      name: 'A',
      stock: 0,
      status: 'offline',
      lastCheckedAt: null,
    });
  });
});
