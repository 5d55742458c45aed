import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { startWorkers } from '../../jobs/workers';
import { createTestContext, testLockIdBase, testMeta, type TestContext } from '../../test/harness';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { TEST_PASSWORD, createAccount, createHotel, createRooms, uniqueMobile } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../../modules/auth/session.service';
import { legacyTime } from './format';

/**
 * The legacy password actions (`room/password`, `addPassword`, `passwordList`, `passwordHistory`,
 * `deletePassword`, `callbackPassword`, `tenant/limitPassword`) driven as an old client does
 * (crypto-js envelope), with the real delivery engine, the real TTLock adapter and the lock
 * simulator behind them: what the answer says, and what the lock then holds.
 */
let sim: LockSim;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.78.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [5, 20], lockIdBase: testLockIdBase() });
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

interface SimPasscode {
  keyboardPwdId: number;
  keyboardPwd: string;
  keyboardPwdName: string;
  startDate: number;
  endDate: number;
  onLock: boolean;
}
const passcodesOn = async (lockId: string) => (await control<{ lock: { passcodes: SimPasscode[] } }>('GET', `/locks/${lockId}`)).lock.passcodes;
const use = (lockId: string, passcode: string) => control<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { passcode });

const tz = 'Asia/Shanghai';
const today = () => localDate(new Date(), tz);
/** `YYYY-MM-DD HH:mm:ss` in the hotel's zone, `days` from today. */
const at = (days: number, time: string) => `${addDays(today(), days)} ${time}`;
const instant = (local: string) => zonedToInstant(local, tz)!;

/** A hotel whose rooms each have a simulated lock behind a gateway, with an owner signed in over the legacy protocol. */
async function legacyHotel() {
  const hotel = await createHotel(ctx.deps);
  const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
  const staff = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'staff' });
  const { rooms } = await createRooms(ctx.deps, hotel.id, ['P101', 'P102']);
  const lockIds: string[] = [];
  for (const room of rooms) {
    const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
    const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
    await pairSimLock(ctx.deps, hotel.id, room.id, lock.lockId);
    lockIds.push(String(lock.lockId));
  }
  const login = await client().call<{ token: string }>('login', { mobile: owner.mobile, password: TEST_PASSWORD });
  expect(login.errno).toBe(0);
  return {
    hotel,
    owner,
    staff,
    rooms: rooms as [(typeof rooms)[number], (typeof rooms)[number]],
    lockIds: lockIds as [string, string],
    token: login.data.token,
  };
}

