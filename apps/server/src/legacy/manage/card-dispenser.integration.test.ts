import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD, createAccount, createHotel } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';

/**
 * `/manage/cardDispenser/add`, `lists`, `checkStatus` driven as an old client does (crypto-js
 * envelope, legacy field names, errmsg in the request's language), and hotel B against hotel A's
 * dispenser.
 */
let ctx: TestContext;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.81.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

let counter = 0;
const deviceId = () => `SIM-0417-8020-L${process.pid % 10_000}${(counter += 1)}`;

async function signedIn(role: 'owner' | 'staff' = 'owner', hotelId?: number) {
  const hotel = hotelId ?? (await createHotel(ctx.deps)).id;
  const account = await createAccount(ctx.deps, { hotelId: hotel, role });
  const login = await client().call<{ token: string }>('login', { mobile: account.mobile, password: TEST_PASSWORD });
  expect(login.errno).toBe(0);
  return { hotelId: hotel, token: login.data.token };
}

interface LegacyDispenser {
  id: number;
  device_id: string;
  name: string;
  stock: number;
  capacity: number | null;
  status: string;
  status_text: string;
  last_check_time: string | null;
  create_time: string;
}

describe('cardDispenser', () => {
  it('adds a dispenser, lists it in pages, records a status check and answers the last one', async () => {
    const owner = await signedIn('owner');
    const staff = await signedIn('staff', owner.hotelId);
    const id = deviceId();
    const added = await client().call<LegacyDispenser>('cardDispenser/add', { device_id: id, name: 'Lobby' }, { token: owner.token });
    expect(added.errno, added.errmsg).toBe(0);
    expect(added.data).toMatchObject({
      device_id: id,
      name: 'Lobby',
      stock: 0,
      capacity: null,
      status: 'offline',
      status_text: 'Offline',
      last_check_time: null,
    });
    expect(added.data.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await client().call('cardDispenser/add', { device_id: deviceId(), name: 'Second' }, { token: owner.token });

    const page1 = await client().call<{ list: LegacyDispenser[]; total: number; page: number; limit: number }>(
      'cardDispenser/lists',
      { page: 1, limit: 1 },
      { token: staff.token },
    );
    expect(page1.errno).toBe(0);
    expect(page1.data).toMatchObject({ total: 2, page: 1, limit: 1 });
    expect(page1.data.list.map((d) => d.device_id)).toEqual([id]);
    const page2 = await client().call<{ list: LegacyDispenser[] }>('cardDispenser/lists', { page: 2, limit: 1 }, { token: staff.token });
    expect(page2.data.list.map((d) => d.name)).toEqual(['Second']);

    // Staff record what the desk's reader service said, by device id; the status comes back in the request's language.
    const checked = await client('zh-CN').call<LegacyDispenser>(
      'cardDispenser/checkStatus',
      { device_id: id, status: 'online', stock: '48', capacity: 100 },
      { token: staff.token },
    );
    expect(checked.errno, checked.errmsg).toBe(0);
    expect(checked.data).toMatchObject({ id: added.data.id, stock: 48, capacity: 100, status: 'online', status_text: '在线' });
    expect(checked.data.last_check_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Without a status: the last check, unchanged.
    const asked = await client().call<LegacyDispenser>('cardDispenser/checkStatus', { id: added.data.id }, { token: staff.token });
    expect(asked.data).toMatchObject({ stock: 48, status: 'online', last_check_time: checked.data.last_check_time });
    const empty = await client().call<LegacyDispenser>('cardDispenser/checkStatus', { id: added.data.id, status: 'online', stock: 0 }, { token: staff.token });
    expect(empty.data).toMatchObject({ status: 'empty', status_text: 'Empty', stock: 0 });
  });

  it('refuses bad input with the legacy field names and translated messages', async () => {
    const owner = await signedIn('owner');
    const noDevice = await client().call<{ fields?: Record<string, string> }>('cardDispenser/add', { name: 'x' }, { token: owner.token });
    expect(noDevice.errno).not.toBe(0);
    expect(noDevice.data?.fields?.device_id).toBe('Device number is required');
    const zh = await client('zh-CN').call<{ fields?: Record<string, string> }>(
      'cardDispenser/add',
      { device_id: 'has space', name: 'x' },
      { token: owner.token },
    );
    expect(zh.data?.fields?.device_id).toBe('设备号最多 64 个字母、数字或符号，不能包含空格');
    const twice = deviceId();
    expect((await client().call('cardDispenser/add', { device_id: twice }, { token: owner.token })).errno).toBe(0);
    const duplicate = await client().call<{ fields?: Record<string, string> }>('cardDispenser/add', { device_id: twice }, { token: owner.token });
    expect(duplicate.errmsg).toBe('A dispenser with this device number is already registered.');
    expect(duplicate.data?.fields?.device_id).toBeTruthy();
    const which = await client().call<{ fields?: Record<string, string> }>('cardDispenser/checkStatus', { status: 'online', stock: 1 }, { token: owner.token });
    expect(which.data?.fields?.device_id).toBeTruthy();
    const noStock = await client().call<{ fields?: Record<string, string> }>(
      'cardDispenser/checkStatus',
      { device_id: twice, status: 'online' },
      { token: owner.token },
    );
    expect(noStock.data?.fields?.stock).toBeTruthy();
    const badStatus = await client().call<{ fields?: Record<string, string> }>(
      'cardDispenser/checkStatus',
      { device_id: twice, status: 'burning' },
      { token: owner.token },
    );
    expect(badStatus.data?.fields?.status).toBeTruthy();
  });

  it('staff cannot add; signed-out clients get the login-expired errno', async () => {
    const staff = await signedIn('staff');
    const refused = await client().call('cardDispenser/add', { device_id: deviceId() }, { token: staff.token });
    expect(refused.errno).not.toBe(0);
    expect(refused.errmsg).toBe('You do not have permission to do this.');
    expect((await client().call('cardDispenser/lists', {})).errno).toBe(100003);
  });

  it('hotel B gets "not found" on hotel A\'s dispenser, by id and by device id, and never lists it', async () => {
    const a = await signedIn('owner');
    const b = await signedIn('owner');
    const id = deviceId();
    const added = await client().call<LegacyDispenser>('cardDispenser/add', { device_id: id, name: 'A' }, { token: a.token });
    for (const payload of [{ id: added.data.id }, { id: added.data.id, status: 'online', stock: 3 }, { device_id: id }, { device_id: id, status: 'fault' }]) {
      const res = await client().call('cardDispenser/checkStatus', payload, { token: b.token });
      expect(res.errno, JSON.stringify(payload)).not.toBe(0);
      expect(res.errmsg).toBe('The card dispenser does not exist or has been deleted.');
    }
    // An id of hotel A's with hotel B's own device id does not reach hotel A's row either.
    const own = deviceId();
    await client().call('cardDispenser/add', { device_id: own }, { token: b.token });
    const mixed = await client().call('cardDispenser/checkStatus', { id: added.data.id, device_id: own, status: 'fault' }, { token: b.token });
    expect(mixed.errno).not.toBe(0);
    const listed = await client().call<{ list: LegacyDispenser[] }>('cardDispenser/lists', {}, { token: b.token });
    expect(listed.data.list.map((d) => d.device_id)).toEqual([own]);
    const row = await ctx.deps.prisma.cardDispenser.findUniqueOrThrow({ where: { id: added.data.id } });
    expect(row).toMatchObject({ status: 'offline', stock: 0, lastCheckedAt: null });
  });
});
