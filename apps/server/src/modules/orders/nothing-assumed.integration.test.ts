/**
 * Nothing about money is assumed (issue 26 §1): a deposit is recorded only with the way it was
 * paid, so a reservation made without one holds none and its cancellation refunds nothing; today's
 * takings count only money received; a check-out does not decide the fate of a deposit held for
 * the clerk. The legacy protocol keeps its documented meaning (a deposit sent is money taken, in
 * cash unless `pay_type` says otherwise).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { createSession } from '../auth/session.service';
import { createHotelWithStaff, createRooms, hours, uniqueMobile, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A hotel where it is noon now, with two rooms whose deposit setting is 200.00. */
async function desk() {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['101', '102']);
  await ctx.deps.prisma.room.updateMany({ where: { hotelId: h.hotel.id }, data: { depositAmount: 20_000 } });
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  return { ...h, timeZone, rooms, at };
}
type Desk = Awaited<ReturnType<typeof desk>>;

const guest = () => ({ name: `Guest ${randomUUID().slice(0, 6)}`, mobile: uniqueMobile() });

const reserve = (d: Desk, roomId: number, extra: Record<string, unknown> = {}) =>
  api.mutation(
    'stay.reserve',
    {
      roomId,
      checkInAt: d.at(1, '14:00').toISOString(),
      expectedCheckOutAt: d.at(2, '12:00').toISOString(),
      guests: [guest()],
      idempotencyKey: randomUUID(),
      ...extra,
    },
    { token: d.staffToken, lang: 'en' },
  );
const walkIn = (d: Desk, roomId: number, extra: Record<string, unknown> = {}) =>
  api.mutation(
    'stay.checkIn',
    {
      roomId,
      checkInAt: hours(-0.1).toISOString(),
      expectedCheckOutAt: d.at(1, '12:00').toISOString(),
      guests: [guest()],
      idempotencyKey: randomUUID(),
      ...extra,
    },
    { token: d.staffToken, lang: 'en' },
  );
const entriesOf = async (d: Desk, stayId: number) =>
  (await api.query('order.folio', { stayId }, { token: d.staffToken })).data!.entries.map((e) => [e.kind, e.amount, e.method]);
const takings = async (d: Desk) => (await api.query('today.get', undefined, { token: d.ownerToken })).data!.takings;

describe('nothing about money is assumed', () => {
  it('refuses a deposit without the way it was paid, on a reservation and a check-in, and records nothing', async () => {
    const d = await desk();
    const [a, b] = d.rooms;
    for (const attempt of [reserve(d, a!.id, { depositAmount: 20_000 }), walkIn(d, b!.id, { depositAmount: 20_000 })]) {
      const refused = await attempt;
      expect(refused.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { depositMethod: 'Choose a payment method' } });
    }
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: d.hotel.id } })).toBe(0);
    expect(await ctx.deps.prisma.orderEntry.count({ where: { hotelId: d.hotel.id } })).toBe(0);
    // Said how it was paid, it is recorded so.
    const stay = (await walkIn(d, b!.id, { depositAmount: 20_000, depositMethod: 'bank_card' })).data!;
    expect(await entriesOf(d, stay.id)).toContainEqual(['deposit', 20_000, 'bank_card']);
  });

  it('holds no deposit on a reservation made without one: cancelled, nothing is due back, and today took nothing', async () => {
    const d = await desk();
    const before = await takings(d);
    const booked = (await reserve(d, d.rooms[0]!.id)).data!;
    expect(booked.depositAmount).toBe(0);
    expect(await entriesOf(d, booked.id)).toEqual([]);
    const cancelled = await api.mutation('stay.cancelReservation', { stayId: booked.id, reason: 'guest_request' }, { token: d.staffToken });
    expect(cancelled.data).toMatchObject({ state: 'ended' });
    const folio = (await api.query('order.folio', { stayId: booked.id }, { token: d.staffToken })).data!;
    expect(folio.entries.filter((e) => e.kind === 'deposit' || e.kind === 'refund')).toEqual([]);
    expect(folio.depositHeld).toBe(0);
    expect(await takings(d)).toEqual(before);
  });

  it('counts in today’s takings a deposit the clerk took, and only that', async () => {
    const d = await desk();
    await walkIn(d, d.rooms[0]!.id);
    expect((await takings(d))!.received).toBe(0);
    await walkIn(d, d.rooms[1]!.id, { depositAmount: 15_000, depositMethod: 'cash' });
    expect(await takings(d)).toMatchObject({ received: 15_000, entries: 1 });
  });

  it('does not refund or keep a deposit held unless the clerk says which: the guest stays checked in', async () => {
    const d = await desk();
    const stay = (await walkIn(d, d.rooms[0]!.id, { depositAmount: 20_000, depositMethod: 'cash' })).data!;
    const undecided = await api.mutation('order.settle', { stayId: stay.id, checkOut: true }, { token: d.staffToken, lang: 'en' });
    expect(undecided.error?.data.app).toMatchObject({ code: 'VALIDATION', fields: { deposit: 'Choose whether the deposit is refunded or kept' } });
    expect((await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).status).toBe('in_house');
    const owed = (await api.query('order.folio', { stayId: stay.id }, { token: d.staffToken })).data!.preview!.ifDepositRefunded.owed;
    const settled = await api.mutation(
      'order.settle',
      { stayId: stay.id, checkOut: true, deposit: 'refund', payment: owed > 0 ? { amount: owed, method: 'cash' } : undefined },
      { token: d.staffToken },
    );
    expect(settled.data).toMatchObject({ state: 'settled' });
  });

  it('keeps the legacy meaning: a deposit sent by a legacy check-in is money taken, in cash unless pay_type says', async () => {
    const d = await desk();
    const legacy = legacyClient(ctx.app, ctx.config);
    const token = (await createSession(ctx.deps, { accountId: d.staff.id, hotelId: d.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    const local = (x: Date) => `${localDate(x, d.timeZone)} ${x.toLocaleTimeString('en-GB', { timeZone: d.timeZone, hour12: false })}`;
    const checkIn = (roomId: number, extra: Record<string, unknown>) =>
      legacy.call(
        'room/tenant/update/checkIn',
        {
          room_id: roomId,
          check_in_time: local(hours(-0.1)),
          check_out_time: local(d.at(1, '12:00')),
          guests: [{ name: 'Legacy' }],
          request_id: randomUUID(),
          ...extra,
        },
        { token, language: 'en' },
      );
    const cash = (await checkIn(d.rooms[0]!.id, { deposit: '100.00' })) as { errno: number; data: { stay_id?: number; id?: number } };
    const card = (await checkIn(d.rooms[1]!.id, { deposit: '50.00', pay_type: 'wechat' })) as { errno: number };
    expect([cash.errno, card.errno]).toEqual([0, 0]);
    const deposits = await ctx.deps.prisma.orderEntry.findMany({ where: { hotelId: d.hotel.id, kind: 'deposit' }, orderBy: { amount: 'desc' } });
    expect(deposits.map((e) => [e.amount, e.method])).toEqual([
      [10_000, 'cash'],
      [5_000, 'wechat'],
    ]);
  });
});
