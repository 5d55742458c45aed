/**
 * The legacy reservation actions (issue 17 §4) as an old client would drive them: crypto-js
 * encrypting the envelope, times as `YYYY-MM-DD HH:mm:ss` in the hotel's zone, money in major units.
 * The hotel's zone is one where it is noon now, so "today" and "tomorrow" never depend on the hour
 * the test runs.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { TEST_PASSWORD, createAccount, createHotel, createRooms, zoneAtLocalHour } from '../../test/factories';
import { legacyClient } from '../../test/legacy-client';

let ctx: TestContext;
let ipCounter = 0;
const client = (language = 'en') => legacyClient(ctx.app, ctx.config, { language, ip: `10.78.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

interface LegacyReservation {
  id: number;
  room_id: number;
  room_name: string;
  state: string;
  check_in_time: string;
  check_out_time: string;
  price: number;
  deposit: number;
  awaits_arrival: number;
  no_show_time: string | null;
  cancel_reason: string | null;
  cancel_reason_text: string | null;
  cancel_note: string;
  guests: { name: string }[];
}

async function legacyHotel() {
  const timeZone = zoneAtLocalHour(12);
  const hotel = await createHotel(ctx.deps);
  await ctx.deps.prisma.hotel.update({ where: { id: hotel.id }, data: { timeZone } });
  const owner = await createAccount(ctx.deps, { hotelId: hotel.id, role: 'owner' });
  const { rooms, group } = await createRooms(ctx.deps, hotel.id, ['L201', 'L202'], { groupName: 'Legacy twin', usualPrice: 20_000 });
  const login = await client().call<{ token: string }>('login', { mobile: owner.mobile, password: TEST_PASSWORD });
  const today = localDate(new Date(), timeZone);
  return {
    hotel,
    owner,
    rooms: rooms as [(typeof rooms)[number], (typeof rooms)[number]],
    group: group!,
    token: login.data.token,
    at: (days: number, time: string) => `${addDays(today, days)} ${time}`,
    today,
  };
}

const guests = [{ name: 'Legacy Booker', mobile: '13912340001', id_number: 'L-1' }];

describe('reservations over the legacy protocol', () => {
  it('takes a reservation (room or category), lists the day, records the arrival; money in major units, times in the hotel zone', async () => {
    const h = await legacyHotel();
    const c = client();
    const add = (payload: Record<string, unknown>) =>
      c.call<LegacyReservation>(
        'room/reservation/add',
        { check_in_time: h.at(0, '18:00:00'), check_out_time: h.at(2, '12:00:00'), guests, request_id: randomUUID(), ...payload },
        { token: h.token },
      );
    const booked = await add({ room_id: h.rooms[0].id, deposit: 150.5, pay_type: 'alipay', other_information: 'late flight' });
    expect(booked).toMatchObject({
      errno: 0,
      data: {
        room_id: h.rooms[0].id,
        state: 'reserved',
        check_in_time: h.at(0, '18:00:00'),
        check_out_time: h.at(2, '12:00:00'),
        price: 400,
        deposit: 150.5,
        awaits_arrival: 1,
        no_show_time: h.at(1, '00:00:00'),
        cancel_reason: null,
        guests: [{ name: 'Legacy Booker' }],
      },
    });
    // A category: the first room free for the dates (L201 is taken).
    const any = await add({ category_id: h.group.id, price: 199 });
    expect(any).toMatchObject({ errno: 0, data: { room_id: h.rooms[1].id, price: 199 } });
    expect(await add({ category_id: h.group.id })).toMatchObject({ errno: 100006, errmsg: 'No room of group “Legacy twin” is free for these dates.' });
    // The deposit is on the stay's bill with how it was paid.
    const orders = await c.call<{ list: { type: string; amount: number; pay_type: string }[] }>(
      'order/orderList',
      { stay_id: booked.data.id },
      { token: h.token },
    );
    expect(orders.data.list.map((o) => [o.type, o.amount, o.pay_type])).toEqual([['deposit', 150.5, 'alipay']]);
    const day = await c.call<{ date: string; list: LegacyReservation[]; total: number; no_shows: LegacyReservation[] }>(
      'room/reservation/list',
      {},
      { token: h.token },
    );
    expect(day.data).toMatchObject({ date: h.today, total: 2, no_shows: [] });
    expect(day.data.list.map((s) => s.id).sort()).toEqual([booked.data.id, any.data.id].sort());
    const arrived = await c.call<LegacyReservation>('room/reservation/arrive', { stay_id: booked.data.id }, { token: h.token });
    expect(arrived).toMatchObject({ errno: 0, data: { id: booked.data.id, state: 'in_house', deposit: 150.5 } });
    expect(await c.call('room/reservation/arrive', { stay_id: booked.data.id }, { token: h.token })).toMatchObject({
      errno: 100006,
      errmsg: 'This is not a reservation waiting for its guest.',
    });
  });

  it('cancels with a reason code and a note, the text of the reason in the language of the client; refuses a missing reason or note', async () => {
    const h = await legacyHotel();
    const booked = await client().call<LegacyReservation>(
      'room/reservation/add',
      { room_id: h.rooms[0].id, check_in_time: h.at(1, '14:00:00'), check_out_time: h.at(2, '12:00:00'), guests, request_id: randomUUID() },
      { token: h.token },
    );
    const c = client('ar');
    expect(await c.call('room/reservation/cancel', { stay_id: booked.data.id }, { token: h.token })).toMatchObject({
      errno: 100001,
      data: { fields: { reason: 'اختر سبب الإلغاء' } },
    });
    expect(await c.call('room/reservation/cancel', { stay_id: booked.data.id, reason: 'other' }, { token: h.token })).toMatchObject({
      errno: 100001,
      data: { fields: { note: 'اذكر السبب في الملاحظة' } },
    });
    const cancelled = await c.call<LegacyReservation & { revoked_credentials: number }>(
      'room/reservation/cancel',
      { stay_id: booked.data.id, reason: 'no_deposit', note: 'no answer' },
      { token: h.token },
    );
    expect(cancelled).toMatchObject({
      errno: 0,
      data: { state: 'ended', cancel_reason: 'no_deposit', cancel_reason_text: 'لم يُستلم التأمين', cancel_note: 'no answer', revoked_credentials: 0 },
    });
    // The room is free for those nights again.
    expect(
      (
        await client().call(
          'room/reservation/add',
          { room_id: h.rooms[0].id, check_in_time: h.at(1, '14:00:00'), check_out_time: h.at(2, '12:00:00'), guests, request_id: randomUUID() },
          { token: h.token },
        )
      ).errno,
    ).toBe(0);
  });

  it('cancels a reservation holding a deposit only once told what becomes of it (issue 36): refunded the way named', async () => {
    const h = await legacyHotel();
    const booked = await client().call<LegacyReservation>(
      'room/reservation/add',
      {
        room_id: h.rooms[0].id,
        check_in_time: h.at(1, '14:00:00'),
        check_out_time: h.at(2, '12:00:00'),
        guests,
        deposit: 80,
        pay_type: 'cash',
        request_id: randomUUID(),
      },
      { token: h.token },
    );
    const c = client('en');
    const asked = await c.call<{ fields: Record<string, string> }>(
      'room/reservation/cancel',
      { stay_id: booked.data.id, reason: 'guest_request' },
      { token: h.token },
    );
    expect(asked).toMatchObject({ errno: 100001, data: { fields: { deposit: 'Choose whether the deposit is refunded or kept' } } });
    const refunded = await c.call<LegacyReservation>(
      'room/reservation/cancel',
      { stay_id: booked.data.id, reason: 'guest_request', deposit: 'refund', refund_method: 'alipay' },
      { token: h.token },
    );
    expect(refunded).toMatchObject({ errno: 0, data: { state: 'ended' } });
    const orders = await c.call<{ list: { type: string; amount: number; pay_type: string }[] }>(
      'order/orderList',
      { stay_id: booked.data.id },
      { token: h.token },
    );
    expect(orders.data.list.map((o) => [o.type, o.amount, o.pay_type]).sort()).toEqual([
      ['deposit', 80, 'cash'],
      ['refund', -80, 'alipay'],
    ]);
  });

  it('reads and sets the no-show time with the hotel information, and shows the next reservation of a room on the board', async () => {
    const h = await legacyHotel();
    const c = client();
    expect((await c.call('room/getHotelInfo', {}, { token: h.token })).data).toMatchObject({ no_show_time: '00:00' });
    expect(await c.call('room/setHotelData', { no_show_time: '25:00' }, { token: h.token })).toMatchObject({
      errno: 100001,
      data: { fields: { no_show_time: expect.any(String) } },
    });
    expect((await c.call('room/setHotelData', { no_show_time: '02:00' }, { token: h.token })).data).toMatchObject({ no_show_time: '02:00' });
    const booked = await c.call<LegacyReservation>(
      'room/reservation/add',
      { room_id: h.rooms[0].id, check_in_time: h.at(1, '14:00:00'), check_out_time: h.at(2, '12:00:00'), guests, request_id: randomUUID() },
      { token: h.token },
    );
    expect(booked.data.no_show_time).toBe(h.at(2, '02:00:00'));
    // Free tonight (status 1), the reservation named with the room.
    const board = await c.call<{ list: { id: number; status: number; stay_id: number | null; next_stay_id: number | null }[] }>(
      'room/listNew',
      {},
      { token: h.token },
    );
    expect(board.data.list.find((r) => r.id === h.rooms[0].id)).toMatchObject({ status: 1, stay_id: booked.data.id, next_stay_id: null });
  });

  it("gives another hotel 100005 for this hotel's rooms, categories and reservations, and refuses bad input with field errors", async () => {
    const h = await legacyHotel();
    const other = await legacyHotel();
    const c = client();
    const booked = await c.call<LegacyReservation>(
      'room/reservation/add',
      { room_id: h.rooms[0].id, check_in_time: h.at(1, '14:00:00'), check_out_time: h.at(2, '12:00:00'), guests, request_id: randomUUID() },
      { token: h.token },
    );
    const asOther = (path: string, payload: Record<string, unknown>) => c.call(path, payload, { token: other.token });
    expect(
      (
        await asOther('room/reservation/add', {
          room_id: h.rooms[1].id,
          check_in_time: h.at(1, '14:00:00'),
          check_out_time: h.at(2, '12:00:00'),
          guests,
          request_id: randomUUID(),
        })
      ).errno,
    ).toBe(100005);
    expect(
      (
        await asOther('room/reservation/add', {
          category_id: h.group.id,
          check_in_time: h.at(1, '14:00:00'),
          check_out_time: h.at(2, '12:00:00'),
          guests,
          request_id: randomUUID(),
        })
      ).errno,
    ).toBe(100005);
    expect((await asOther('room/reservation/arrive', { stay_id: booked.data.id })).errno).toBe(100005);
    expect((await asOther('room/reservation/cancel', { stay_id: booked.data.id, reason: 'guest_request' })).errno).toBe(100005);
    expect((await asOther('room/reservation/list', { date: addDays(h.today, 1) })).data).toMatchObject({ total: 0, list: [] });
    const bad = (payload: Record<string, unknown>) =>
      c.call(
        'room/reservation/add',
        { room_id: h.rooms[1].id, check_in_time: h.at(1, '14:00:00'), check_out_time: h.at(2, '12:00:00'), guests, request_id: randomUUID(), ...payload },
        { token: h.token },
      );
    expect(await bad({ deposit: 1e308 })).toMatchObject({ errno: 100001, data: { fields: { deposit: expect.any(String) } } });
    expect(await bad({ other_information: 'a\u0000b' })).toMatchObject({ errno: 100001 });
    expect(await bad({ room_id: undefined })).toMatchObject({ errno: 100001, data: { fields: { room_id: 'Choose a room or a room group' } } });
    expect(await bad({ check_in_time: h.at(-1, '14:00:00') })).toMatchObject({
      errno: 100001,
      data: { fields: { check_in_time: 'The arrival cannot be before today' } },
    });
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: h.hotel.id } })).toBe(1);
  });
});
