import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff, createRooms } from '../../test/factories';
import { type TestContext } from '../../test/harness';
import { type SeamFake } from '../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../test/seam-context';
import { trpcClient } from '../../test/trpc-client';
import { countLockCall, lockCallCounts } from '../lock-cloud/call-budget';
import { refreshLockStatus, refreshOneLock } from './lock-status';

/**
 * Issue 38, third step (docs/seam.md, "Status"): the status cycle of a Seam account reads each
 * lock's online state and battery from Seam's lock list (one listing a cycle), never from gateways,
 * which Seam locks have none of. Against Seam's fake (test/seam-fake.ts), the real database; the
 * TTLock cycle's own calls are tested in accounts/lock-accounts.integration.test.ts.
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  seam = await seamTestContext();
  ({ fake, ctx } = seam);
  api = trpcClient(ctx.app);
});

afterAll(() => seam?.close());

/** A hotel with one room, its own Seam workspace with two locks (batteries 80% and 15%), connected, imported, the first paired. */
async function seamHotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['301']);
  const workspace = await fake.ours.addWorkspace('Status');
  const device = (name: string, battery: number) =>
    fake.ours.addDevice({ name, workspace_id: workspace.workspace_id, can_program_online_access_codes: true, properties: { battery_level: battery } });
  const door = await device('Room 301', 0.8);
  const store = await device('Store', 0.15);
  const connect = await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
  expect(connect.error, JSON.stringify(connect.error)).toBeUndefined();
  const accountId = connect.data!.id;
  expect((await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken })).data).toMatchObject({ total: 2, added: 2 });
  const lockOf = (deviceId: string) => ctx.deps.prisma.lock.findFirstOrThrow({ where: { hotelId: h.hotel.id, providerLockId: deviceId } });
  const doorLock = await lockOf(door.device_id);
  await ctx.deps.prisma.room.update({ where: { id: rooms[0]!.id }, data: { lockId: doorLock.id } });
  return { ...h, room: rooms[0]!, accountId, door: door.device_id, store: store.device_id, lockOf };
}

const messages = (roomId: number) => ctx.deps.prisma.lockMessage.findMany({ where: { roomId }, orderBy: { id: 'asc' }, select: { kind: true, content: true } });
const since = async () => (await fake.ours.calls()).length;
const callsSince = async (n: number) => (await fake.ours.calls()).slice(n).map((c) => c.path);

