import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_DEFAULTS, startLockSim, type LockSim, type LockSimOptions } from './server';
import { SimClient } from './test-client';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PAGE = { pageNo: 1, pageSize: 20 };

type Listed = { list: Record<string, unknown>[]; total: number };
const ids = (answer: Record<string, unknown>, key = 'lockId') => (answer.list as Record<string, unknown>[]).map((item) => item[key]);

/** A simulator for one test (its clock may be moved), closed afterwards; `admin` is logged in as the default account. */
async function withSim<T>(options: LockSimOptions, run: (admin: SimClient, sim: LockSim) => Promise<T>): Promise<T> {
  const sim = await startLockSim({ latencyMs: 5, ...options });
  try {
    const admin = new SimClient(sim.url);
    await admin.login();
    return await run(admin, sim);
  } finally {
    await sim.close();
  }
}

/** Raw control call: status and body, without throwing. */
async function controlRaw(url: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}/sim${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('lock simulator: TTLock accounts', () => {
  let sim: LockSim;
  let admin: SimClient;
  let alice: SimClient;
  let bob: SimClient;

  beforeAll(async () => {
    sim = await startLockSim({ latencyMs: 5 });
    admin = new SimClient(sim.url);
    await admin.login();
    await admin.createAccount({ username: 'alice-hotel', password: 'alice-secret' });
    await admin.createAccount({ username: 'bob-hotel', password: 'bob-secret' });
    alice = await admin.as('alice-hotel', 'alice-secret');
    bob = await admin.as('bob-hotel', 'bob-secret');
  });
  afterAll(() => sim.close());

  it('has the default account from the start; locks and gateways made without an account are its own', async () => {
    const accounts = await admin.accounts();
    const byName = Object.fromEntries(accounts.map((a) => [a.username, a]));
    expect(byName[SIM_DEFAULTS.username]).toMatchObject({ default: true, region: 'eu', kind: 'ttlock', monthlyLimit: null, uid: admin.uid });
    expect(byName['alice-hotel']).toMatchObject({ default: false, region: 'eu', kind: 'ttlock', uid: alice.uid });
    expect(new Set(accounts.map((a) => a.uid)).size).toBe(accounts.length);

    const { lockId, gatewayId } = await admin.lockWithGateway();
    const { lock } = await admin.control<{ lock: { owner: string } }>('GET', `/locks/${lockId}`);
    expect(lock.owner).toBe(SIM_DEFAULTS.username);
    expect(ids(await admin.call('lock/list', PAGE, 'GET'))).toContain(lockId);
    expect(ids(await admin.call('gateway/list', PAGE, 'GET'), 'gatewayId')).toContain(gatewayId);
    expect(ids(await alice.call('lock/list', PAGE, 'GET'))).not.toContain(lockId);
  });

  it("two accounts neither see nor act on each other's locks and gateways (-2018); unknown ones are -1003 and -4037", async () => {
    const a = await admin.lockWithGateway({ account: 'alice-hotel', name: 'Room 101' });
    const b = await admin.lockWithGateway({ account: 'bob-hotel', name: 'Room 201' });

    expect(await alice.call('lock/list', PAGE, 'GET')).toMatchObject({ total: 1, list: [{ lockId: a.lockId }] });
    expect(await bob.call('lock/list', PAGE, 'GET')).toMatchObject({ total: 1, list: [{ lockId: b.lockId }] });
    expect(await alice.call('gateway/list', PAGE, 'GET')).toMatchObject({ total: 1, list: [{ gatewayId: a.gatewayId, lockNum: 1 }] });
    expect(ids(await admin.call('lock/list', PAGE, 'GET'))).not.toContain(a.lockId);
    expect(ids(await admin.call('gateway/list', PAGE, 'GET'), 'gatewayId')).not.toContain(a.gatewayId);
    const summary = Object.fromEntries((await admin.accounts()).map((x) => [x.username, x]));
    expect(summary['alice-hotel']).toMatchObject({ locks: 1, gateways: 1, tokens: 1 });
    expect(summary['bob-hotel']).toMatchObject({ locks: 1, gateways: 1, tokens: 1 });

    // Every call about alice's lock, made with bob's token.
    const now = Date.now();
    const asBob: [string, Record<string, unknown>, ('GET' | 'POST')?][] = [
      ['lock/detail', {}, 'GET'],
      ['gateway/listByLock', {}, 'GET'],
      ['keyboardPwd/get', { keyboardPwdType: 2, startDate: now }],
      ['keyboardPwd/add', { keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 }],
      ['keyboardPwd/delete', { keyboardPwdId: 1, deleteType: 2 }],
      ['keyboardPwd/change', { keyboardPwdId: 1, startDate: now, changeType: 2 }],
      ['lock/listKeyboardPwd', PAGE, 'GET'],
      ['identityCard/add', { cardNumber: '3661413478', addType: 2 }],
      ['identityCard/addForReversedCardNumber', { cardNumber: '3661413478', addType: 2 }],
      ['identityCard/list', PAGE, 'GET'],
      ['face/list', PAGE, 'GET'],
      ['lock/unlock', {}],
      ['lockRecord/list', PAGE, 'GET'],
      ['doorSensor/query', {}],
      ['lock/getHotelCardSettings', {}, 'GET'],
    ];
    for (const [op, fields, method] of asBob) {
      expect(await bob.call(op, { lockId: a.lockId, ...fields }, method ?? 'POST'), op).toMatchObject({
        errcode: -2018,
        errmsg: expect.stringContaining('Permission Denied'),
      });
    }
    expect(await bob.call('gateway/listLock', { gatewayId: a.gatewayId }, 'GET')).toMatchObject({ errcode: -2018 });
    // Nothing of bob's reached alice's lock, and she still acts on it.
    expect(await alice.call('lock/listKeyboardPwd', { lockId: a.lockId, ...PAGE }, 'GET')).toMatchObject({ total: 0 });
    expect(await alice.call('lock/detail', { lockId: a.lockId }, 'GET')).toMatchObject({ lockId: a.lockId, lockName: 'SIM Room 101' });
    expect(await alice.call('gateway/listLock', { gatewayId: a.gatewayId }, 'GET')).toMatchObject({ list: [{ lockId: a.lockId }] });

    // Ids that do not exist at all.
    expect(await bob.call('lock/detail', { lockId: 1 }, 'GET')).toMatchObject({ errcode: -1003 });
    expect(await bob.call('gateway/listLock', { gatewayId: 1 }, 'GET')).toMatchObject({ errcode: -4037, errmsg: 'gateway does not exist' });
  });

  it('pairs a gateway only with locks of its own account; unknown accounts and a second account of one name are refused', async () => {
    const a = await admin.lockWithGateway({ account: 'alice-hotel' });
    const b = await admin.lockWithGateway({ account: 'bob-hotel' });
    expect(await controlRaw(sim.url, 'POST', `/locks/${b.lockId}/pair`, { gatewayId: a.gatewayId })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('same account') },
    });
    expect(await controlRaw(sim.url, 'POST', '/locks', { account: 'bob-hotel', gatewayId: a.gatewayId })).toMatchObject({ status: 400 });
    expect(await controlRaw(sim.url, 'POST', '/locks', { gatewayId: a.gatewayId })).toMatchObject({ status: 400 });
    expect((await admin.control<{ lock: { gatewayIds: number[] } }>('GET', `/locks/${b.lockId}`)).lock.gatewayIds).toEqual([b.gatewayId]);
    expect(await controlRaw(sim.url, 'POST', '/locks', { account: 'nobody' })).toMatchObject({ status: 400 });
    expect(await controlRaw(sim.url, 'POST', '/gateways', { account: 'nobody' })).toMatchObject({ status: 400 });
    expect(await controlRaw(sim.url, 'POST', '/accounts', { username: 'alice-hotel', password: 'x' })).toMatchObject({ status: 409 });
    expect(await controlRaw(sim.url, 'PATCH', '/accounts/nobody', { kind: 'tthotel' })).toMatchObject({ status: 404 });
    // A gateway of the same account pairs.
    const { gateway } = await admin.control<{ gateway: { gatewayId: number } }>('POST', '/gateways', { account: 'bob-hotel' });
    expect(
      (await admin.control<{ lock: { gatewayIds: number[] } }>('POST', `/locks/${b.lockId}/pair`, { gatewayId: gateway.gatewayId })).lock.gatewayIds,
    ).toEqual([b.gatewayId, gateway.gatewayId]);
  });

  it('grants tokens by account: 10007 for an unknown account or a wrong password, 30008 for an account of the other site; refresh keeps the account', async () => {
    const c = new SimClient(sim.url, { username: 'alice-hotel', password: 'wrong' });
    expect(await c.login()).toMatchObject({ errcode: 10007 });
    expect(await new SimClient(sim.url, { username: 'nobody', password: 'alice-secret' }).login()).toMatchObject({ errcode: 10007 });
    // alice's password is not bob's.
    expect(await new SimClient(sim.url, { username: 'bob-hotel', password: 'alice-secret' }).login()).toMatchObject({ errcode: 10007 });

    await admin.createAccount({ username: 'carol-cn', password: 'carol-secret', region: 'cn' });
    const carol = new SimClient(sim.url, { username: 'carol-cn', password: 'carol-secret' });
    expect(await carol.login()).toMatchObject({ errcode: 30008, errmsg: expect.stringContaining("'cn' prefix") });
    await admin.updateAccount('carol-cn', { region: 'eu' });
    expect(await carol.login()).toHaveProperty('access_token');

    // A password changed by the control API: the old one is refused.
    await admin.updateAccount('carol-cn', { password: 'carol-new' });
    expect(await carol.login()).toMatchObject({ errcode: 10007 });
    expect(await new SimClient(sim.url, { username: 'carol-cn', password: 'carol-new' }).login()).toHaveProperty('access_token');

    // The refresh grant keeps the account: the new token still lists alice's locks only.
    const again = await admin.as('alice-hotel', 'alice-secret');
    const before = (await again.call('lock/list', PAGE, 'GET')) as unknown as Listed;
    expect(await again.refresh()).toHaveProperty('access_token');
    expect(await again.call('lock/list', PAGE, 'GET')).toEqual(before);
    expect(before.total).toBeGreaterThan(0);

    // On a simulator of the cn site, its default account is of that site and an 'eu' account answers 30008.
    await withSim({ region: 'cn' }, async (cnAdmin) => {
      expect(cnAdmin.token).not.toBe('');
      expect((await cnAdmin.accounts())[0]).toMatchObject({ region: 'cn', default: true });
      await cnAdmin.createAccount({ username: 'eve-eu', password: 'eve-secret', region: 'eu' });
      expect(await new SimClient(cnAdmin.url, { username: 'eve-eu', password: 'eve-secret' }).login()).toMatchObject({ errcode: 30008 });
    });
  });

  it("revokes every access token (10004) and refresh token (10011) of an account, and only that account's", async () => {
    await admin.createAccount({ username: 'dan-hotel', password: 'dan-secret' });
    const first = await admin.as('dan-hotel', 'dan-secret');
    const second = await admin.as('dan-hotel', 'dan-secret');
    const other = await admin.as('bob-hotel', 'bob-secret');
    expect((await admin.accounts()).find((a) => a.username === 'dan-hotel')?.tokens).toBe(2);

    expect(await admin.revoke('dan-hotel')).toEqual({ accessTokens: 2, refreshTokens: 2 });
    for (const c of [first, second]) expect(await c.call('lock/list', PAGE, 'GET')).toMatchObject({ errcode: 10004 });
    expect(await first.refresh()).toMatchObject({ errcode: 10011 });
    expect(await second.refresh()).toMatchObject({ errcode: 10011 });
    expect((await admin.accounts()).find((a) => a.username === 'dan-hotel')?.tokens).toBe(0);
    // Still refused later, and the others' tokens work.
    expect(await first.call('lock/list', PAGE, 'GET')).toMatchObject({ errcode: 10004 });
    expect(await other.call('lock/list', PAGE, 'GET')).toHaveProperty('list');
    // A new login is a new token.
    expect(await first.login()).toHaveProperty('access_token');
    expect(await first.call('lock/list', PAGE, 'GET')).toHaveProperty('list');
  });

  it("lists a 'tthotel' account's locks by lock/listByHotel (with building, floor, sector) and not by lock/list; a 'ttlock' account's the other way round", async () => {
    await admin.createAccount({ username: 'tthotel-admin', password: 'hotel-secret', kind: 'tthotel' });
    const hotel = await admin.as('tthotel-admin', 'hotel-secret');
    const east = await admin.lockWithGateway({
      account: 'tthotel-admin',
      name: 'East 3',
      building: { name: 'East wing', number: 2 },
      floor: { name: 'Third', number: 3 },
      battery: 64,
    });
    const plain = await admin.lockWithGateway({ account: 'tthotel-admin', name: 'Room 512' });

    expect(await hotel.call('lock/list', PAGE, 'GET')).toMatchObject({ total: 0, list: [] });
    const listed = await hotel.call('lock/listByHotel', PAGE, 'GET');
    expect(listed).toMatchObject({ pageNo: 1, pageSize: 20, pages: 1, total: 2 });
    const byId = Object.fromEntries((listed.list as Record<string, unknown>[]).map((l) => [l.lockId, l]));
    expect(byId[east.lockId]).toMatchObject({
      lockName: 'SIM East 3',
      electricQuantity: 64,
      featureValue: expect.stringMatching(/^[0-9A-F]+$/),
      hasGateway: 1,
      sector: '',
      electricQuantityUpdateDate: expect.any(Number),
      buildingName: 'East wing',
      buildingNumber: 2,
      floorName: 'Third',
      floorNumber: 3,
    });
    // Without building and floor: building 1, the floor of the room number in the name.
    expect(byId[plain.lockId]).toMatchObject({ buildingName: 'SIM Building 1', buildingNumber: 1, floorName: 'Floor 5', floorNumber: 5 });
    expect(await hotel.call('lock/listByHotel', { pageNo: 1, pageSize: 1000 }, 'GET')).toMatchObject({ total: 2 });
    expect(await hotel.call('lock/listByHotel', { pageNo: 1, pageSize: 1001 }, 'GET')).toMatchObject({ errcode: -3 });
    expect(await hotel.call('lock/listByHotel', { pageNo: 2, pageSize: 1 }, 'GET')).toMatchObject({ pages: 2, total: 2, list: [{ lockId: plain.lockId }] });
    // Elevator controls and power savers (type 2, 3): none.
    expect(await hotel.call('lock/listByHotel', { ...PAGE, type: 2 }, 'GET')).toMatchObject({ total: 0 });
    // The battery's update date moves when the battery is reported.
    const reported = (byId[east.lockId] as { electricQuantityUpdateDate: number }).electricQuantityUpdateDate;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await admin.control('PATCH', `/locks/${east.lockId}`, { battery: 40 });
    const after = (
      (await hotel.call('lock/listByHotel', PAGE, 'GET')).list as { lockId: number; electricQuantity: number; electricQuantityUpdateDate: number }[]
    ).find((l) => l.lockId === east.lockId)!;
    expect(after.electricQuantity).toBe(40);
    expect(after.electricQuantityUpdateDate).toBeGreaterThan(reported);
    // The lock's own calls work the same for either kind.
    expect(await hotel.call('lock/detail', { lockId: east.lockId }, 'GET')).toMatchObject({ lockId: east.lockId });

    // A 'ttlock' account: lock/listByHotel answers an empty page.
    expect(await alice.call('lock/listByHotel', PAGE, 'GET')).toMatchObject({ total: 0, list: [] });
    expect((await alice.call('lock/list', PAGE, 'GET')) as unknown as Listed).toMatchObject({ total: expect.any(Number) });
    expect(((await alice.call('lock/list', PAGE, 'GET')) as unknown as Listed).total).toBeGreaterThan(0);

    // The kind is the account's: changed, the lists swap.
    await admin.updateAccount('tthotel-admin', { kind: 'ttlock' });
    expect(await hotel.call('lock/list', PAGE, 'GET')).toMatchObject({ total: 2 });
    expect(await hotel.call('lock/listByHotel', PAGE, 'GET')).toMatchObject({ total: 0 });
  });

  it('logs every call with its method, account, lock and errcode, filtered by account and by time', async () => {
    const since = Date.now();
    const a = await admin.lockWithGateway({ account: 'alice-hotel' });
    await alice.call('lock/detail', { lockId: a.lockId }, 'GET');
    await bob.call('lock/detail', { lockId: a.lockId }, 'GET');
    await alice.call('lock/list', PAGE, 'GET');
    await alice.call('lock/list', { ...PAGE, accessToken: 'f'.repeat(32) }, 'GET');
    await admin.as('alice-hotel', 'alice-secret');

    const all = await admin.calls({ since });
    expect(all.count).toBe(all.calls.length);
    expect(all.calls).toContainEqual({ path: 'lock/list', method: 'GET', at: expect.any(Number), errcode: 10003, account: null });

    const ofAlice = await admin.calls({ account: 'alice-hotel', since });
    expect(ofAlice.count).toBe(3);
    expect(ofAlice.calls.map((c) => [c.path, c.method, c.errcode, c.lockId])).toEqual([
      ['lock/detail', 'GET', 0, a.lockId],
      ['lock/list', 'GET', 0, undefined],
      ['oauth2/token', 'POST', 0, undefined],
    ]);
    expect(ofAlice.calls.every((c) => c.account === 'alice-hotel' && c.at >= since)).toBe(true);
    const ofBob = await admin.calls({ account: 'bob-hotel', since });
    expect(ofBob.calls).toEqual([{ path: 'lock/detail', method: 'GET', at: expect.any(Number), errcode: -2018, account: 'bob-hotel', lockId: a.lockId }]);
    // Nothing since a time still to come.
    expect(await admin.calls({ since: Date.now() + HOUR })).toMatchObject({ calls: [], count: 0 });
    // The accounts' call counts.
    const bobAccount = (await admin.accounts()).find((x) => x.username === 'bob-hotel')!;
    expect(bobAccount.calls.total).toBeGreaterThan(0);
    expect(bobAccount.calls.thisMonth).toBe(bobAccount.calls.total);
  });
});

