import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '@console/shared';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { createCustomers, createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../../modules/auth/session.service';

/**
 * The input rules every action inherits (issue 6 §2), each defect that was found, on both faces:
 * ids, impossible dates, control characters, literal search, and field errors named as sent.
 */
let ctx: TestContext;
let legacy: ReturnType<typeof legacyClient>;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  legacy = legacyClient(ctx.app, ctx.config, { language: 'en' });
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['I101', 'I102']);
  const session = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
  const call = (path: string, payload: Record<string, unknown>) =>
    legacy.call<{ fields?: Record<string, string> } & Record<string, unknown>>(path, payload, { token: session.token });
  return { ...h, rooms, call };
}

const fieldsOf = (res: { data: unknown }) => Object.keys((res.data as { fields?: object } | null)?.fields ?? {});
const today = () => localDate(new Date(), 'Asia/Shanghai');

describe('ids are positive integers, given as a number or decimal digits, nothing else', () => {
  it('refuses {id: [50]} on clientDelete (it used to delete customer 50) and keeps the customer', async () => {
    const h = await hotel();
    const [customer] = await createCustomers(ctx.deps, h.hotel.id, 1);
    for (const id of [[customer!.id], true, `${customer!.id}.0`, `${customer!.id}e0`, '', customer!.id + 0.5]) {
      const res = await h.call('room/clientDelete', { id });
      expect(res.errno, JSON.stringify(id)).toBe(100001);
      expect(fieldsOf(res)).toEqual(['id']);
    }
    expect(await ctx.deps.prisma.customer.count({ where: { id: customer!.id } })).toBe(1);
    expect((await api.raw.mutation('customer.delete', { id: [customer!.id] }, { token: h.ownerToken })).error?.data.app?.code).toBe('VALIDATION');
    expect(await ctx.deps.prisma.customer.count({ where: { id: customer!.id } })).toBe(1);
    // Digits are fine.
    expect((await h.call('room/clientDelete', { id: String(customer!.id) })).errno).toBe(0);
  });

  it('refuses room_id: true (it used to read room 1)', async () => {
    const h = await hotel();
    const res = await h.call('room/lockInfo', { room_id: true });
    expect(res).toMatchObject({ errno: 100001, data: { fields: { room_id: 'Invalid ID' } } });
    expect((await api.raw.query('room.get', { id: true }, { token: h.ownerToken })).error?.data.app?.code).toBe('VALIDATION');
  });
});

describe('dates that do not exist are refused everywhere, never rolled over or answered with a server error', () => {
  it('refuses them in lists, breakfast, templates, birth dates and specific-date prices', async () => {
    const h = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-1), expectedCheckOutAt: hours(20) });
    const cases: [string, Record<string, unknown>, string][] = [
      ['room/tenant/list', { start_date: '2026-02-30' }, 'start_date'],
      ['room/tenant/list', { end_date: '2026-99-99' }, 'end_date'],
      ['room/hotelBreakFastList', { date: '2026-13-01' }, 'date'],
      ['priceTemplate/add', { name: 'T', price: 100, date_prices: [{ date: '2026-02-30', price: 120 }] }, 'date_prices.0.date'],
      ['room/addPassenger', { stay_id: stay.id, name: 'Born never', birth: '1990-02-30' }, 'birth'],
      ['room/setPrice', { room_id: h.rooms[0]!.id, price: 100, date_prices: [{ date: '2026-02-30', price: 120 }] }, 'date_prices.0.date'],
      ['room/countRoomPriceNew', { room_id: h.rooms[0]!.id, check_in_time: '2026-02-30 14:00:00', check_out_time: '2026-03-02 12:00:00' }, 'check_in_time'],
    ];
    for (const [path, payload, field] of cases) {
      const res = await h.call(path, payload);
      expect(res.errno, `${path} ${JSON.stringify(payload)}`).toBe(100001);
      expect(fieldsOf(res), path).toContain(field);
    }
    // Nothing was saved: 2026-02-30 did not become 2026-03-02.
    expect(await ctx.deps.prisma.roomDatePrice.count({ where: { roomId: h.rooms[0]!.id } })).toBe(0);
    expect(await ctx.deps.prisma.priceTemplate.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    const trpc = await api.raw.mutation(
      'price.setRoom',
      { roomId: h.rooms[0]!.id, usualPrice: 10_000, datePrices: [{ date: '2026-02-30', price: 12_000 }] },
      { token: h.ownerToken },
    );
    expect(trpc.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { 'datePrices.0.date': 'Incorrect date format' } });
    expect((await api.raw.query('stay.breakfast', { date: '2026-02-30' }, { token: h.ownerToken })).error?.data.app?.code).toBe('VALIDATION');
  });
});

