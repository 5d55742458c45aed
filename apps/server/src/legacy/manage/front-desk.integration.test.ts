import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { TEST_PASSWORD, createAccount, createHotel, createRooms, uniqueMobile } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';

let ctx: TestContext;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** A hotel with rooms and an owner signed in over the legacy protocol. */
async function legacyHotel() {
  const hotel = await createHotel(ctx.deps);
  const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
  const { rooms, group } = await createRooms(ctx.deps, hotel.id, ['A101', 'A102', 'A103'], { groupName: 'Legacy', usualPrice: 20_000 });
  const login = await client().call<{ token: string }>('login', { mobile: owner.mobile, password: TEST_PASSWORD });
  return { hotel, owner, rooms: rooms as [(typeof rooms)[number], (typeof rooms)[number], (typeof rooms)[number]], group: group!, token: login.data.token };
}

const tz = 'Asia/Shanghai';
const today = () => localDate(new Date(), tz);
/** `YYYY-MM-DD HH:mm:ss` in the hotel's zone, `days` from today. */
const at = (days: number, time: string) => `${addDays(today(), days)} ${time}`;

interface LegacyStay {
  id: number;
  room_id: number;
  state: string;
  check_in_time: string;
  check_out_time: string;
  price: number;
  deposit: number;
  guests: { manage_id: number; name: string; is_primary: number }[];
}

