/**
 * The timeline's window (issue 28 §1, docs/timeline.md): rooms grouped in the board's order, the
 * stays overlapping the window as bars with their state, guest, channel and code state, and the
 * header's figures per day in the hotel's time zone; a member limited to some rooms sees those
 * alone, another hotel's group is not found, and a window that is not one of the widths is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { createSession } from '../auth/session.service';
import { createAccount, createHotelWithStaff, createRooms, insertStay, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A hotel where it is noon now, with two floors, a room out of order, and stays of every kind around today. */
async function tapeHotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  const hotelId = h.hotel.id;
  const floor1 = await createRooms(ctx.deps, hotelId, ['101', '102'], { groupName: 'Floor 1' });
  const floor2 = await createRooms(ctx.deps, hotelId, ['201'], { groupName: 'Floor 2' });
  await ctx.deps.prisma.roomGroup.update({ where: { id: floor2.group!.id }, data: { sort: 2 } });
  const [r301] = (await createRooms(ctx.deps, hotelId, ['301'])).rooms;
  await ctx.deps.prisma.room.update({ where: { id: r301!.id }, data: { maintenance: 'out_of_order' } });
  const [r101, r102] = floor1.rooms as [(typeof floor1.rooms)[number], (typeof floor1.rooms)[number]];
  const r201 = floor2.rooms[0]!;
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;

  const inHouse = await insertStay(ctx.deps, {
    hotelId,
    roomId: r101.id,
    checkInAt: at(-1, '14:00'),
    expectedCheckOutAt: at(2, '12:00'),
    guestName: 'Ana Lima',
  });
  await ctx.deps.prisma.lockPassword.create({
    data: {
      hotelId,
      roomId: r101.id,
      stayId: inHouse.id,
      kind: 'custom',
      holderName: 'Ana',
      code: '483920',
      validFrom: at(-1, '14:00'),
      validUntil: at(2, '12:00'),
      deliveryState: 'on_lock',
    },
  });
  const reserved = await insertStay(ctx.deps, {
    hotelId,
    roomId: r102.id,
    checkInAt: at(1, '14:00'),
    expectedCheckOutAt: at(3, '12:00'),
    status: 'reserved',
    guestName: 'Bo Chen',
  });
  await ctx.deps.prisma.lockPassword.create({
    data: {
      hotelId,
      roomId: r102.id,
      stayId: reserved.id,
      kind: 'custom',
      holderName: 'Bo',
      code: '572910',
      validFrom: at(1, '14:00'),
      validUntil: at(3, '12:00'),
      deliveryState: 'failed',
    },
  });
  const feed = await ctx.deps.prisma.calendarFeed.create({ data: { hotelId, roomId: r102.id, label: 'Airbnb', url: 'https://example.test/a.ics' } });
  await ctx.deps.prisma.calendarFeedBooking.create({
    data: {
      hotelId,
      feedId: feed.id,
      uid: 'u-1',
      stayId: reserved.id,
      state: 'booked',
      reference: 'HM123',
      guestName: 'Bo Chen',
      startsAt: at(1, '14:00'),
      endsAt: at(3, '12:00'),
    },
  });
  // Left owing: checked out yesterday with its bill owing.
  const owing = await insertStay(ctx.deps, { hotelId, roomId: r201.id, checkInAt: at(-3, '14:00'), expectedCheckOutAt: at(-1, '12:00'), guestName: 'Cy Owes' });
  await ctx.deps.prisma.stay.update({ where: { id: owing.id }, data: { status: 'checked_out', checkedOutAt: at(-1, '11:00') } });
  await ctx.deps.prisma.folio.create({ data: { hotelId, stayId: owing.id, currency: 'CNY', owedAt: at(-1, '11:00'), owedAmount: 5000, owedReason: 'unpaid' } });
  const gone = await insertStay(ctx.deps, { hotelId, roomId: r102.id, checkInAt: at(-2, '10:00'), expectedCheckOutAt: at(-1, '10:00'), guestName: 'Di Gone' });
  await ctx.deps.prisma.stay.update({ where: { id: gone.id }, data: { status: 'checked_out', checkedOutAt: at(-1, '10:00') } });
  // Not shown: a cancelled reservation inside the window, a reservation after it, a stay gone before it.
  const cancelled = await insertStay(ctx.deps, { hotelId, roomId: r201.id, checkInAt: at(1, '14:00'), expectedCheckOutAt: at(2, '12:00'), status: 'reserved' });
  await ctx.deps.prisma.stay.update({ where: { id: cancelled.id }, data: { status: 'ended', checkedOutAt: new Date(), cancelReason: 'guest_request' } });
  const later = await insertStay(ctx.deps, { hotelId, roomId: r101.id, checkInAt: at(20, '14:00'), expectedCheckOutAt: at(22, '12:00'), status: 'reserved' });
  const before = await insertStay(ctx.deps, { hotelId, roomId: r201.id, checkInAt: at(-9, '14:00'), expectedCheckOutAt: at(-6, '12:00') });
  await ctx.deps.prisma.stay.update({ where: { id: before.id }, data: { status: 'checked_out', checkedOutAt: at(-6, '12:00') } });
  return {
    ...h,
    timeZone,
    today,
    at,
    rooms: { r101, r102, r201, r301: r301! },
    groups: { floor1: floor1.group!, floor2: floor2.group! },
    stays: { inHouse, reserved, owing, gone, cancelled, later, before },
  };
}