/** A guest checked into the hotel's first room over the legacy protocol, leaving in `days` days at noon. */
async function checkIn(h: Awaited<ReturnType<typeof legacyHotel>>, name = 'Lin Wei', days = 2, roomIndex: 0 | 1 = 0) {
  const res = await client().call<{ id: number; check_out_time: string }>(
    'room/tenant/update/checkIn',
    {
      room_id: h.rooms[roomIndex].id,
      check_in_time: at(-1, '15:00:00'),
      check_out_time: at(days, '12:00:00'),
      guests: [{ name, mobile: uniqueMobile() }],
      request_id: `pw-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    },
    { token: h.token },
  );
  expect(res.errno).toBe(0);
  return res.data;
}

/** Polls the database (never a fixed sleep) until the password is in one of `states`. */
async function waitForState(id: number, states: string[], ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const row = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
    if (states.includes(row.deliveryState)) return row;
    if (Date.now() > until) throw new Error(`password ${id} stayed ${row.deliveryState} (${row.lastError ?? 'no error'}), expected ${states.join(' or ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface LegacyPassword {
  id: number;
  room_id: number;
  room_name: string;
  tenant_id: number | null;
  staff_id: number | null;
  type: string;
  name: string;
  password: string | null;
  start_time: string;
  end_time: string | null;
  permanent: number;
  expired: number;
  state: string;
  state_text: string;
  error: string | null;
  error_text: string | null;
  revoke_reason: string | null;
  revoke_reason_text: string | null;
}
interface LegacyPage<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

describe('issuing passwords over the legacy protocol', () => {
  it('adds a custom password for the stay in the room: valid for the stay, listed with its delivery state, and it reaches the lock', async () => {
    const h = await legacyHotel();
    const stay = await checkIn(h);
    const c = client();
    const added = await c.call<LegacyPassword>('room/addPassword', { room_id: h.rooms[0].id, tenant_id: stay.id, password: '583916' }, { token: h.token });
    expect(added).toMatchObject({
      errno: 0,
      data: {
        room_id: h.rooms[0].id,
        room_name: 'P101',
        tenant_id: stay.id,
        staff_id: null,
        type: 'custom',
        name: 'Lin Wei',
        password: '583916',
        end_time: stay.check_out_time,
        permanent: 0,
        expired: 0,
        state: 'pending',
        state_text: 'Sending to the lock',
        error: null,
        revoke_reason: null,
      },
    });
    expect(await waitForState(added.data.id, ['on_lock', 'failed'])).toMatchObject({ deliveryState: 'on_lock', lastError: null });

    const list = await c.call<LegacyPage<LegacyPassword>>('room/passwordList', { room_id: h.rooms[0].id }, { token: h.token });
    expect(list.data).toMatchObject({
      total: 1,
      page: 1,
      limit: 20,
      list: [{ id: added.data.id, state: 'on_lock', state_text: 'On the lock', password: '583916' }],
    });
    // The lock holds it until the stay's check-out, and it opens the door.
    const onLock = (await passcodesOn(h.lockIds[0])).find((p) => p.keyboardPwd === '583916')!;
    expect(onLock).toMatchObject({ onLock: true, endDate: instant(stay.check_out_time).getTime() });
    expect(onLock.keyboardPwdName).toContain(`#P${added.data.id}`);
    expect(await use(h.lockIds[0], '583916')).toMatchObject({ opened: true });
    // The same list in Chinese: the state in the request's language.
    expect(
      (await c.call<LegacyPage<LegacyPassword>>('room/passwordList', { room_id: h.rooms[0].id }, { token: h.token, language: 'zh-CN' })).data.list[0]!
        .state_text,
    ).toBe('已下发到门锁');
  });

  it('issues over-the-air (period and permanent), one-time and custom passwords for a staff member, a name or a phone', async () => {
    const h = await legacyHotel();
    const c = client();
    const room = h.rooms[1].id;
    const end = at(3, '18:00:00');
    const air = await c.call<LegacyPassword>('room/password', { room_id: room, type: 'air', staff_id: h.staff.id, end_time: end }, { token: h.token });
    expect(air).toMatchObject({
      errno: 0,
      data: { type: 'air', staff_id: h.staff.id, name: h.staff.nickname, password: null, end_time: end, permanent: 0, state: 'pending' },
    });
    const permanent = await c.call<LegacyPassword>('room/password', { room_id: room, type: 'air', mobile: '138 0013 8000' }, { token: h.token });
    expect(permanent.data).toMatchObject({ type: 'air', name: '13800138000', end_time: null, permanent: 1 });
    const once = await c.call<LegacyPassword>('room/password', { room_id: room, type: 'one_time', name: 'Plumber' }, { token: h.token });
    // A one-time password works within 6 hours of its start (whole hours).
    expect(instant(once.data.end_time!).getTime() - instant(once.data.start_time).getTime()).toBe(6 * 3_600_000);
    const custom = await c.call<LegacyPassword>(
      'room/password',
      { room_id: room, type: 'custom', password: '730194', name: 'Night porter', start_time: at(0, '00:00:00'), end_time: end },
      { token: h.token },
    );
    expect(custom.data).toMatchObject({ type: 'custom', name: 'Night porter', password: '730194', start_time: at(0, '00:00:00'), end_time: end });

    const rows = await Promise.all([air, permanent, once, custom].map((p) => waitForState(p.data.id, ['on_lock', 'failed'])));
    expect(rows.map((r) => r.deliveryState)).toEqual(['on_lock', 'on_lock', 'on_lock', 'on_lock']);
    // The lock cloud generated the codes; the list shows them.
    const list = await c.call<LegacyPage<LegacyPassword>>('room/passwordList', { room_id: room }, { token: h.token });
    expect(list.data.total).toBe(4);
    for (const p of list.data.list) expect(p.password).toMatch(/^\d{6,9}$/);
    const codes = (await passcodesOn(h.lockIds[1])).map((p) => p.keyboardPwd).sort();
    expect(codes).toEqual(list.data.list.map((p) => p.password).sort());
    expect(await use(h.lockIds[1], list.data.list.find((p) => p.id === permanent.data.id)!.password!)).toMatchObject({ opened: true });
  });
});

describe('taking passwords off over the legacy protocol', () => {
  it('deletes and calls back: both take the password off the lock and into the history, each with its reason', async () => {
    const h = await legacyHotel();
    const c = client();
    const room = h.rooms[0].id;
    const issue = (password: string, name: string) => c.call<LegacyPassword>('room/addPassword', { room_id: room, password, name }, { token: h.token });
    const deleted = (await issue('604913', 'Deleted')).data;
    const called = (await issue('612832', 'Called back')).data;
    const kept = (await issue('620751', 'Kept')).data;
    await Promise.all([deleted, called, kept].map((p) => waitForState(p.id, ['on_lock'])));

    const del = await c.call<LegacyPassword>('room/deletePassword', { password_id: deleted.id }, { token: h.token });
    expect(del).toMatchObject({ errno: 0, data: { id: deleted.id, state: 'removing', revoke_reason: 'manual', revoke_reason_text: 'Revoked by staff' } });
    const back = await c.call<LegacyPassword>('room/callbackPassword', { password_id: called.id }, { token: h.token });
    expect(back).toMatchObject({
      errno: 0,
      data: { id: called.id, state: 'removing', revoke_reason: 'called_back', revoke_reason_text: 'Called back by staff' },
    });
    await Promise.all([deleted, called].map((p) => waitForState(p.id, ['removed'])));
    expect(await use(h.lockIds[0], '604913')).toMatchObject({ opened: false });
    expect(await use(h.lockIds[0], '612832')).toMatchObject({ opened: false });
    expect(await use(h.lockIds[0], '620751')).toMatchObject({ opened: true });
    // Again: answered as it is, nothing more to do.
    expect((await c.call<LegacyPassword>('room/deletePassword', { password_id: deleted.id }, { token: h.token })).data).toMatchObject({
      state: 'removed',
      revoke_reason: 'manual',
    });

    const list = await c.call<LegacyPage<LegacyPassword>>('room/passwordList', { room_id: room }, { token: h.token });
    expect(list.data.list.map((p) => p.id)).toEqual([kept.id]);
    const history = await c.call<LegacyPage<LegacyPassword>>('room/passwordHistory', { room_id: room }, { token: h.token });
    expect(history.data).toMatchObject({ total: 2 });
    expect(history.data.list.map((p) => [p.id, p.state, p.revoke_reason]).sort()).toEqual(
      [
        [deleted.id, 'removed', 'manual'],
        [called.id, 'removed', 'called_back'],
      ].sort(),
    );
  });

  it('keeps failed and expired passwords in the paged history, with the failure in the request language', async () => {
    const h = await legacyHotel();
    const c = client();
    const room = h.rooms[1].id;
    await control('PATCH', `/locks/${h.lockIds[1]}`, { online: false });
    const failed = (await c.call<LegacyPassword>('room/addPassword', { room_id: room, password: '730194', name: 'Offline' }, { token: h.token })).data;
    expect(await waitForState(failed.id, ['failed', 'on_lock'])).toMatchObject({ deliveryState: 'failed', lastError: 'lock_offline' });
    await control('PATCH', `/locks/${h.lockIds[1]}`, { online: true });
    const ended = (await c.call<LegacyPassword>('room/addPassword', { room_id: room, password: '748392', name: 'Ended' }, { token: h.token })).data;
    await waitForState(ended.id, ['on_lock']);
    // Its validity ends (as the lock sees it, it simply stops working).
    await ctx.deps.prisma.lockPassword.update({
      where: { id: ended.id },
      data: { validFrom: new Date(Date.now() - 3 * 3_600_000), validUntil: new Date(Date.now() - 60_000) },
    });

    const first = await c.call<LegacyPage<LegacyPassword>>('room/passwordHistory', { room_id: room, page: 1, limit: 1 }, { token: h.token, language: 'de' });
    expect(first.data).toMatchObject({ total: 2, page: 1, limit: 1, list: [{ id: ended.id, expired: 1, state: 'on_lock' }] });
    const second = await c.call<LegacyPage<LegacyPassword>>(
      'room/passwordHistory',
      { room_id: room, page: '2', limit: '1' },
      { token: h.token, language: 'de' },
    );
    expect(second.data.list).toMatchObject([
      { id: failed.id, state: 'failed', state_text: 'Nicht übertragen', error: 'lock_offline', error_text: 'Das Schloss ist offline' },
    ]);
    // A failed one is still in the list, to be retried or deleted; the expired one is not.
    const list = await c.call<LegacyPage<LegacyPassword>>('room/passwordList', { room_id: room }, { token: h.token });
    expect(list.data.list.map((p) => p.id)).toEqual([failed.id]);
    expect(await c.call('room/passwordHistory', { room_id: room, page: 0 }, { token: h.token })).toMatchObject({
      errno: 100001,
      data: { fields: { page: expect.any(String) } },
    });
    expect(await c.call('room/passwordHistory', { room_id: room, limit: 101 }, { token: h.token })).toMatchObject({
      errno: 100001,
      data: { fields: { limit: expect.any(String) } },
    });
  });
});

describe('limiting a tenant password over the legacy protocol', () => {
  it("shortens the stay's passwords on the lock (a custom one in place, a generated one by a new code), takes a one-time one off, and leaves other passwords alone", async () => {
    const h = await legacyHotel();
    const stay = await checkIn(h, 'Limit Guest', 3);
    const c = client();
    const room = h.rooms[0].id;
    const custom = (await c.call<LegacyPassword>('room/addPassword', { room_id: room, tenant_id: stay.id, password: '583916' }, { token: h.token })).data;
    const air = (await c.call<LegacyPassword>('room/password', { room_id: room, tenant_id: stay.id, type: 'air' }, { token: h.token })).data;
    const once = (await c.call<LegacyPassword>('room/password', { room_id: room, tenant_id: stay.id, type: 'one_time' }, { token: h.token })).data;
    const staffs = (
      await c.call<LegacyPassword>('room/password', { room_id: room, type: 'custom', password: '604913', staff_id: h.staff.id }, { token: h.token })
    ).data;
    const before = await Promise.all([custom, air, once, staffs].map((p) => waitForState(p.id, ['on_lock'])));
    const lockBefore = await passcodesOn(h.lockIds[0]);

    // Three whole hours from this hour: before the one-time password's 6 hours end.
    const end = legacyTime(new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3 * 3_600_000), tz)!;
    const limited = await c.call<{
      tenant_id: number;
      end_time: string;
      limited: number;
      replaced: number;
      revoked: number;
      list: (LegacyPassword & { replaces_id: number | null })[];
    }>('room/tenant/limitPassword', { tenant_id: stay.id, end_time: end }, { token: h.token });
    expect(limited).toMatchObject({ errno: 0, data: { tenant_id: stay.id, end_time: end, limited: 2, replaced: 1, revoked: 1 } });
    // The generated code is replaced by a new one for the new end (TTLock cannot change one the guest has not used).
    const airNew = limited.data.list.find((p) => p.replaces_id === air.id)!;
    expect(limited.data.list.map((p) => [p.id, p.end_time]).sort()).toEqual(
      [
        [custom.id, end],
        [air.id, air.end_time],
        [airNew.id, end],
        [once.id, once.end_time],
      ].sort(),
    );
    expect(limited.data.list.find((p) => p.id === once.id)).toMatchObject({ state: 'removing', revoke_reason: 'limited' });
    expect(limited.data.list.find((p) => p.id === air.id)).toMatchObject({ state: 'removing', revoke_reason: 'replaced' });

    const customAfter = await waitForState(custom.id, ['on_lock', 'failed']);
    const airAfter = await waitForState(airNew.id, ['on_lock', 'failed']);
    expect(await waitForState(once.id, ['removed', 'remove_failed'])).toMatchObject({ deliveryState: 'removed', revokeReason: 'limited' });
    expect(await waitForState(air.id, ['removed', 'remove_failed'])).toMatchObject({ deliveryState: 'removed', revokeReason: 'replaced' });
    // The custom password: a new version went to the lock with the same code and the lock's same id for it.
    expect(customAfter).toMatchObject({ deliveryState: 'on_lock', version: before[0]!.version + 1, providerRef: before[0]!.providerRef, code: '583916' });
    // The generated one: a new code on the lock, the old one gone.
    expect(airAfter).toMatchObject({ deliveryState: 'on_lock', code: expect.stringMatching(/^\d{6,9}$/) });
    expect(airAfter.code).not.toBe(before[1]!.code);

    // Read back from the lock: the new end; the staff password untouched; the one-time one and the old generated code gone.
    const lockAfter = await passcodesOn(h.lockIds[0]);
    const byRef = (ref: string | null) => lockAfter.find((p) => String(p.keyboardPwdId) === ref);
    expect(byRef(customAfter.providerRef)).toMatchObject({ keyboardPwd: '583916', endDate: instant(end).getTime() });
    expect(byRef(airAfter.providerRef)).toMatchObject({ keyboardPwd: airAfter.code, endDate: instant(end).getTime() });
    expect(byRef(before[1]!.providerRef)).toBeUndefined();
    expect(byRef(before[2]!.providerRef)).toBeUndefined();
    expect(byRef(before[3]!.providerRef)).toEqual(lockBefore.find((p) => String(p.keyboardPwdId) === before[3]!.providerRef));
    expect(await use(h.lockIds[0], '583916')).toMatchObject({ opened: true });
    expect(await use(h.lockIds[0], airAfter.code!)).toMatchObject({ opened: true });

    // Limiting again to a later end changes nothing: passwords are never lengthened by it.
    expect(
      (await c.call<{ limited: number; revoked: number }>('room/tenant/limitPassword', { tenant_id: stay.id, end_time: at(2, '10:00:00') }, { token: h.token }))
        .data,
    ).toMatchObject({ limited: 0, replaced: 0, revoked: 0 });
    expect((await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: custom.id } })).version).toBe(customAfter.version);
  });

  it('is also the tRPC procedure password.limit', async () => {
    const h = await legacyHotel();
    const stay = await checkIn(h, 'Trpc Guest', 2, 1);
    const web = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'web', meta: testMeta() });
    const custom = (
      await client().call<LegacyPassword>('room/addPassword', { room_id: h.rooms[1].id, tenant_id: stay.id, password: '583916' }, { token: h.token })
    ).data;
    await waitForState(custom.id, ['on_lock']);
    const end = instant(at(1, '09:00:00'));
    const api = trpcClient(ctx.app);
    const res = await api.mutation('password.limit', { stayId: stay.id, validUntil: end.toISOString() }, { token: web.token });
    expect(res.data).toMatchObject({
      stayId: stay.id,
      limited: 1,
      revoked: 0,
      items: [{ id: custom.id, validUntil: end.toISOString(), deliveryState: 'pending' }],
    });
    await waitForState(custom.id, ['on_lock']);
    expect((await passcodesOn(h.lockIds[1])).find((p) => p.keyboardPwd === '583916')).toMatchObject({ endDate: end.getTime() });
  });

  it('refuses an end in the past, after the check-out, or not a time, and a stay that has ended, with translated errors naming end_time', async () => {
    const h = await legacyHotel();
    const stay = await checkIn(h, 'Refused Guest', 2);
    const c = client();
    const custom = (await c.call<LegacyPassword>('room/addPassword', { room_id: h.rooms[0].id, tenant_id: stay.id, password: '583916' }, { token: h.token }))
      .data;
    await waitForState(custom.id, ['on_lock']);
    const limit = (payload: Record<string, unknown>, language = 'en') =>
      c.call<{ fields?: Record<string, string> }>('room/tenant/limitPassword', payload, { token: h.token, language });

    expect(await limit({ tenant_id: stay.id, end_time: at(-1, '10:00:00') })).toMatchObject({
      errno: 100001,
      errmsg: 'The new end time must be in the future',
      data: { fields: { end_time: 'The new end time must be in the future' } },
    });
    expect(await limit({ tenant_id: stay.id, end_time: at(5, '10:00:00') }, 'zh-CN')).toMatchObject({
      errno: 100001,
      errmsg: '入住的密码有效期不能晚于退房时间',
      data: { fields: { end_time: '入住的密码有效期不能晚于退房时间' } },
    });
    expect(await limit({ tenant_id: stay.id, end_time: '2026-02-30 10:00:00' })).toMatchObject({
      errno: 100001,
      data: { fields: { end_time: 'Incorrect time format' } },
    });
    expect(await limit({ tenant_id: stay.id })).toMatchObject({ errno: 100001, data: { fields: { end_time: expect.any(String) } } });
    expect(await limit({ tenant_id: '4.0', end_time: at(1, '10:00:00') })).toMatchObject({
      errno: 100001,
      data: { fields: { tenant_id: expect.any(String) } },
    });
    expect(await limit({ tenant_id: 999_999_999, end_time: at(1, '10:00:00') })).toMatchObject({ errno: 100005, errmsg: 'The stay does not exist.' });

    expect((await c.call('room/checkOut', { stay_id: stay.id }, { token: h.token })).errno).toBe(0);
    expect(await limit({ tenant_id: stay.id, end_time: at(1, '10:00:00') })).toMatchObject({
      errno: 100006,
      errmsg: 'This stay has ended; this action is no longer possible.',
    });
    // Nothing of it reached the password: the check-out took it off, with its own reason.
    expect(await waitForState(custom.id, ['removed'])).toMatchObject({ revokeReason: 'check_out', validUntil: instant(at(2, '12:00:00')) });
  });
});