describe('rooms and categories over the legacy protocol', () => {
  it('lists categories, adds and changes one', async () => {
    const h = await legacyHotel();
    const c = client();
    expect((await c.call('room/category/list', {}, { token: h.token })).data).toEqual([{ id: h.group.id, name: 'Legacy', sort: 1, room_count: 3 }]);
    const added = await c.call<{ id: number }>('room/addCategory', { name: 'Suites', sort: 2 }, { token: h.token });
    expect(added).toMatchObject({ errno: 0, data: { name: 'Suites', sort: 2, room_count: 0 } });
    expect(await c.call('room/change/category', { id: added.data.id, name: 'Suites+', sort: 3 }, { token: h.token })).toMatchObject({
      errno: 0,
      data: { name: 'Suites+', sort: 3 },
    });
    expect(await c.call('room/addCategory', { name: '', sort: '' }, { token: h.token })).toMatchObject({ errno: 100001, errmsg: 'Enter the group name' });
  });

  it('lists rooms with status codes and counts, and changes status by code or name', async () => {
    const h = await legacyHotel();
    const c = client('zh-CN');
    const board = await c.call<{
      list: { id: number; status: number; status_key: string; self_check_in: number; price: number }[];
      counts: Record<string, number>;
      total: number;
      limit: number;
    }>('room/listNew', { sort: 'z-a' }, { token: h.token });
    expect(board).toMatchObject({ errno: 0, data: { total: 3, limit: 50, counts: { 1: 3, 2: 0, 3: 0, 4: 0, 5: 0 } } });
    expect(board.data.list[0]).toMatchObject({ id: h.rooms[2].id, status: 1, status_key: 'vacant', self_check_in: 1, price: 200 });
    expect((await c.call('room/setRoomStatus', { room_id: h.rooms[0].id, status: 4 }, { token: h.token })).data).toMatchObject({ status: 4, self_check_in: 0 });
    expect((await c.call('room/setRoomStatus', { room_id: h.rooms[1].id, status: 'out_of_service' }, { token: h.token })).data).toMatchObject({ status: 5 });
    const dirty = await c.call<{ list: { id: number }[] }>('room/listNew', { status: 4 }, { token: h.token });
    expect(dirty.data.list.map((r) => r.id)).toEqual([h.rooms[0].id]);
    expect((await c.call('room/setRoomStatus', { room_id: h.rooms[0].id, status: 3 }, { token: h.token })).errno).toBe(100001);
  });

  it('answers a status the room already has with errno 0, changed 0 and an errmsg that says so (issue 17 §5)', async () => {
    const h = await legacyHotel();
    const first = await client('en').call('room/setRoomStatus', { room_id: h.rooms[0].id, status: 4 }, { token: h.token });
    expect(first).toMatchObject({ errno: 0, errmsg: 'Operation succeeded', data: { status: 4, clean_status: 'dirty', changed: 1 } });
    const again = await client('en').call('room/setRoomStatus', { room_id: h.rooms[0].id, status: 'dirty' }, { token: h.token });
    expect(again).toMatchObject({ errno: 0, errmsg: 'Already marked dirty, nothing changed: A101', data: { status: 4, changed: 0 } });
    const arabic = await client('ar').call('room/setRoomStatus', { room_id: h.rooms[1].id, status: 1 }, { token: h.token, language: 'ar' });
    expect(arabic).toMatchObject({ errno: 0, errmsg: 'نظيفة أصلًا، لم يتغير شيء: A102', data: { status: 1, changed: 0 } });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'room.status' } })).toBe(1);
  });

  it('reads and writes lock data', async () => {
    const h = await legacyHotel();
    const c = client();
    expect((await c.call<unknown[]>('room/allLock', {}, { token: h.token })).data).toHaveLength(3);
    // A lock id the hotel's lock accounts do not hold is refused (issue 16), the rest of the data kept as it was.
    const typed = await c.call('room/setLockData', { room_id: h.rooms[0].id, lock_id: 'LK-1', mac_id: '00:11:22:33:44:55' }, { token: h.token });
    expect(typed).toMatchObject({ errno: 100001, errmsg: "No lock with the id LK-1 is in this hotel's lock accounts" });
    expect((await c.call<{ mac_id: string | null }>('room/lockInfo', { room_id: h.rooms[0].id }, { token: h.token })).data.mac_id).toBeNull();
    // A lock of the hotel's own: paired, with the room's Bluetooth data and the battery the app read.
    const lockId = `5${Date.now() % 1e9}`;
    await ctx.deps.prisma.lock.create({ data: { hotelId: h.hotel.id, provider: 'ttlock', providerLockId: lockId } });
    const set = await c.call('room/setLockData', { room_id: h.rooms[0].id, lock_id: lockId, mac_id: '00:11:22:33:44:55', lock_power: 66 }, { token: h.token });
    expect(set.data).toEqual({ room_id: h.rooms[0].id, room_name: 'A101', lock_id: lockId, bluetooth_name: null, mac_id: '00:11:22:33:44:55', lock_power: 66 });
    expect((await c.call('room/lockInfo', { room_id: h.rooms[0].id }, { token: h.token })).data).toEqual(set.data);
    // Unpaired with a blank id.
    expect((await c.call<{ lock_id: string | null }>('room/setLockData', { room_id: h.rooms[0].id, lock_id: '' }, { token: h.token })).data.lock_id).toBeNull();
    expect(await c.call('room/setLockData', { room_id: h.rooms[0].id, mac_id: 'zz' }, { token: h.token })).toMatchObject({
      errno: 100001,
      errmsg: 'Incorrect MAC address format',
    });
  });

  it('sets prices in major units and counts the price of a stay', async () => {
    const h = await legacyHotel();
    const c = client();
    const set = await c.call(
      'room/setPrice',
      { room_id: h.rooms[0].id, deposit: 300, price: 199.5, weekend_price: 259, date_prices: [{ date: '2026-12-24', price: 599 }] },
      { token: h.token },
    );
    expect(set.data).toMatchObject({ deposit: 300, price: 199.5, weekend_price: 259, renewal_price: null, date_prices: [{ date: '2026-12-24', price: 599 }] });
    const count = await c.call<{ total: number; nights: { date: string; price: number }[] }>(
      'room/countRoomPriceNew',
      { room_id: h.rooms[0].id, check_in_time: '2026-12-23 14:00:00', check_out_time: '2026-12-26 12:00:00' },
      { token: h.token },
    );
    expect(count.data).toMatchObject({ total: 199.5 + 599 + 259, deposit: 300, currency: 'CNY' });
    expect(await c.call('room/setPrice', { room_id: h.rooms[0].id, price: 0.5 }, { token: h.token })).toMatchObject({
      errno: 100001,
      errmsg: 'The price cannot be less than 1',
    });
    expect(await c.call('room/setPrice', { room_id: h.rooms[0].id, price: 1.001 }, { token: h.token })).toMatchObject({
      errno: 100001,
      errmsg: 'Incorrect price format',
    });
    expect(
      await c.call('room/countRoomPriceNew', { room_id: h.rooms[0].id, check_in_time: 'tomorrow', check_out_time: '2026-12-26 12:00:00' }, { token: h.token }),
    ).toMatchObject({ errno: 100001, errmsg: 'Incorrect time format' });
  });
});