async function limitedTo(hotelId: number, roomIds: number[]) {
  const account = await createAccount(ctx.deps, {});
  const membership = await ctx.deps.prisma.membership.create({ data: { accountId: account.id, hotelId, role: 'staff', allRooms: false } });
  for (const roomId of roomIds) await ctx.deps.prisma.membershipRoom.create({ data: { hotelId, membershipId: membership.id, roomId } });
  return (await createSession(ctx.deps, { accountId: account.id, hotelId, kind: 'web', meta: testMeta() })).token;
}

/** The bars of the window's rooms, one block (`timeline.bars`) at a time, as the grid reads them. */
async function barsOf(token: string, from: string, days: number, roomIds: number[]) {
  const bars = [];
  for (let i = 0; i < roomIds.length; i += 100) {
    const res = await api.query('timeline.bars', { from, days, roomIds: roomIds.slice(i, i + 100) }, { token });
    expect(res.status).toBe(200);
    bars.push(...res.data!.bars);
  }
  return bars;
}
const roomIdsOf = (w: { groups: { rooms: { id: number }[] }[] }) => w.groups.flatMap((g) => g.rooms.map((r) => r.id));

describe('timeline.window', () => {
  it('shows the rooms grouped, the stays as bars with their state, guest, channel and code state, and each day in figures', async () => {
    const t = await tapeHotel();
    const from = addDays(t.today, -2);
    const res = await api.query('timeline.window', { from, days: 7 }, { token: t.staffToken });
    expect(res.status).toBe(200);
    const w = res.data!;
    expect(w).toMatchObject({ from, to: addDays(from, 7), days: 7, timeZone: t.timeZone, today: t.today });
    expect(w.groups.map((g) => [g.name, g.rooms.map((r) => `${r.name}:${r.maintenance}`)])).toEqual([
      ['Floor 1', ['101:none', '102:none']],
      ['Floor 2', ['201:none']],
      [null, ['301:out_of_order']],
    ]);
    expect(w.roomGroups.map((g) => g.name)).toEqual(['Floor 1', 'Floor 2']);
    const bars = Object.fromEntries((await barsOf(t.staffToken, from, 7, roomIdsOf(w))).map((b) => [b.stayId, b]));
    expect(
      Object.keys(bars)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([t.stays.inHouse.id, t.stays.reserved.id, t.stays.owing.id, t.stays.gone.id].sort((a, b) => a - b));
    expect(bars[t.stays.inHouse.id]).toMatchObject({
      roomId: t.rooms.r101.id,
      state: 'in_house',
      isActive: true,
      guestName: 'Ana Lima',
      channel: null,
      codeState: 'on_lock',
      startDate: addDays(t.today, -1),
      endDate: addDays(t.today, 2),
      startAt: t.at(-1, '14:00').toISOString(),
      endAt: t.at(2, '12:00').toISOString(),
    });
    expect(bars[t.stays.reserved.id]).toMatchObject({ state: 'reserved', guestName: 'Bo Chen', channel: 'Airbnb', codeState: 'failed', isActive: true });
    expect(bars[t.stays.owing.id]).toMatchObject({ state: 'owing', isActive: false, codeState: null, endDate: addDays(t.today, -1) });
    expect(bars[t.stays.gone.id]).toMatchObject({ state: 'checked_out', guestName: 'Di Gone', isActive: false });

    // Sellable rooms: 101, 102, 201 (301 is out of order).
    const day = (offset: number) => w.header.find((d) => d.date === addDays(t.today, offset))!;
    expect(w.header).toHaveLength(7);
    expect(day(-2)).toEqual({ date: addDays(t.today, -2), free: 1, occupancy: 67, arrivals: 1, departures: 0 }); // 102 (Di) and 201 (Cy) sold
    expect(day(-1)).toEqual({ date: addDays(t.today, -1), free: 2, occupancy: 33, arrivals: 1, departures: 2 }); // Ana arrives; Cy and Di leave
    expect(day(0)).toEqual({ date: t.today, free: 2, occupancy: 33, arrivals: 0, departures: 0 });
    expect(day(1)).toEqual({ date: addDays(t.today, 1), free: 1, occupancy: 67, arrivals: 1, departures: 0 });
    expect(day(2)).toEqual({ date: addDays(t.today, 2), free: 2, occupancy: 33, arrivals: 0, departures: 1 });
    expect(day(4)).toEqual({ date: addDays(t.today, 4), free: 3, occupancy: 0, arrivals: 0, departures: 0 });
  });

  it('a room group narrows the rooms and bars; the figures count those rooms', async () => {
    const t = await tapeHotel();
    const w = (await api.query('timeline.window', { from: addDays(t.today, -2), days: 14, groupId: t.groups.floor2.id }, { token: t.ownerToken })).data!;
    expect(w.groups.map((g) => g.rooms.map((r) => r.name))).toEqual([['201']]);
    expect((await barsOf(t.ownerToken, addDays(t.today, -2), 14, roomIdsOf(w))).map((b) => b.stayId)).toEqual([t.stays.owing.id]);
    expect(w.header).toHaveLength(14);
    expect(w.header[0]).toMatchObject({ free: 0, occupancy: 100 });
    // The group filter still lists every group of the member's rooms.
    expect(w.roomGroups.map((g) => g.name)).toEqual(['Floor 1', 'Floor 2']);
  });

  it('a member limited to some rooms sees those rooms and their stays alone; other groups are not found', async () => {
    const t = await tapeHotel();
    const token = await limitedTo(t.hotel.id, [t.rooms.r201.id]);
    const res = await api.query('timeline.window', { from: addDays(t.today, -2), days: 30 }, { token });
    expect(res.status).toBe(200);
    const w = res.data!;
    expect(w.groups.map((g) => [g.name, g.rooms.map((r) => r.name)])).toEqual([['Floor 2', ['201']]]);
    expect(w.roomGroups.map((g) => g.name)).toEqual(['Floor 2']);
    const bars = await barsOf(token, addDays(t.today, -2), 30, roomIdsOf(w));
    expect(bars.map((b) => b.stayId)).toEqual([t.stays.owing.id]);
    expect(w.bars.map((b) => b.stayId)).toEqual([t.stays.owing.id]);
    expect(JSON.stringify(w)).not.toContain('Ana Lima');
    expect(w.header[0]).toMatchObject({ free: 0, occupancy: 100, arrivals: 0 });
    const other = await api.query('timeline.window', { from: t.today, days: 7, groupId: t.groups.floor1.id }, { token });
    expect(other.status).toBe(404);
    expect(other.error?.data.app?.code).toBe('NOT_FOUND');
  });

  it('shows another hotel nothing of this one, and its group is not found', async () => {
    const t = await tapeHotel();
    const b = await createHotelWithStaff(ctx.deps);
    await createRooms(ctx.deps, b.hotel.id, ['B1']);
    const mine = (await api.query('timeline.window', { from: addDays(t.today, -2), days: 60 }, { token: b.ownerToken })).data!;
    expect(mine.groups.flatMap((g) => g.rooms.map((r) => r.name))).toEqual(['B1']);
    expect(await barsOf(b.ownerToken, addDays(t.today, -2), 60, roomIdsOf(mine))).toEqual([]);
    expect(mine.bars).toEqual([]);
    expect(mine.header).toHaveLength(60);
    const theirs = await api.query('timeline.window', { from: t.today, days: 7, groupId: t.groups.floor1.id }, { token: b.ownerToken });
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(theirs)).not.toContain('Floor 1');
  });

  it('refuses a window that is not 7, 14, 30 or 60 days, a date that does not exist, and ids out of range', async () => {
    const t = await tapeHotel();
    for (const input of [
      { from: t.today, days: 8 },
      { from: t.today, days: 1e308 },
      { from: '2026-02-30', days: 7 },
      { from: `${t.today}\u0000`, days: 7 },
      { from: t.today, days: 7, groupId: 1e308 },
      { from: t.today, days: 7, groupId: -1 },
    ]) {
      const res = await api.query('timeline.window', input as never, { token: t.staffToken });
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.error?.data.app?.code).toBe('VALIDATION');
    }
  });
});

