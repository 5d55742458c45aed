import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '@console/shared';
import { lockCallbackPath } from '../../infra/locks';
import { startWorkers } from '../../jobs/workers';
import { refreshLockStatus } from '../../modules/locks/lock-status';
import { createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { TEST_PASSWORD, createAccount, createHotel, createRooms, uniqueMobile } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';

/**
 * The legacy actions of unlock records (`room/openHistory`, `room/openHistoryByPeople`,
 * `lock/checkHistory`), lock managers (`lock/managerList`, `managerAddNew`, `managerDelete`),
 * what a lock holds (`lock/inLockList`) and lock messages (`lock/messageList`, `deleteMessage`),
 * driven as an old client does (crypto-js envelope), against the lock simulator; and hotel B.
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let serverUrl: string;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.79.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [5, 15], lockIdBase: testLockIdBase(), callbackRetryDelaysMs: [100] });
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await control('PUT', '/config', { callbackUrl: `${serverUrl}${lockCallbackPath(ctx.config)}` });
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

/** The next status cycle of the hotel's lock accounts reads their lock lists (batteries), as an hour later. */
const listDue = (hotelId: number) => ctx.deps.prisma.lockAccount.updateMany({ where: { hotelId }, data: { locksReadAt: null } });

/** A hotel with one room and its simulated lock, an owner signed in over the legacy protocol, a guest with a password on the lock. */
async function legacyHotel() {
  const hotel = await createHotel(ctx.deps);
  const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
  const staff = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'staff' });
  const { rooms } = await createRooms(ctx.deps, hotel.id, ['K201']);
  const room = rooms[0]!;
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
  const lockId = String(lock.lockId);
  await pairSimLock(ctx.deps, hotel.id, room.id, lockId);
  const login = await client().call<{ token: string }>('login', { mobile: owner.mobile, password: TEST_PASSWORD });
  expect(login.errno).toBe(0);
  return { hotel, owner, staff, room, lockId, token: login.data.token };
}