describe('stays over the legacy protocol', () => {
  it('runs a stay from check-in to check-out: guests, renewal, room change, breakfast, guest lookups', async () => {
    const h = await legacyHotel();
    const c = client();
    const checkIn = {
      room_id: h.rooms[0].id,
      check_in_time: at(-1, '15:00:00'),
      check_out_time: at(1, '12:00:00'),
      breakfast: 1,
      guests: [{ name: 'Legacy Main', gender: 'male', id_number: 'L-001', mobile: uniqueMobile() }],
      deposit: 200,
      other_information: 'from the old app',
      request_id: `req-${Date.now()}`,
    };
    const stay = await c.call<LegacyStay>('room/tenant/update/checkIn', checkIn, { token: h.token });
    expect(stay).toMatchObject({
      errno: 0,
      data: {
        state: 'in_house',
        check_in_time: checkIn.check_in_time,
        check_out_time: checkIn.check_out_time,
        deposit: 200,
        price: 400,
        other_information: 'from the old app',
      },
    });
    // The same request id again: the same stay.
    expect((await c.call<LegacyStay>('room/tenant/update/checkIn', checkIn, { token: h.token })).data.id).toBe(stay.data.id);
    const overlap = await c.call(
      'room/tenant/update/checkIn',
      { ...checkIn, request_id: `other-${Date.now()}`, guests: [{ name: 'Other', mobile: uniqueMobile() }] },
      { token: h.token, language: 'zh-CN' },
    );
    // The stay in the way named, as on the console (named-conflicts.integration.test.ts).
    expect(overlap).toMatchObject({ errno: 100006, errmsg: expect.stringMatching(/(正在入住该房间，至 .+ 退房|已被 .+ 预订：.+ 至 .+)$/) });

    const withCo = await c.call<LegacyStay>('room/addPassenger', { stay_id: stay.data.id, name: 'Legacy Co', gender: 'female' }, { token: h.token });
    const co = withCo.data.guests.find((g) => g.name === 'Legacy Co')!;
    expect(co.is_primary).toBe(0);
    expect((await c.call<LegacyStay>('room/deletePassenger', { stay_id: stay.data.id, manage_id: co.manage_id }, { token: h.token })).data.guests).toHaveLength(
      1,
    );

    const renewed = await c.call<LegacyStay & { added_price: number }>(
      'room/setRenew',
      { stay_id: stay.data.id, check_out_time: at(2, '12:00:00') },
      { token: h.token },
    );
    expect(renewed.data).toMatchObject({ check_out_time: at(2, '12:00:00'), added_price: 200, price: 600 });
    const fixed = await c.call<LegacyStay & { added_price: number }>(
      'room/setRenew',
      { stay_id: stay.data.id, check_out_time: at(3, '12:00:00'), price: 88 },
      { token: h.token },
    );
    expect(fixed.data.added_price).toBe(88);

    const breakfast = await c.call<{ list: { stay_id: number; served: number }[]; total_guests: number }>(
      'room/hotelBreakFastList',
      { date: today() },
      { token: h.token },
    );
    expect(breakfast.data).toMatchObject({ total_guests: 1, list: [{ stay_id: stay.data.id, served: 0 }] });
    expect((await c.call('room/hotelBreakFast', { stay_id: stay.data.id, date: today() }, { token: h.token })).data).toMatchObject({
      served: 1,
      served_guests: 1,
    });

    const moved = await c.call<LegacyStay & { price_difference: number; moved_from: number }>(
      'room/exchangeHouses',
      { stay_id: stay.data.id, room_id: h.rooms[1].id },
      { token: h.token },
    );
    expect(moved.data).toMatchObject({ room_id: h.rooms[1].id, moved_from: stay.data.id, price_difference: 0 });
    const failed = await c.call('room/exchangeHouses', { stay_id: moved.data.id, room_id: h.rooms[1].id }, { token: h.token });
    expect(failed).toMatchObject({ errno: 100006, errmsg: 'Room change failed: choose a different room.' });

    const list = await c.call<{ list: LegacyStay[]; total: number }>('room/tenant/list', { state: 'current' }, { token: h.token });
    expect(list.data.list.map((s) => s.id)).toEqual([moved.data.id]);
    expect((await c.call<{ total: number }>('room/tenant/list', { keyword: 'Legacy Main' }, { token: h.token })).data.total).toBe(2);

    const guests = await c.call<{ list: { manage_id: number; room_name: string }[] }>('passenger/list', { current: 1 }, { token: h.token });
    expect(guests.data.list.map((g) => g.room_name)).toEqual(['A102']);
    const info = await c.call<{ name: string; other_information: string; stay: LegacyStay }>(
      'passenger/info',
      { id: guests.data.list[0]!.manage_id },
      { token: h.token },
    );
    expect(info.data).toMatchObject({ name: 'Legacy Main', other_information: 'from the old app', stay: { id: moved.data.id } });

    const out = await c.call<LegacyStay & { revoked_credentials: number }>('room/checkOut', { stay_id: moved.data.id }, { token: h.token });
    expect(out.data).toMatchObject({ state: 'checked_out', revoked_credentials: 0 });
    const board = await c.call<{ list: { id: number; status: number }[] }>('room/listNew', {}, { token: h.token });
    expect(board.data.list.find((r) => r.id === h.rooms[1].id)!.status).toBe(4);
  });

  it('asks for confirmation (errno 100018 with the warnings) and goes ahead with confirm=1', async () => {
    const h = await legacyHotel();
    await ctx.deps.prisma.room.update({ where: { id: h.rooms[2].id }, data: { cleanStatus: 'dirty' } });
    const c = client();
    const input = {
      room_id: h.rooms[2].id,
      check_in_time: at(0, '00:30:00'),
      check_out_time: at(1, '12:00:00'),
      guests: [{ name: 'Sleepy', mobile: uniqueMobile() }],
      request_id: `dirty-${Date.now()}`,
    };
    expect(await c.call('room/tenant/update/checkIn', input, { token: h.token })).toMatchObject({
      errno: 100018,
      errmsg: 'Room "A103" has not been cleaned yet. Check in anyway?',
      data: { warnings: ['room_dirty'] },
    });
    expect((await c.call('room/tenant/update/checkIn', { ...input, confirm: 1 }, { token: h.token })).errno).toBe(0);
  });

  it('validates the check-in: one hour at least, a guest, a request id', async () => {
    const h = await legacyHotel();
    const c = client('zh-CN');
    const res = await c.call(
      'room/tenant/update/checkIn',
      { room_id: h.rooms[0].id, check_in_time: at(1, '10:00:00'), check_out_time: at(1, '10:30:00'), guests: [{ name: 'X' }], request_id: 'req-short-1' },
      { token: h.token },
    );
    expect(res).toMatchObject({ errno: 100001, errmsg: '退房时间至少要比入住时间晚 1 小时' });
    expect(
      (
        await c.call(
          'room/tenant/update/checkIn',
          { room_id: h.rooms[0].id, check_in_time: at(1, '10:00:00'), check_out_time: at(2, '10:00:00'), guests: [], request_id: 'req-none-1' },
          { token: h.token },
        )
      ).errmsg,
    ).toBe('请至少添加一位住客');
  });
});

