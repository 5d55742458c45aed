/**
 * Issue 39 §10: the room-change picker offers rooms free over the stay's nights (room.list's
 * freeFrom/freeTo), not rooms vacant at this moment: a room reserved from tomorrow, one out of order on
 * one of the nights and one in maintenance are left out; a room whose guest leaves before the period
 * is in. Both ends or neither, in order; another hotel's rooms never appear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness';
import { createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx?.close());

describe('rooms free over a period', () => {
  it('leaves out a room booked, out of order or in maintenance over it, and keeps one freed before it', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: 'UTC' } });
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['F1', 'F2', 'F3', 'F4', 'F5']);
    const [f1, f2, f3, f4, f5] = rooms as [(typeof rooms)[0], (typeof rooms)[0], (typeof rooms)[0], (typeof rooms)[0], (typeof rooms)[0]];
    // F1: reserved from tomorrow (vacant now). F2: out of order in three days. F3: in maintenance.
    // F4: its guest leaves in an hour. F5: nothing.
    await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: f1.id, checkInAt: hours(24), expectedCheckOutAt: hours(48), status: 'reserved' });
    const day = (offset: number) => new Date(new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10));
    await ctx.deps.prisma.roomOutOfOrder.create({
      data: { hotelId: h.hotel.id, roomId: f2.id, kind: 'out_of_order', startDate: day(3), endDate: day(3), reason: 'Leak' },
    });
    await ctx.deps.prisma.room.update({ where: { id: f3.id }, data: { maintenance: 'out_of_service' } });
    await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: f4.id, checkInAt: hours(-20), expectedCheckOutAt: hours(1) });
    const other = await createHotelWithStaff(ctx.deps);
    await createRooms(ctx.deps, other.hotel.id, ['F9']);

    const names = async (freeFrom: Date, freeTo: Date, status?: 'vacant') => {
      const answer = await api.query('room.list', { pageSize: 50, sort: 'name_asc', freeFrom, freeTo, status }, { token: h.ownerToken });
      expect(answer.error).toBeUndefined();
      return answer.data!.items.map((r) => r.name);
    };
    expect(await names(hours(2), hours(5 * 24))).toEqual(['F4', 'F5']);
    expect(await names(hours(2), hours(20))).toEqual(['F1', 'F2', 'F4', 'F5']);
    // With the board's status: vacant now and free over the nights.
    expect(await names(hours(2), hours(20), 'vacant')).toEqual(['F1', 'F2', 'F5']);
    expect(await names(hours(-2), hours(20))).toEqual(['F1', 'F2', 'F5']);
    expect(f5.name).toBe('F5');

    for (const bad of [{ freeFrom: hours(5) }, { freeFrom: hours(5), freeTo: hours(2) }, { freeTo: hours(2) }]) {
      const answer = await api.query('room.list', { pageSize: 50, ...bad }, { token: h.ownerToken, lang: 'en' });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(Object.values(answer.error?.data.app?.fields ?? {})).toEqual(['The end must come after the start.']);
    }
  });
});