describe('lock simulator: the monthly call limit (30007)', () => {
  it('refuses calls past an account limit until the next month in Beijing time, by the simulated clock', async () => {
    await withSim({}, async (admin) => {
      // Ten minutes before the next month begins in Beijing (UTC+8): 16:00 UTC on the last day of a month.
      const beijing = new Date(Date.now() + 8 * HOUR);
      const nextMonth = Date.UTC(beijing.getUTCFullYear(), beijing.getUTCMonth() + 1, 1) - 8 * HOUR;
      const move = async (to: number) => {
        const offsetMs = to - Date.now();
        await admin.control('PUT', '/clock', { offsetMs });
        return offsetMs;
      };
      let offset = await move(nextMonth - 10 * MINUTE);
      admin.clockOffsetMs = offset;
      await admin.createAccount({ username: 'eve-hotel', password: 'eve-secret', monthlyLimit: 3 });
      const eve = await admin.as('eve-hotel', 'eve-secret');

      for (let i = 0; i < 3; i += 1) expect(await eve.call('lock/list', PAGE, 'GET')).toHaveProperty('list');
      expect(await eve.call('lock/list', PAGE, 'GET')).toMatchObject({ errcode: 30007, errmsg: 'exceeded the monthly limit for API calls' });
      expect(await eve.call('gateway/list', PAGE, 'GET')).toMatchObject({ errcode: 30007 });
      // Another account is not limited.
      for (let i = 0; i < 5; i += 1) expect(await admin.call('lock/list', PAGE, 'GET')).toHaveProperty('list');
      expect((await admin.accounts()).find((a) => a.username === 'eve-hotel')?.calls).toEqual({ total: 3, thisMonth: 3 });

      // A minute before the month ends: still refused.
      offset = await move(nextMonth - MINUTE);
      eve.clockOffsetMs = offset;
      expect(await eve.call('lock/list', PAGE, 'GET')).toMatchObject({ errcode: 30007 });
      // Ten minutes into the next Beijing month (still the same day and month in UTC): allowed again.
      offset = await move(nextMonth + 10 * MINUTE);
      eve.clockOffsetMs = offset;
      expect(new Date(nextMonth + 10 * MINUTE).getUTCDate()).toBe(new Date(nextMonth - MINUTE).getUTCDate());
      expect(await eve.call('lock/list', PAGE, 'GET')).toHaveProperty('list');
      expect((await admin.accounts()).find((a) => a.username === 'eve-hotel')?.calls).toEqual({ total: 4, thisMonth: 1 });
      for (let i = 0; i < 2; i += 1) expect(await eve.call('lock/list', PAGE, 'GET')).toHaveProperty('list');
      expect(await eve.call('lock/list', PAGE, 'GET')).toMatchObject({ errcode: 30007 });

      // No limit (null): any number of calls.
      await admin.updateAccount('eve-hotel', { monthlyLimit: null });
      expect(await eve.call('lock/list', PAGE, 'GET')).toHaveProperty('list');
    });
  });
});