describe('price templates over the legacy protocol', () => {
  it('adds, lists, shows, applies and deletes', async () => {
    const h = await legacyHotel();
    const c = client();
    const added = await c.call<{ id: number }>('priceTemplate/add', { name: 'Legacy Peak', price: 388, weekend_price: 488, deposit: 100 }, { token: h.token });
    expect(added.data).toMatchObject({ name: 'Legacy Peak', price: 388, weekend_price: 488, deposit: 100, room_count: 0 });
    expect((await c.call('priceTemplate/setPriceTemplate', { template_id: added.data.id, category_id: h.group.id }, { token: h.token })).data).toEqual({
      rooms: 3,
    });
    expect((await c.call<{ room_count: number }[]>('priceTemplate/lists', {}, { token: h.token })).data).toMatchObject([
      { name: 'Legacy Peak', room_count: 3 },
    ]);
    expect((await c.call('priceTemplate/info', { id: added.data.id }, { token: h.token })).data).toMatchObject({ id: added.data.id, price: 388 });
    expect((await c.call('priceTemplate/add', { id: added.data.id, name: 'Legacy Peak', price: 399 }, { token: h.token })).data).toMatchObject({ price: 399 });
    expect((await c.call('priceTemplate/delete', { id: added.data.id }, { token: h.token })).errno).toBe(0);
    expect((await c.call<unknown[]>('priceTemplate/lists', {}, { token: h.token })).data).toEqual([]);
  });
});