async function guestWithPassword(h: Awaited<ReturnType<typeof legacyHotel>>, name: string, code: string) {
  const today = localDate(new Date(), 'Asia/Shanghai');
  const stay = await client().call<{ id: number }>(
    'room/tenant/update/checkIn',
    {
      room_id: h.room.id,
      check_in_time: `${today} 00:00:00`,
      // To tomorrow noon: a stay ending at today's 23:59 is already over when the run crosses the hotel's midnight.
      check_out_time: `${addDays(today, 1)} 12:00:00`,
      guests: [{ name, mobile: uniqueMobile() }],
      request_id: `la-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    },
    { token: h.token },
  );
  expect(stay.errno).toBe(0);
  const pw = await client().call<{ id: number }>('room/addPassword', { room_id: h.room.id, tenant_id: stay.data.id, password: code }, { token: h.token });
  expect(pw.errno, JSON.stringify(pw)).toBe(0);
  await until(
    'the password on the lock',
    async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: pw.data.id } })).deliveryState === 'on_lock',
  );
  return { stayId: stay.data.id, passwordId: pw.data.id };
}

interface LegacyRecord {
  room_id: number;
  open_time: string;
  content: string;
  content_text: string;
  style: string;
  style_text: string;
  success: number;
  user_name: string;
  credential: string | null;
}

describe('unlock records', () => {
  it('room/openHistory, room/openHistoryByPeople and lock/checkHistory list what the lock recorded, named and translated', async () => {
    const h = await legacyHotel();
    const { passwordId } = await guestWithPassword(h, 'Hana Sato', '407215');
    await control('POST', `/locks/${h.lockId}/use`, { passcode: '407215' });
    await control('POST', `/locks/${h.lockId}/use`, { passcode: '000001' });
    const history = await until('two records', async () => {
      const res = await client('zh-CN').call<{ list: LegacyRecord[]; total: number }>('room/openHistory', { room_id: h.room.id }, { token: h.token });
      return res.errno === 0 && res.data.total === 2 ? res.data : null;
    });
    const opened = history.list.find((r) => r.success === 1)!;
    expect(opened).toMatchObject({ room_id: h.room.id, content: 'opened', style: 'password', user_name: 'Hana Sato', credential: `password:${passwordId}` });
    expect(opened.content_text).toMatch(/\p{Script=Han}/u);
    expect(opened.open_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(history.list.find((r) => r.success === 0)).toMatchObject({ content: 'open_refused' });

    const byPeople = await client().call<{ list: LegacyRecord[]; total: number }>('room/openHistoryByPeople', { keyword: 'hana' }, { token: h.token });
    expect(byPeople.data.list.map((r) => r.user_name)).toEqual(['Hana Sato']);
    const byCredential = await client().call<{ total: number }>('room/openHistoryByPeople', { credential: `password:${passwordId}` }, { token: h.token });
    expect(byCredential.data.total).toBe(1);
    const byLock = await client().call<{ total: number }>('lock/checkHistory', { lock_id: h.lockId }, { token: h.token });
    expect(byLock.data.total).toBe(2);
    const byRoom = await client().call<{ total: number }>(
      'lock/checkHistory',
      { room_id: h.room.id, start_date: '2020-01-01', end_date: '2020-01-02' },
      { token: h.token },
    );
    expect(byRoom.data.total).toBe(0);

    const bad = await client().call('lock/checkHistory', { room_id: h.room.id, start_date: '2026-02-30' }, { token: h.token });
    expect(bad.errno).toBe(100001);
    expect(Object.keys((bad.data as { fields: Record<string, string> }).fields)).toEqual(['start_date']);
    const none = await client().call('lock/checkHistory', {}, { token: h.token });
    expect(none.errno).toBe(100001);
    expect(Object.keys((none.data as { fields: Record<string, string> }).fields)).toEqual(['room_id']);
  });
});

describe('lock managers, contents and messages', () => {
  it('adds, lists and deletes managers; reads the lock back with drift; lists and deletes messages', async () => {
    const h = await legacyHotel();
    const added = await client().call<{ id: number }>(
      'lock/managerAddNew',
      { room_id: h.room.id, name: 'Locksmith Wang', mobile: '13912345678' },
      { token: h.token },
    );
    expect(added.errno).toBe(0);
    const member = await client().call<{ id: number }>('lock/managerAddNew', { lock_id: h.lockId, staff_id: h.staff.id }, { token: h.token });
    expect(member.errno).toBe(0);
    const again = await client().call('lock/managerAddNew', { room_id: h.room.id, staff_id: h.staff.id }, { token: h.token });
    expect(again.errno).toBe(100006);
    const noName = await client().call('lock/managerAddNew', { room_id: h.room.id }, { token: h.token });
    expect(noName.errno).toBe(100001);
    const list = await client().call<{ list: { id: number; name: string; staff_id: number | null }[] }>(
      'lock/managerList',
      { room_id: h.room.id },
      { token: h.token },
    );
    expect(list.data.list.map((m) => m.id)).toEqual([added.data.id, member.data.id]);
    expect(list.data.list[0]).toMatchObject({ name: 'Locksmith Wang', staff_id: null });
    expect((await client().call('lock/managerDelete', { id: added.data.id }, { token: h.token })).errno).toBe(0);
    expect((await client().call<{ list: unknown[] }>('lock/managerList', { room_id: h.room.id }, { token: h.token })).data.list).toHaveLength(1);

    await guestWithPassword(h, 'Omar Aziz', '508326');
    await control('POST', `/locks/${h.lockId}/drift`, { kind: 'passcode', action: 'plant', code: '135791', name: 'by hand', cloud: true });
    const contents = await client('ar').call<{ list: { password: string; drift: string; drift_text: string }[] }>(
      'lock/inLockList',
      { room_id: h.room.id },
      { token: h.token },
    );
    expect(contents.errno).toBe(0);
    expect(Object.fromEntries(contents.data.list.map((i) => [i.password, i.drift]))).toEqual({ '508326': 'ok', '135791': 'unmanaged' });
    expect(contents.data.list[0]!.drift_text).toMatch(/\p{Script=Arabic}/u);

    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    await control('PATCH', `/locks/${h.lockId}`, { battery: 9 });
    // Batteries come with the account's lock list, read once an hour: as if that hour had passed.
    await listDue(h.hotel.id);
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    const messages = await client().call<{ list: { id: number; type: string; content: string; is_read: number }[]; unread: number }>(
      'lock/messageList',
      { room_id: h.room.id },
      { token: h.token },
    );
    expect(messages.data.list).toEqual([expect.objectContaining({ type: 'low_battery', content: 'Low battery (9%)', is_read: 0 })]);
    expect(messages.data.unread).toBe(1);
    expect((await client().call('lock/deleteMessage', { id: messages.data.list[0]!.id }, { token: h.token })).errno).toBe(0);
    expect((await client().call<{ total: number }>('lock/messageList', {}, { token: h.token })).data.total).toBe(0);
  });
});

describe('another hotel', () => {
  it('gets 100005 for the rooms, locks, managers and messages of hotel A, and changes nothing', async () => {
    const a = await legacyHotel();
    const b = await legacyHotel();
    const manager = await client().call<{ id: number }>('lock/managerAddNew', { room_id: a.room.id, name: 'Porter' }, { token: a.token });
    await refreshLockStatus(ctx.deps, { hotelId: a.hotel.id });
    await control('PATCH', `/locks/${a.lockId}`, { battery: 3 });
    await listDue(a.hotel.id);
    await refreshLockStatus(ctx.deps, { hotelId: a.hotel.id });
    const message = (await client().call<{ list: { id: number }[] }>('lock/messageList', {}, { token: a.token })).data.list[0]!;
    for (const [path, payload] of [
      ['room/openHistory', { room_id: a.room.id }],
      ['room/openHistoryByPeople', { room_id: a.room.id }],
      ['lock/checkHistory', { room_id: a.room.id }],
      ['lock/checkHistory', { lock_id: a.lockId }],
      ['lock/managerList', { room_id: a.room.id }],
      ['lock/managerAddNew', { room_id: a.room.id, name: 'Intruder' }],
      ['lock/managerDelete', { id: manager.data.id }],
      ['lock/inLockList', { room_id: a.room.id }],
      ['lock/messageList', { room_id: a.room.id }],
      ['lock/deleteMessage', { id: message.id }],
    ] as const) {
      const res = await client().call(path, payload, { token: b.token });
      expect(res.errno, `${path} ${JSON.stringify(payload)}`).toBe(100005);
    }
    expect((await client().call<{ list: unknown[] }>('lock/managerList', { room_id: a.room.id }, { token: a.token })).data.list).toHaveLength(1);
    expect((await client().call<{ total: number }>('lock/messageList', {}, { token: a.token })).data.total).toBe(1);
  });
});