describe('timeline.bars (a block of rooms)', () => {
  it("never returns another hotel's rooms: their ids give no bar, beside the asker's own", async () => {
    const t = await tapeHotel();
    const b = await createHotelWithStaff(ctx.deps);
    const [b1] = (await createRooms(ctx.deps, b.hotel.id, ['B1'])).rooms;
    const mine = await insertStay(ctx.deps, {
      hotelId: b.hotel.id,
      roomId: b1!.id,
      checkInAt: t.at(-1, '14:00'),
      expectedCheckOutAt: t.at(1, '12:00'),
      guestName: 'Bea Own',
    });
    const theirIds = Object.values(t.rooms).map((r) => r.id);
    const res = await api.query('timeline.bars', { from: addDays(t.today, -2), days: 7, roomIds: [...theirIds, b1!.id] }, { token: b.ownerToken });
    expect(res.status).toBe(200);
    expect(res.data!.bars.map((x) => x.stayId)).toEqual([mine.id]);
    expect(JSON.stringify(res.data)).not.toMatch(/Ana Lima|Bo Chen|Cy Owes|Di Gone/);
    // Their owner sees their own, and none of B's.
    const theirs = await api.query('timeline.bars', { from: addDays(t.today, -2), days: 7, roomIds: [...theirIds, b1!.id] }, { token: t.ownerToken });
    expect(theirs.data!.bars.map((x) => x.roomId)).not.toContain(b1!.id);
    expect(theirs.data!.bars).toHaveLength(4);
  });

  it('a member limited to some rooms gets the bars of those rooms alone, whatever block is asked', async () => {
    const t = await tapeHotel();
    const token = await limitedTo(t.hotel.id, [t.rooms.r201.id]);
    const res = await api.query('timeline.bars', { from: addDays(t.today, -2), days: 7, roomIds: Object.values(t.rooms).map((r) => r.id) }, { token });
    expect(res.status).toBe(200);
    expect(res.data!.bars.map((b) => [b.stayId, b.roomId])).toEqual([[t.stays.owing.id, t.rooms.r201.id]]);
    const none = await api.query('timeline.bars', { from: addDays(t.today, -2), days: 7, roomIds: [t.rooms.r101.id, t.rooms.r102.id] }, { token });
    expect(none.data!.bars).toEqual([]);
  });

  it('the header counts every room of the hotel, not a block: a stay in the 150th room is counted though the first block has no bar of it', async () => {
    const t = await tapeHotel();
    const names = Array.from({ length: 150 }, (_, i) => `9${String(i).padStart(3, '0')}`);
    const extra = (await createRooms(ctx.deps, t.hotel.id, names, { groupName: 'Floor 9' })).rooms;
    await ctx.deps.prisma.roomGroup.updateMany({ where: { hotelId: t.hotel.id, name: 'Floor 9' }, data: { sort: 9 } });
    const last = extra[extra.length - 1]!;
    const far = await insertStay(ctx.deps, {
      hotelId: t.hotel.id,
      roomId: last.id,
      checkInAt: t.at(0, '09:00'),
      expectedCheckOutAt: t.at(2, '12:00'),
      guestName: 'Far Away',
    });
    const from = addDays(t.today, -2);
    const w = (await api.query('timeline.window', { from, days: 7 }, { token: t.ownerToken })).data!;
    const ids = roomIdsOf(w);
    expect(ids).toHaveLength(154);
    expect(ids.indexOf(last.id)).toBeGreaterThanOrEqual(100);
    const firstBlock = await api.query('timeline.bars', { from, days: 7, roomIds: ids.slice(0, 100) }, { token: t.ownerToken });
    expect(firstBlock.data!.bars.map((b) => b.stayId)).not.toContain(far.id);
    // The window brings the first block's bars with it (the grid opens on them).
    expect(w.bars).toEqual(firstBlock.data!.bars);
    // Sellable: 101, 102, 201 and the 150 new rooms (301 is out of order). Today: Ana (101) and Far Away.
    const today = w.header.find((d) => d.date === t.today)!;
    expect(today).toEqual({ date: t.today, free: 151, occupancy: Math.round((2 / 153) * 100), arrivals: 1, departures: 0 });
    // The same figures as counted from every block's bars.
    const bars = await barsOf(t.ownerToken, from, 7, ids);
    expect(bars.map((b) => b.stayId)).toContain(far.id);
    expect(bars.filter((b) => b.startDate === t.today)).toHaveLength(today.arrivals);
  });

  it('refuses no rooms, too many rooms, and a window that is not one of the widths', async () => {
    const t = await tapeHotel();
    for (const input of [
      { from: t.today, days: 7, roomIds: [] },
      { from: t.today, days: 7, roomIds: Array.from({ length: 251 }, (_, i) => i + 1) },
      { from: t.today, days: 8, roomIds: [t.rooms.r101.id] },
      { from: t.today, days: 7, roomIds: [-1] },
    ]) {
      const res = await api.query('timeline.bars', input as never, { token: t.staffToken });
      expect(res.status, JSON.stringify(input).slice(0, 80)).toBe(400);
    }
  });
});