describe('bad input and refusals of the password actions', () => {
  it('answers translated errors that name the fields the client sent', async () => {
    const h = await legacyHotel();
    const stay = await checkIn(h);
    const other = await checkIn(h, 'Other Room', 2, 1);
    const c = client();
    const room = h.rooms[0].id;
    const call = (path: string, payload: Record<string, unknown>, language = 'en') =>
      c.call<{ fields?: Record<string, string> } | null>(path, payload, { token: h.token, language });

    const format = 'Incorrect password format: a custom password is 6 digits';
    expect(await call('room/addPassword', { room_id: room, password: '12345', name: 'Short' })).toMatchObject({
      errno: 100001,
      errmsg: format,
      data: { fields: { password: format } },
    });
    expect(await call('room/addPassword', { room_id: room, password: 583916, name: 'Number' })).toMatchObject({
      errno: 100001,
      data: { fields: { password: format } },
    });
    expect(await call('room/addPassword', { room_id: room, name: 'Missing' })).toMatchObject({ errno: 100001, data: { fields: { password: format } } });
    expect(await call('room/password', { room_id: room, type: 'custom', name: 'No code' })).toMatchObject({
      errno: 100001,
      errmsg: format,
      data: { fields: { password: format } },
    });
    expect(await call('room/password', { room_id: room, type: 'custom', password: '58391a', name: 'Letters' }, 'zh-CN')).toMatchObject({
      errno: 100001,
      errmsg: '密码格式不正确：自定义密码为 6 位数字',
    });
    expect(await call('room/password', { room_id: room, type: 'laser', name: 'Kind' })).toMatchObject({
      errno: 100001,
      data: { fields: { type: 'Choose a password type' } },
    });
    expect(await call('room/password', { room_id: room, type: 'air' })).toMatchObject({
      errno: 100001,
      errmsg: 'Enter a name or phone number',
      data: { fields: { name: 'Enter a name or phone number' } },
    });
    expect(await call('room/password', { room_id: room, type: 'air', mobile: 'call me' })).toMatchObject({
      errno: 100001,
      data: { fields: { mobile: expect.any(String) } },
    });
    expect(await call('room/password', { room_id: '1.0', type: 'air', name: 'Id' })).toMatchObject({
      errno: 100001,
      data: { fields: { room_id: expect.any(String) } },
    });
    expect(await call('room/password', { room_id: room, type: 'air', name: 'Date', start_time: '2026-02-30 10:00:00' })).toMatchObject({
      errno: 100001,
      data: { fields: { start_time: 'Incorrect time format' } },
    });
    expect(
      await call('room/password', { room_id: room, type: 'air', name: 'Order', start_time: at(2, '10:00:00'), end_time: at(1, '10:00:00') }),
    ).toMatchObject({ errno: 100001, data: { fields: { end_time: 'The end must be later than the start' } } });
    expect(await call('room/password', { room_id: room, type: 'air', tenant_id: other.id })).toMatchObject({
      errno: 100001,
      data: { fields: { tenant_id: 'This stay belongs to another room' } },
    });
    expect(await call('room/password', { room_id: room, type: 'air', staff_id: 999_999_999 })).toMatchObject({
      errno: 100005,
      errmsg: 'This staff member does not belong to the hotel',
    });
    expect(await call('room/password', { room_id: 999_999_999, type: 'air', name: 'Room' })).toMatchObject({ errno: 100005 });
    expect(await call('room/password', { room_id: room, type: 'air', tenant_id: 999_999_999 })).toMatchObject({
      errno: 100005,
      errmsg: 'The stay does not exist.',
    });
    expect(await call('room/passwordList', {})).toMatchObject({ errno: 100001, data: { fields: { room_id: expect.any(String) } } });
    expect(await call('room/deletePassword', { password_id: 999_999_999 })).toMatchObject({
      errno: 100005,
      errmsg: 'The password does not exist or has been deleted.',
    });
    expect(await call('room/callbackPassword', { password_id: 'abc' })).toMatchObject({ errno: 100001, data: { fields: { password_id: expect.any(String) } } });

    // The same code twice on one lock: a conflict, said before trying.
    const first = await call('room/addPassword', { room_id: room, tenant_id: stay.id, password: '583916' });
    expect(first.errno).toBe(0);
    expect(await call('room/addPassword', { room_id: room, password: '583916', name: 'Twin' })).toMatchObject({
      errno: 100006,
      errmsg: 'The same password is already on this lock',
      data: { fields: { password: 'The same password is already on this lock' } },
    });
    // A stay that has ended gets no password.
    expect((await c.call('room/checkOut', { stay_id: other.id }, { token: h.token })).errno).toBe(0);
    expect(await call('room/password', { room_id: h.rooms[1].id, type: 'air', tenant_id: other.id })).toMatchObject({
      errno: 100006,
      errmsg: 'This stay has ended; this action is no longer possible.',
    });
    // Nothing was written by the refusals: the one accepted password is all there is.
    expect(await ctx.deps.prisma.lockPassword.count({ where: { hotelId: h.hotel.id } })).toBe(1);
  });

  it('answers hotel B with 100005 for hotel A rooms, passwords and tenants, and changes nothing of A', async () => {
    const a = await legacyHotel();
    const b = await legacyHotel();
    const stay = await checkIn(a, 'A guest');
    const c = client();
    const password = (await c.call<LegacyPassword>('room/addPassword', { room_id: a.rooms[0].id, tenant_id: stay.id, password: '583916' }, { token: a.token }))
      .data;
    await waitForState(password.id, ['on_lock']);
    const before = await ctx.deps.prisma.lockPassword.findMany({ where: { hotelId: a.hotel.id }, orderBy: { id: 'asc' } });
    const lockBefore = await passcodesOn(a.lockIds[0]);

    const calls: [string, Record<string, unknown>][] = [
      ['room/password', { room_id: a.rooms[0].id, type: 'air', name: 'Intruder' }],
      ['room/password', { room_id: b.rooms[0].id, type: 'air', tenant_id: stay.id }],
      ['room/addPassword', { room_id: a.rooms[0].id, password: '604913', name: 'Intruder' }],
      ['room/passwordList', { room_id: a.rooms[0].id }],
      ['room/passwordHistory', { room_id: a.rooms[0].id }],
      ['room/passwordList', { room_id: b.rooms[0].id, tenant_id: stay.id }],
      ['room/deletePassword', { password_id: password.id }],
      ['room/callbackPassword', { password_id: password.id }],
      ['room/tenant/limitPassword', { tenant_id: stay.id, end_time: at(1, '10:00:00') }],
    ];
    for (const [path, payload] of calls) {
      const res = await c.call(path, payload, { token: b.token });
      expect([path, res.errno]).toEqual([path, 100005]);
    }
    expect((await c.call<LegacyPage<LegacyPassword>>('room/passwordList', { room_id: b.rooms[0].id }, { token: b.token })).data.total).toBe(0);
    expect(await ctx.deps.prisma.lockPassword.findMany({ where: { hotelId: a.hotel.id }, orderBy: { id: 'asc' } })).toEqual(before);
    expect(await ctx.deps.prisma.lockPassword.count({ where: { hotelId: b.hotel.id } })).toBe(0);
    expect(await passcodesOn(a.lockIds[0])).toEqual(lockBefore);
    expect(await use(a.lockIds[0], '583916')).toMatchObject({ opened: true });
  });
});