describe('control characters are refused with a field error naming the field', () => {
  it('on the legacy protocol and over tRPC, in any text field, at any depth', async () => {
    const h = await hotel();
    expect(await h.call('room/addCategory', { name: 'Floor\u00001', sort: 1 })).toMatchObject({
      errno: 100001,
      data: { fields: { name: 'This field contains characters that are not allowed (control characters)' } },
    });
    const checkIn = await h.call('room/tenant/update/checkIn', {
      room_id: h.rooms[1]!.id,
      check_in_time: `${today()} 00:00:00`,
      check_out_time: `${addDays(today(), 2)} 12:00:00`,
      guests: [{ name: 'Ok' }, { name: 'Bad\u0007' }],
      request_id: randomUUID(),
    });
    expect(checkIn.errno).toBe(100001);
    expect(fieldsOf(checkIn)).toEqual(['guests.1.name']);
    const trpc = await api.raw.mutation('roomGroup.create', { name: 'Floor\u00002', sort: 1 }, { token: h.ownerToken });
    expect(trpc.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { name: expect.stringContaining('control characters') } });
    expect(await ctx.deps.prisma.roomGroup.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    expect(await ctx.deps.prisma.stay.count({ where: { roomId: h.rooms[1]!.id } })).toBe(0);
  });
});

describe('search matches literally: % and _ match themselves', () => {
  it('in the customer list, the tenant list and the guest list', async () => {
    const h = await hotel();
    await ctx.deps.prisma.customer.createMany({
      data: [
        { hotelId: h.hotel.id, nickname: '100% Guest' },
        { hotelId: h.hotel.id, nickname: 'Under_score' },
        { hotelId: h.hotel.id, nickname: 'Plain' },
      ],
    });
    await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-1), expectedCheckOutAt: hours(5), guestName: 'Ann_Lee' });
    await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[1]!.id, checkInAt: hours(-1), expectedCheckOutAt: hours(5), guestName: 'Bob 50%' });
    const names = async (path: string, payload: object, pick: (row: Record<string, unknown>) => unknown) =>
      ((await h.call(path, payload as Record<string, unknown>)).data as unknown as { list: Record<string, unknown>[] }).list.map(pick);
    expect(await names('room/clientList', { keyword: '%' }, (c) => c.nickname)).toEqual(['100% Guest']);
    expect(await names('room/clientList', { keyword: '_' }, (c) => c.nickname)).toEqual(['Under_score']);
    expect(await names('room/tenant/list', { keyword: '%' }, (s) => (s.guests as { name: string }[])[0]!.name)).toEqual(['Bob 50%']);
    expect(await names('room/tenant/list', { keyword: '_' }, (s) => (s.guests as { name: string }[])[0]!.name)).toEqual(['Ann_Lee']);
    expect(await names('passenger/list', { keyword: '%' }, (g) => g.name)).toEqual(['Bob 50%']);
    expect(await names('passenger/list', { keyword: '_' }, (g) => g.name)).toEqual(['Ann_Lee']);
    const trpc = await api.query('customer.list', { search: '%' }, { token: h.ownerToken });
    expect(trpc.data!.items.map((c) => c.nickname)).toEqual(['100% Guest']);
  });
});

describe('field errors name the fields the request sent', () => {
  it('maps the services\u2019 own checks to the legacy names (other_information, end_date, price, mac_id, check_out_time, name)', async () => {
    const h = await hotel();
    const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: h.rooms[0]!.id, checkInAt: hours(-1), expectedCheckOutAt: hours(20) });
    const checkIn = (extra: object) =>
      h.call('room/tenant/update/checkIn', {
        room_id: h.rooms[1]!.id,
        check_in_time: `${addDays(today(), -2)} 10:00:00`,
        check_out_time: `${addDays(today(), 3)} 12:00:00`,
        guests: [{ name: 'G' }],
        request_id: randomUUID(),
        ...extra,
      });
    const cases: [Promise<{ errno: number; data: unknown }>, string][] = [
      [checkIn({ other_information: 'x'.repeat(501) }), 'other_information'],
      [checkIn({ check_out_time: `${addDays(today(), -1)} 12:00:00` }), 'check_out_time'],
      [checkIn({ price: 0.5 }), 'price'],
      [checkIn({ guests: [{ name: '' }] }), 'guests.0.name'],
      [h.call('room/tenant/list', { start_date: '2027-02-01', end_date: '2027-01-01' }), 'end_date'],
      [h.call('room/setPrice', { room_id: h.rooms[0]!.id, price: 0.5 }), 'price'],
      [h.call('room/setLockData', { room_id: h.rooms[0]!.id, mac_id: 'not-a-mac' }), 'mac_id'],
      [h.call('room/setRenew', { stay_id: stay.id, check_out_time: `${addDays(today(), -1)} 12:00:00` }), 'check_out_time'],
      [h.call('room/addPassenger', { stay_id: stay.id, name: '' }), 'name'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expect(res.errno, field).toBe(100001);
      expect(fieldsOf(res), field).toEqual([field]);
    }
  });
});
