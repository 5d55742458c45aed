import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { createHotelWithStaff, createRooms } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

async function pricedHotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms, group } = await createRooms(ctx.deps, h.hotel.id, ['P1', 'P2', 'P3'], { groupName: 'Priced' });
  return { ...h, rooms: rooms as [(typeof rooms)[number], (typeof rooms)[number], (typeof rooms)[number]], group: group! };
}

describe('room prices', () => {
  it('sets deposit, usual, weekend, renewal and specific-date prices, which the quote then uses', async () => {
    const h = await pricedHotel();
    const set = await api.mutation(
      'price.setRoom',
      {
        roomId: h.rooms[0].id,
        depositAmount: 30_000,
        usualPrice: 19_900,
        weekendPrice: 25_900,
        renewalPrice: 15_000,
        datePrices: [{ date: '2026-12-24', price: 59_900 }],
      },
      { token: h.ownerToken },
    );
    expect(set.data).toMatchObject({
      depositAmount: 30_000,
      usualPrice: 19_900,
      weekendPrice: 25_900,
      renewalPrice: 15_000,
      currency: 'CNY',
      datePrices: [{ date: '2026-12-24', price: 59_900 }],
    });
    // Wed 23 to Sat 26 December 2026 in Shanghai: Wed usual, Thu the specific date, Fri weekend.
    const quote = await api.query(
      'price.quote',
      { roomId: h.rooms[0].id, checkInAt: '2026-12-23T06:00:00Z', expectedCheckOutAt: '2026-12-26T04:00:00Z' },
      { token: h.staffToken },
    );
    expect(quote.data!.nights.map((n) => [n.date, n.source])).toEqual([
      ['2026-12-23', 'usual'],
      ['2026-12-24', 'date'],
      ['2026-12-25', 'weekend'],
    ]);
    expect(quote.data).toMatchObject({ total: 19_900 + 59_900 + 25_900, depositAmount: 30_000 });
    const renewal = await api.query(
      'price.quote',
      { roomId: h.rooms[0].id, checkInAt: '2026-12-26T04:00:00Z', expectedCheckOutAt: '2026-12-28T04:00:00Z', kind: 'renewal' },
      { token: h.staffToken },
    );
    expect(renewal.data!.total).toBe(30_000);
  });

  it('refuses a price below 1 (in the hotel currency) field by field, and staff may not set prices', async () => {
    const h = await pricedHotel();
    const bad = await api.mutation(
      'price.setRoom',
      { roomId: h.rooms[0].id, usualPrice: 99, weekendPrice: 0, datePrices: [{ date: '2026-12-24', price: 50 }] },
      { token: h.ownerToken, lang: 'en' },
    );
    expect(bad.error?.data.app).toMatchObject({ code: 'VALIDATION', message: 'The price cannot be less than 1' });
    expect(bad.error?.data.app?.fields).toEqual({
      usualPrice: 'The price cannot be less than 1',
      weekendPrice: 'The price cannot be less than 1',
      'datePrices.0.price': 'The price cannot be less than 1',
    });
    const required = await api.mutation('price.setRoom', { roomId: h.rooms[0].id, usualPrice: '' }, { token: h.ownerToken, lang: 'zh-CN' });
    expect(required.error?.data.app?.fields).toEqual({ usualPrice: '请输入价格' });
    expect((await api.mutation('price.setRoom', { roomId: h.rooms[0].id, usualPrice: 10_000 }, { token: h.staffToken })).error?.data.app?.code).toBe(
      'FORBIDDEN',
    );
  });
});