describe('lock simulator: state written before accounts existed', () => {
  it('loads it: its locks and gateways, without an owner, belong to the default account, and its tokens stay valid', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-sim-accounts-'));
    const stateFile = path.join(dir, 'state.json');
    try {
      const first = await startLockSim({ stateFile, latencyMs: 5 });
      const client = new SimClient(first.url);
      await client.login();
      const { lockId, gatewayId } = await client.lockWithGateway({ name: 'Room 301' });
      await first.close();

      // As an older simulator wrote it: no accounts, no owners, no lock features.
      const old = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Record<string, unknown> & {
        locks: Record<string, Record<string, unknown>>;
        gateways: Record<string, Record<string, unknown>>;
      };
      delete old.accounts;
      for (const lock of Object.values(old.locks))
        for (const key of [
          'owner',
          'keypad',
          'cardReader',
          'doorSensor',
          'wifi',
          'timezoneRawOffset',
          'cardNumberOrder',
          'building',
          'floor',
          'batteryUpdatedAt',
        ])
          delete lock[key];
      for (const gateway of Object.values(old.gateways)) delete gateway.owner;
      fs.writeFileSync(stateFile, JSON.stringify(old));

      const second = await startLockSim({ stateFile, latencyMs: 5 });
      try {
        const again = new SimClient(second.url);
        again.token = client.token;
        expect(await again.call('lock/list', PAGE, 'GET')).toMatchObject({ total: 1, list: [{ lockId, lockName: 'SIM Room 301', hasGateway: 1 }] });
        expect(await again.call('gateway/list', PAGE, 'GET')).toMatchObject({ total: 1, list: [{ gatewayId }] });
        expect(await again.call('lock/detail', { lockId }, 'GET')).toMatchObject({ timezoneRawOffset: 28_800_000 });
        expect(await again.call('keyboardPwd/add', { lockId, keyboardPwd: '480613', keyboardPwdType: 2, addType: 2 })).toHaveProperty('keyboardPwdId');
        expect(await again.login()).toMatchObject({ uid: client.uid });
        expect((await again.accounts()).map((a) => [a.username, a.locks, a.gateways])).toEqual([[SIM_DEFAULTS.username, 1, 1]]);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
