/**
 * A room a guest leaves once the day's tasks are made gets its departure clean at once (issue 39
 * §11, docs/housekeeping.md "The day's tasks"): a check-out before the expected day, a move to
 * another room, a room cleaned and left again that day (its clean opened again); before the day is
 * made nothing is added (the day-start job makes it), and a room out of order that day gets none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { createHotelWithStaff, createRooms, insertStay, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A hotel where it is 10:00, rooms 101 and 102 at one price, a guest in 101 staying two more nights. */
async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = zoneAtLocalHour(10);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['101', '102']);
  const [r101, r102] = rooms as [(typeof rooms)[number], (typeof rooms)[number]];
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  const guest = () => insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: r101.id, checkInAt: at(-1, '14:00'), expectedCheckOutAt: at(2, '12:00') });
  return { ...h, hotelId: h.hotel.id, today, r101, r102, guest };
}
type Hotel = Awaited<ReturnType<typeof hotel>>;

async function makeDay(h: Hotel) {
  const res = await api.mutation('housekeeping.generate', {}, { token: h.ownerToken });
  expect(res.error).toBeUndefined();
  // What the day-start job claims when it makes the day (generateDaysOnTime): the day is made.
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotelId }, data: { housekeepingDay: new Date(`${h.today}T00:00:00Z`) } });
}

async function departures(h: Hotel) {
  const res = await api.query('housekeeping.day', {}, { token: h.ownerToken });
  expect(res.error).toBeUndefined();
  return res.data!.tasks.filter((t) => t.kind === 'departure').map((t) => ({ room: t.roomName, status: t.status }));
}

async function checkOut(h: Hotel, stayId: number) {
  const res = await api.mutation('stay.checkOut', { stayId }, { token: h.ownerToken });
  expect(res.error).toBeUndefined();
}

describe('a departure clean', () => {
  it('is made at once for a guest who leaves before the expected day, once the day’s tasks are made', async () => {
    const h = await hotel();
    const stay = await h.guest();
    await makeDay(h);
    expect(await departures(h)).toEqual([]);
    await checkOut(h, stay.id);
    expect(await departures(h)).toEqual([{ room: '101', status: 'todo' }]);
  });

  it('is left to the day-start job before the day is made', async () => {
    const h = await hotel();
    const stay = await h.guest();
    await checkOut(h, stay.id);
    expect(await departures(h)).toEqual([]);
  });

  it('is made for the room a guest moves out of', async () => {
    const h = await hotel();
    const stay = await h.guest();
    await makeDay(h);
    const moved = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: h.r102.id }, { token: h.ownerToken });
    expect(moved.error).toBeUndefined();
    expect(await departures(h)).toEqual([{ room: '101', status: 'todo' }]);
  });

  it('done earlier that day is opened again when the room is left again', async () => {
    const h = await hotel();
    const first = await h.guest();
    await makeDay(h);
    await checkOut(h, first.id);
    await ctx.deps.prisma.housekeepingTask.updateMany({ where: { hotelId: h.hotelId, roomId: h.r101.id }, data: { status: 'done', doneAt: new Date() } });
    const second = await h.guest();
    await checkOut(h, second.id);
    expect(await departures(h)).toEqual([{ room: '101', status: 'todo' }]);
  });

  it('is not made for a room out of order that day', async () => {
    const h = await hotel();
    const stay = await h.guest();
    await makeDay(h);
    await ctx.deps.prisma.roomOutOfOrder.create({
      data: {
        hotelId: h.hotelId,
        roomId: h.r101.id,
        kind: 'out_of_order',
        startDate: new Date(`${h.today}T00:00:00Z`),
        endDate: new Date(`${h.today}T00:00:00Z`),
        reason: 'leak',
      },
    });
    await checkOut(h, stay.id);
    expect(await departures(h)).toEqual([]);
  });
});