describe('price templates', () => {
  it('adds, lists, applies to a group or to rooms, and deletes, leaving rooms their prices', async () => {
    const h = await pricedHotel();
    const saved = await api.mutation(
      'price.saveTemplate',
      { name: 'Peak', depositAmount: 10_000, usualPrice: 40_000, weekendPrice: 50_000, datePrices: [{ date: '2026-12-31', price: 99_900 }] },
      { token: h.ownerToken },
    );
    expect(saved.data).toMatchObject({ name: 'Peak', usualPrice: 40_000, roomCount: 0 });
    expect((await api.mutation('price.saveTemplate', { name: 'Peak', usualPrice: 1_000 }, { token: h.ownerToken })).error?.data.app?.code).toBe('CONFLICT');

    expect((await api.mutation('price.applyTemplate', { templateId: saved.data!.id, groupId: h.group.id }, { token: h.ownerToken })).data).toEqual({
      rooms: 3,
    });
    const price = await api.query('price.room', { roomId: h.rooms[1].id }, { token: h.ownerToken });
    expect(price.data).toMatchObject({
      usualPrice: 40_000,
      weekendPrice: 50_000,
      depositAmount: 10_000,
      priceTemplateId: saved.data!.id,
      datePrices: [{ date: '2026-12-31', price: 99_900 }],
    });
    expect((await api.query('price.templates', undefined, { token: h.ownerToken })).data!.map((t) => [t.name, t.roomCount])).toEqual([['Peak', 3]]);

    const cheap = await api.mutation('price.saveTemplate', { name: 'Cheap', usualPrice: 9_900 }, { token: h.ownerToken });
    await api.mutation('price.applyTemplate', { templateId: cheap.data!.id, roomIds: [h.rooms[0].id] }, { token: h.ownerToken });
    expect((await api.query('price.room', { roomId: h.rooms[0].id }, { token: h.ownerToken })).data).toMatchObject({
      usualPrice: 9_900,
      weekendPrice: null,
      datePrices: [],
    });

    expect((await api.mutation('price.deleteTemplate', { id: saved.data!.id }, { token: h.ownerToken })).status).toBe(200);
    expect((await api.query('price.room', { roomId: h.rooms[1].id }, { token: h.ownerToken })).data).toMatchObject({
      usualPrice: 40_000,
      priceTemplateId: null,
    });
    const target = await api.mutation('price.applyTemplate', { templateId: cheap.data!.id }, { token: h.ownerToken, lang: 'en' });
    expect(target.error?.data.app?.fields).toEqual({ roomIds: 'Choose the rooms or the group to apply it to' });
  });

  it('gives hotel B "not found" on hotel A templates and rooms', async () => {
    const a = await pricedHotel();
    const b = await pricedHotel();
    const template = (await api.mutation('price.saveTemplate', { name: 'A only', usualPrice: 30_000 }, { token: a.ownerToken })).data!;
    const mine = (await api.mutation('price.saveTemplate', { name: 'B own', usualPrice: 30_000 }, { token: b.ownerToken })).data!;
    const token = b.ownerToken;
    const attempts = await Promise.all([
      api.query('price.template', { id: template.id }, { token }),
      api.mutation('price.saveTemplate', { id: template.id, name: 'x', usualPrice: 10_000 }, { token }),
      api.mutation('price.deleteTemplate', { id: template.id }, { token }),
      api.mutation('price.applyTemplate', { templateId: template.id, groupId: b.group.id }, { token }),
      api.mutation('price.applyTemplate', { templateId: mine.id, roomIds: [a.rooms[0].id] }, { token }),
      api.mutation('price.applyTemplate', { templateId: mine.id, groupId: a.group.id }, { token }),
      api.query('price.room', { roomId: a.rooms[0].id }, { token }),
      api.mutation('price.setRoom', { roomId: a.rooms[0].id, usualPrice: 10_000 }, { token }),
    ]);
    for (const res of attempts) expect(res.error?.data.app?.code).toBe('NOT_FOUND');
    expect((await api.query('price.templates', undefined, { token })).data!.map((t) => t.name)).toEqual(['B own']);
    expect((await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: a.rooms[0].id } })).usualPrice).toBe(20_000);
  });
});