describe('tenancy over the legacy protocol', () => {
  it('answers hotel B with 100005 for every front-desk action on hotel A', async () => {
    const a = await legacyHotel();
    const b = await legacyHotel();
    const c = client();
    const stay = await c.call<LegacyStay>(
      'room/tenant/update/checkIn',
      {
        room_id: a.rooms[0].id,
        check_in_time: at(-1, '15:00:00'),
        check_out_time: at(1, '12:00:00'),
        guests: [{ name: 'A guest', mobile: uniqueMobile() }],
        request_id: `a-${Date.now()}`,
      },
      { token: a.token },
    );
    const template = await c.call<{ id: number }>('priceTemplate/add', { name: 'A template', price: 100 }, { token: a.token });
    const manageId = stay.data.guests[0]!.manage_id;
    const calls: [string, Record<string, unknown>][] = [
      ['room/setRoomStatus', { room_id: a.rooms[1].id, status: 4 }],
      ['room/lockInfo', { room_id: a.rooms[0].id }],
      ['room/setLockData', { room_id: a.rooms[0].id, lock_id: 'x' }],
      ['room/change/category', { id: a.group.id, name: 'x', sort: 1 }],
      ['room/setPrice', { room_id: a.rooms[0].id, price: 100 }],
      ['room/countRoomPriceNew', { room_id: a.rooms[0].id, check_in_time: at(1, '14:00:00'), check_out_time: at(2, '12:00:00') }],
      [
        'room/tenant/update/checkIn',
        { room_id: a.rooms[1].id, check_in_time: at(1, '14:00:00'), check_out_time: at(2, '12:00:00'), guests: [{ name: 'B' }], request_id: `b-${Date.now()}` },
      ],
      ['room/checkOut', { stay_id: stay.data.id }],
      ['room/setRenew', { stay_id: stay.data.id, check_out_time: at(5, '12:00:00') }],
      ['room/exchangeHouses', { stay_id: stay.data.id, room_id: b.rooms[0].id }],
      ['room/addPassenger', { stay_id: stay.data.id, name: 'B intruder' }],
      ['room/deletePassenger', { stay_id: stay.data.id, manage_id: manageId }],
      ['room/hotelBreakFast', { stay_id: stay.data.id, date: today() }],
      ['passenger/info', { id: manageId }],
      ['priceTemplate/info', { id: template.data.id }],
      ['priceTemplate/delete', { id: template.data.id }],
      ['priceTemplate/setPriceTemplate', { template_id: template.data.id, category_id: b.group.id }],
    ];
    for (const [path, payload] of calls) {
      const res = await c.call(path, payload, { token: b.token });
      expect([path, res.errno]).toEqual([path, 100005]);
    }
    // Lists of B show nothing of A.
    expect((await c.call<{ total: number }>('room/listNew', {}, { token: b.token })).data.total).toBe(3);
    expect((await c.call<{ room_id: number }[]>('room/allLock', {}, { token: b.token })).data.map((r) => r.room_id).sort()).toEqual(
      b.rooms.map((r) => r.id).sort(),
    );
    expect((await c.call<{ total: number }>('room/tenant/list', {}, { token: b.token })).data.total).toBe(0);
    expect((await c.call<{ total: number }>('passenger/list', {}, { token: b.token })).data.total).toBe(0);
    expect((await c.call<{ list: unknown[] }>('room/hotelBreakFastList', { date: today() }, { token: b.token })).data.list).toEqual([]);
    expect((await c.call<unknown[]>('priceTemplate/lists', {}, { token: b.token })).data).toEqual([]);
    expect((await c.call<{ id: number }[]>('room/category/list', {}, { token: b.token })).data.map((g) => g.id)).toEqual([b.group.id]);
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.data.id } })).status).toBe('in_house');
  });
});