describe('the status cycle of a Seam account', () => {
  it("reads each lock's online state and battery from one listing a cycle, not from gateways; an offline device shows offline after the next cycle, and online again", async () => {
    const h = await seamHotel();
    let from = await since();
    const month = async () => (await lockCallCounts(ctx.deps, [h.accountId])).get(h.accountId)!.month;
    const counted = await month();
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    // One listing for the whole workspace: no gateway call, nothing per lock; counted in the account's calls.
    expect(await callsSince(from)).toEqual(['/locks/list']);
    expect(await month()).toBe(counted + 1);
    expect(await h.lockOf(h.door)).toMatchObject({ online: true, battery: 80, gatewayId: null, gatewayOnline: null, statusError: null, goneAt: null });
    expect(await h.lockOf(h.store)).toMatchObject({ online: true, battery: 15 });
    expect((await h.lockOf(h.door)).statusCheckedAt).not.toBeNull();

    // A second cycle: still online (a gateway-based cycle would have turned it offline here).
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await h.lockOf(h.door)).toMatchObject({ online: true, battery: 80 });

    // Seam reports the device offline, its battery down: shown after the next cycle, the room told, integrators too.
    await fake.ours.setOnline(h.door, false);
    await fake.ours.updateDevice(h.door, { properties: { battery_level: 0.12 } });
    from = await since();
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await callsSince(from)).toEqual(['/locks/list']);
    expect(await h.lockOf(h.door)).toMatchObject({ online: false, battery: 12, gatewayOnline: null });
    expect(await messages(h.room.id)).toEqual([
      { kind: 'lock_offline', content: '' },
      { kind: 'low_battery', content: '12' },
    ]);
    const events = await ctx.deps.prisma.domainEvent.findMany({
      where: { hotelId: h.hotel.id, kind: { in: ['lock.offline', 'lock.batteryLow'] } },
      select: { kind: true },
    });
    // The door's two (the store's 15% was already known low from the import: no news).
    expect(events.map((e) => e.kind).sort()).toEqual(['lock.batteryLow', 'lock.offline']);

    // Back online: shown after the next cycle.
    await fake.ours.setOnline(h.door, true);
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await h.lockOf(h.door)).toMatchObject({ online: true, battery: 12 });
    expect((await messages(h.room.id)).at(-1)).toEqual({ kind: 'lock_online', content: '' });
  });

  it('a Seam outage leaves each lock as it was, with the reason; a workspace over its budget is not asked', async () => {
    const h = await seamHotel();
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    const workspaceId = (await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: h.accountId } })).username;
    await fake.seam.simulateWorkspaceOutage(workspaceId, ['/locks/list']);
    try {
      expect(await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id })).toEqual({ checked: 0, failed: 2 });
    } finally {
      await fake.seam.simulateWorkspaceOutage(workspaceId, []);
    }
    expect(await h.lockOf(h.door)).toMatchObject({ online: true, battery: 80, statusError: 'cloud_error' });

    await ctx.deps.prisma.lockAccount.update({ where: { id: h.accountId }, data: { monthlyBudget: 100 } });
    await countLockCall(ctx.deps, h.accountId, Date.now(), 100);
    const from = await since();
    expect(await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id })).toEqual({ checked: 0, failed: 0 });
    expect(await callsSince(from)).toEqual([]);
  });

  it("says a door opened, left open and closed as the lock reports it (properties.door_open), as a TTLock door sensor's notifications do, and shows it on the lock's panel", async () => {
    const h = await seamHotel();
    const doorMessages = async () =>
      (await ctx.deps.prisma.lockMessage.findMany({ where: { roomId: h.room.id, kind: { startsWith: 'door_' } }, orderBy: { id: 'asc' } })).map((m) => [
        m.kind,
        m.readAt !== null,
      ]);
    // A lock that says nothing of its door: nothing said, no sensor.
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await h.lockOf(h.door)).toMatchObject({ doorOpen: null, doorOpenSince: null });
    // It reports its door closed: known, nothing to say; its panels told once (lock.changed), not at every read.
    const lockRow = await h.lockOf(h.door);
    const changes = () =>
      ctx.deps.prisma.domainEvent.count({ where: { hotelId: h.hotel.id, kind: 'lock.changed', ids: { path: ['lockId'], equals: lockRow.id } } });
    const before = await changes();
    await fake.ours.updateDevice(h.door, { properties: { door_open: false } });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await h.lockOf(h.door)).toMatchObject({ doorOpen: false, doorOpenSince: null });
    expect(await doorMessages()).toEqual([]);
    expect(await changes()).toBe(before + 1);
    // Opened: a note; still open at the next read: nothing more.
    await fake.ours.updateDevice(h.door, { properties: { door_open: true } });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    const opened = await h.lockOf(h.door);
    expect(opened).toMatchObject({ doorOpen: true });
    expect(opened.doorOpenSince).toBeInstanceOf(Date);
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await doorMessages()).toEqual([['door_open', true]]);
    expect(await changes()).toBe(before + 2);
    // Found open 11 minutes ago, last read 5 minutes ago: this read is the first past 10 minutes, an alarm, once.
    const now = Date.now();
    await ctx.deps.prisma.lock.update({
      where: { id: opened.id },
      data: { doorOpenSince: new Date(now - 11 * 60_000), statusCheckedAt: new Date(now - 5 * 60_000) },
    });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await doorMessages()).toEqual([
      ['door_open', true],
      ['door_left_open', false],
    ]);
    // The room's lock panel says so (lock.status): open, since when it was found open.
    const status = async () => (await api.query('lock.status', { roomId: h.room.id }, { token: h.ownerToken })).data?.door;
    expect(await status()).toEqual({ open: true, openedAt: new Date(now - 11 * 60_000).toISOString() });
    // Closed: a note, and the door known closed.
    await fake.ours.updateDevice(h.door, { properties: { door_open: false } });
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await h.lockOf(h.door)).toMatchObject({ doorOpen: false, doorOpenSince: null });
    expect(await doorMessages()).toEqual([
      ['door_open', true],
      ['door_left_open', false],
      ['door_closed', true],
    ]);
    expect(await status()).toEqual({ open: false, openedAt: null });
    // A lock that never said anything of its door: none on its panel.
    const other = await ctx.deps.prisma.lock.findFirstOrThrow({ where: { hotelId: h.hotel.id, providerLockId: h.store } });
    await ctx.deps.prisma.room.update({ where: { id: h.room.id }, data: { lockId: other.id } });
    expect(await status()).toBeNull();
  });

  it('tells a change once when reads of one lock meet (two clerks\' "Check now", a webhook\'s read): each saves only over the row it read', async () => {
    const h = await seamHotel();
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    const lock = await h.lockOf(h.door);
    expect(lock).toMatchObject({ online: true });
    const events = (kind: string) => ctx.deps.prisma.domainEvent.count({ where: { hotelId: h.hotel.id, kind, ids: { path: ['lockId'], equals: lock.id } } });
    const before = { changed: await events('lock.changed'), offline: await events('lock.offline') };
    // The door opens and the lock drops off; two clerks press "Check now" and a webhook prompts a read, at the same moment.
    await fake.ours.updateDevice(h.door, { properties: { door_open: true } });
    await fake.ours.setOnline(h.door, false);
    const checkNow = () => api.query('lock.status', { roomId: h.room.id, refresh: true }, { token: h.ownerToken });
    const [, first, second] = await Promise.all([refreshOneLock(ctx.deps, lock), checkNow(), checkNow()]);
    expect(first.error ?? second.error).toBeUndefined();
    expect(await h.lockOf(h.door)).toMatchObject({ online: false, doorOpen: true });
    // Said once each, as one read would have: a note on the room, an event for the panels and the webhooks.
    const told = (await messages(h.room.id)).map((m) => m.kind).filter((k) => k === 'door_open' || k === 'lock_offline');
    expect(told.sort()).toEqual(['door_open', 'lock_offline']);
    expect(await events('lock.changed')).toBe(before.changed + 1);
    expect(await events('lock.offline')).toBe(before.offline + 1);
  });
});
