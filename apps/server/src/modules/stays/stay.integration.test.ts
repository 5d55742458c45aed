import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zonedToInstant, addDays, localDate } from '@console/shared';
import { createTestContext, type TestContext } from '../../test/harness';
import { createHotelWithStaff, createRooms, hours, insertStay, uniqueMobile, zoneAtLocalHour } from '../../test/factories';
import { trpcClient } from '../../test/trpc-client';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

async function frontDesk() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['101', '102', '103'], { usualPrice: 20_000 });
  return { ...h, rooms: rooms as [(typeof rooms)[number], (typeof rooms)[number], (typeof rooms)[number]] };
}

const guest = (name: string, extra: object = {}) => ({
  name,
  gender: 'female' as const,
  nationality: 'CN',
  idNumber: `ID-${name}`,
  mobile: uniqueMobile(),
  ...extra,
});

function checkInInput(roomId: number, extra: Record<string, unknown> = {}) {
  return {
    roomId,
    checkInAt: hours(-0.5).toISOString(),
    expectedCheckOutAt: hours(24).toISOString(),
    lengthUnit: 'day' as const,
    breakfast: true,
    guests: [guest(`Guest-${randomUUID().slice(0, 8)}`)],
    idempotencyKey: randomUUID(),
    ...extra,
  };
}

async function roomStatus(token: string, roomId: number) {
  return (await api.query('room.get', { id: roomId }, { token })).data!.status;
}

describe('check-in', () => {
  it('checks guests in with a co-guest: the stay is in house, priced by the pricing function, and the room shows Checked in', async () => {
    const d = await frontDesk();
    const input = checkInInput(d.rooms[0].id, {
      guests: [guest('Main'), guest('Co', { gender: 'male', idNumber: 'ID-CO', mobile: null })],
      depositAmount: 50_000,
      depositMethod: 'cash',
      remark: 'VIP',
    });
    const res = await api.mutation('stay.checkIn', input, { token: d.staffToken });
    expect(res.status).toBe(200);
    const stay = res.data!;
    expect(stay).toMatchObject({ state: 'in_house', roomName: '101', breakfast: true, depositAmount: 50_000, remark: 'VIP' });
    expect(stay.guests.map((g) => [g.name, g.isPrimary])).toEqual([
      ['Main', true],
      ['Co', false],
    ]);
    const quote = await api.query(
      'price.quote',
      { roomId: d.rooms[0].id, checkInAt: input.checkInAt, expectedCheckOutAt: input.expectedCheckOutAt },
      { token: d.staffToken },
    );
    expect(stay.priceAmount).toBe(quote.data!.total);
    expect(await roomStatus(d.staffToken, d.rooms[0].id)).toBe('checked_in');
  });

  it('makes a check-in dated ahead a stay to come: the room is Occupied/reserved from its arrival day (in the hotel zone), free tonight before it', async () => {
    const d = await frontDesk();
    // Noon at the hotel, whatever the hour the test runs.
    await ctx.deps.prisma.hotel.update({ where: { id: d.hotel.id }, data: { timeZone: zoneAtLocalHour(12) } });
    const later = await api.mutation(
      'stay.checkIn',
      checkInInput(d.rooms[1].id, { checkInAt: hours(48).toISOString(), expectedCheckOutAt: hours(72).toISOString() }),
      { token: d.staffToken },
    );
    expect(later.data!).toMatchObject({ state: 'reserved', awaitsArrival: false, noShowAt: null });
    expect(await roomStatus(d.staffToken, d.rooms[1].id)).toBe('vacant');
    const today = await api.mutation(
      'stay.checkIn',
      checkInInput(d.rooms[2].id, { checkInAt: hours(3).toISOString(), expectedCheckOutAt: hours(24).toISOString() }),
      { token: d.staffToken },
    );
    expect(today.data!.state).toBe('reserved');
    expect(await roomStatus(d.staffToken, d.rooms[2].id)).toBe('reserved');
  });

  it('validates: check-out at least one hour after check-in, a guest with a name, a fixed price of at least 1', async () => {
    const d = await frontDesk();
    const checkInAt = hours(1);
    const bad = await api.mutation(
      'stay.checkIn',
      checkInInput(d.rooms[0].id, {
        checkInAt: checkInAt.toISOString(),
        expectedCheckOutAt: new Date(checkInAt.getTime() + 59 * 60_000).toISOString(),
        guests: [],
      }),
      { token: d.staffToken, lang: 'zh-CN' },
    );
    expect(bad.error?.data.app?.fields).toEqual({ expectedCheckOutAt: '退房时间至少要比入住时间晚 1 小时', guests: '请至少添加一位住客' });
    const unnamed = await api.mutation('stay.checkIn', checkInInput(d.rooms[0].id, { guests: [{ name: '' }] }), { token: d.staffToken, lang: 'en' });
    expect(unnamed.error?.data.app?.fields).toEqual({ 'guests.0.name': "Enter the guest's name" });
    const cheap = await api.mutation('stay.checkIn', checkInInput(d.rooms[0].id, { priceMode: 'fixed', fixedPrice: 99 }), { token: d.staffToken, lang: 'en' });
    expect(cheap.error?.data.app).toMatchObject({ code: 'VALIDATION', message: 'The price cannot be less than 1' });
  });

  it('refuses an overlapping stay with "room already occupied", translated', async () => {
    const d = await frontDesk();
    await api.mutation('stay.checkIn', checkInInput(d.rooms[0].id), { token: d.staffToken });
    const clash = await api.mutation(
      'stay.checkIn',
      checkInInput(d.rooms[0].id, { checkInAt: hours(10).toISOString(), expectedCheckOutAt: hours(30).toISOString() }),
      { token: d.staffToken, lang: 'zh-CN' },
    );
    expect(clash.status).toBe(409);
    // Named: whose stay is in the way and until when (issue 26 §6; named-conflicts.integration.test.ts).
    expect(clash.error?.data.app).toMatchObject({
      code: 'CONFLICT',
      reason: 'stay.errors.roomOccupied',
      message: expect.stringMatching(/正在入住该房间，至 .+ 退房$/),
    });
    // The next stay may start exactly when the first ends.
    const next = await api.mutation(
      'stay.checkIn',
      checkInInput(d.rooms[0].id, { checkInAt: hours(24).toISOString(), expectedCheckOutAt: hours(30).toISOString() }),
      { token: d.staffToken },
    );
    expect(next.status).toBe(200);
  });

  it('lets exactly one of 20 simultaneous overlapping check-ins of one room through', async () => {
    const d = await frontDesk();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.mutation(
          'stay.checkIn',
          checkInInput(d.rooms[2].id, { checkInAt: hours(2 + i * 0.1).toISOString(), expectedCheckOutAt: hours(26 + i).toISOString() }),
          { token: d.staffToken, lang: 'en' },
        ),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const failures = results.filter((r) => r.status !== 200);
    expect(failures).toHaveLength(19);
    // Refused with the winner named (seen before the transaction) or, lost at the constraint, in general words.
    expect(failures.every((r) => r.error?.data.app?.reason === 'stay.errors.roomOccupied')).toBe(true);
    for (const message of new Set(failures.map((r) => r.error?.data.app?.message)))
      expect(message).toMatch(/^The room is (already occupied for that period\.|reserved for .+ from .+ to .+\.)$/);
    expect(await ctx.deps.prisma.stay.count({ where: { roomId: d.rooms[2].id } })).toBe(1);
  });

  it('makes one stay of the same check-in sent twice, even at the same moment', async () => {
    const d = await frontDesk();
    const input = checkInInput(d.rooms[0].id);
    const [a, b] = await Promise.all([
      api.mutation('stay.checkIn', input, { token: d.staffToken }),
      api.mutation('stay.checkIn', input, { token: d.staffToken }),
    ]);
    const again = await api.mutation('stay.checkIn', input, { token: d.staffToken });
    expect([a.status, b.status, again.status]).toEqual([200, 200, 200]);
    expect(new Set([a.data!.id, b.data!.id, again.data!.id]).size).toBe(1);
    expect(await ctx.deps.prisma.stay.count({ where: { roomId: d.rooms[0].id } })).toBe(1);
    expect(await ctx.deps.prisma.stayGuest.count({ where: { stayId: a.data!.id } })).toBe(1);
  });

  it('asks to confirm a guest already in another room, and a dirty room, then goes ahead', async () => {
    const d = await frontDesk();
    await api.mutation('stay.checkIn', checkInInput(d.rooms[0].id, { guests: [guest('Wanderer', { idNumber: 'ID-W1' })] }), { token: d.staffToken });
    await ctx.deps.prisma.room.update({ where: { id: d.rooms[1].id }, data: { cleanStatus: 'dirty' } });
    const input = checkInInput(d.rooms[1].id, { guests: [guest('Wanderer', { idNumber: 'ID-W1' })] });
    const ask = await api.mutation('stay.checkIn', input, { token: d.staffToken, lang: 'en' });
    expect(ask.error?.data.app).toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      message: 'Guest "Wanderer" is already checked into room "101". Continue?',
      details: { warnings: ['guest_in_other_room', 'room_dirty'], elsewhere: [{ guest: 'Wanderer', room: '101' }] },
    });
    const half = await api.mutation('stay.checkIn', { ...input, acknowledge: ['guest_in_other_room'] }, { token: d.staffToken, lang: 'en' });
    expect(half.error?.data.app).toMatchObject({ code: 'CONFIRMATION_REQUIRED', message: 'Room "102" has not been cleaned yet. Check in anyway?' });
    const ok = await api.mutation('stay.checkIn', { ...input, acknowledge: ['guest_in_other_room', 'room_dirty'] }, { token: d.staffToken });
    expect(ok.data!.state).toBe('in_house');
  });

  it('refuses a room under maintenance', async () => {
    const d = await frontDesk();
    await ctx.deps.prisma.room.update({ where: { id: d.rooms[0].id }, data: { maintenance: 'out_of_order' } });
    expect((await api.mutation('stay.checkIn', checkInInput(d.rooms[0].id), { token: d.staffToken, lang: 'en' })).error?.data.app?.message).toBe(
      'Room "101" is under maintenance and cannot be checked into.',
    );
  });

  it('disables the old cards of the guest when asked', async () => {
    const d = await frontDesk();
    const old = await insertStay(ctx.deps, {
      hotelId: d.hotel.id,
      roomId: d.rooms[2].id,
      checkInAt: hours(-100),
      expectedCheckOutAt: hours(-80),
      status: 'checked_out',
      guestIdNumber: 'ID-CARD',
    });
    const oldGuest = await ctx.deps.prisma.stayGuest.findFirstOrThrow({ where: { stayId: old.id } });
    const card = await ctx.deps.prisma.card.create({ data: { hotelId: d.hotel.id, cardNumber: `CARD-${randomUUID()}`, kind: 'room' } });
    await ctx.deps.prisma.cardGrant.create({
      data: {
        hotelId: d.hotel.id,
        cardId: card.id,
        roomId: d.rooms[2].id,
        stayId: old.id,
        guestId: oldGuest.id,
        validFrom: hours(-100),
        deliveryState: 'on_lock',
      },
    });
    await api.mutation('stay.checkIn', checkInInput(d.rooms[0].id, { disableOldCards: true, guests: [guest('Returning', { idNumber: 'ID-CARD' })] }), {
      token: d.staffToken,
    });
    expect(await ctx.deps.prisma.cardGrant.findFirstOrThrow({ where: { cardId: card.id } })).toMatchObject({ deliveryState: 'removing' });
  });
});

describe('check-out, renewal, room change, guests', () => {
  async function inHouse(d: Awaited<ReturnType<typeof frontDesk>>, roomIndex = 0, extra: Record<string, unknown> = {}) {
    return (await api.mutation('stay.checkIn', checkInInput(d.rooms[roomIndex]!.id, extra), { token: d.staffToken })).data!;
  }

  it('checks out: the room becomes Dirty and the credentials of the stay are queued for removal', async () => {
    const d = await frontDesk();
    const stay = await inHouse(d);
    await ctx.deps.prisma.lockPassword.create({
      data: {
        hotelId: d.hotel.id,
        roomId: d.rooms[0].id,
        stayId: stay.id,
        kind: 'custom',
        holderName: 'g',
        code: '123456',
        validFrom: new Date(),
        deliveryState: 'on_lock',
      },
    });
    const out = await api.mutation('stay.checkOut', { stayId: stay.id }, { token: d.staffToken });
    expect(out.data).toMatchObject({ state: 'checked_out', revokedCredentials: 1 });
    expect(out.data!.checkedOutAt).toBeTruthy();
    expect(await roomStatus(d.staffToken, d.rooms[0].id)).toBe('dirty');
    expect((await api.mutation('stay.checkOut', { stayId: stay.id }, { token: d.staffToken, lang: 'en' })).error?.data.app?.message).toBe(
      'This stay has ended; this action is no longer possible.',
    );
    // Mark it clean: Vacant again.
    expect((await api.mutation('room.setStatus', { roomId: d.rooms[0].id, target: 'clean' }, { token: d.staffToken })).data!.status).toBe('vacant');
  });

  it('refuses to check out a reservation that has not begun (cancel it instead), and cancels it leaving the room clean', async () => {
    const d = await frontDesk();
    const stay = await inHouse(d, 0, { checkInAt: hours(30).toISOString(), expectedCheckOutAt: hours(50).toISOString() });
    const refused = await api.mutation('stay.checkOut', { stayId: stay.id }, { token: d.staffToken });
    expect(refused.error?.data.app).toMatchObject({ code: 'CONFLICT', reason: 'stay.errors.checkOutNotArrived' });
    const cancelled = await api.mutation('stay.cancelReservation', { stayId: stay.id, reason: 'guest_request' }, { token: d.staffToken });
    expect(cancelled.data!.state).toBe('ended');
    expect(await roomStatus(d.staffToken, d.rooms[0].id)).toBe('vacant');
  });

  it('renews at the computed price or a set price, refusing a date before the current check-out or into another stay', async () => {
    const d = await frontDesk();
    const stay = await inHouse(d);
    const end = new Date(stay.expectedCheckOutAt);
    const twoMore = new Date(end.getTime() + 48 * 3_600_000);
    const quote = await api.query(
      'price.quote',
      { roomId: d.rooms[0].id, checkInAt: end.toISOString(), expectedCheckOutAt: twoMore.toISOString(), kind: 'renewal' },
      { token: d.staffToken },
    );
    const renewed = await api.mutation('stay.renew', { stayId: stay.id, expectedCheckOutAt: twoMore.toISOString() }, { token: d.staffToken });
    expect(renewed.data).toMatchObject({
      expectedCheckOutAt: twoMore.toISOString(),
      addedPrice: quote.data!.total,
      priceAmount: stay.priceAmount + quote.data!.total,
    });
    const fixed = await api.mutation(
      'stay.renew',
      { stayId: stay.id, expectedCheckOutAt: new Date(twoMore.getTime() + 24 * 3_600_000).toISOString(), priceMode: 'fixed', fixedPrice: 12_300 },
      { token: d.staffToken },
    );
    expect(fixed.data!.addedPrice).toBe(12_300);
    const earlier = await api.mutation('stay.renew', { stayId: stay.id, expectedCheckOutAt: end.toISOString() }, { token: d.staffToken, lang: 'en' });
    expect(earlier.error?.data.app?.fields).toEqual({ expectedCheckOutAt: 'The new check-out must be later than the current expected check-out' });
    const later = new Date(fixed.data!.expectedCheckOutAt);
    await insertStay(ctx.deps, {
      hotelId: d.hotel.id,
      roomId: d.rooms[0].id,
      checkInAt: new Date(later.getTime() + 3_600_000),
      expectedCheckOutAt: new Date(later.getTime() + 30 * 3_600_000),
      status: 'reserved',
    });
    const clash = await api.mutation(
      'stay.renew',
      { stayId: stay.id, expectedCheckOutAt: new Date(later.getTime() + 5 * 3_600_000).toISOString() },
      { token: d.staffToken, lang: 'en' },
    );
    expect(clash.error?.data.app).toMatchObject({
      reason: 'stay.errors.roomOccupied',
      message: expect.stringMatching(/^The room is reserved for .+ from .+ to .+\.$/),
    });
  });

  it('changes the room: history kept, guests carried over, price difference applied, old room Dirty', async () => {
    const d = await frontDesk();
    await ctx.deps.prisma.room.update({ where: { id: d.rooms[1].id }, data: { usualPrice: 35_000, weekendPrice: 35_000 } });
    await ctx.deps.prisma.room.update({ where: { id: d.rooms[0].id }, data: { weekendPrice: 20_000 } });
    const stay = await inHouse(d, 0, { guests: [guest('Mover'), guest('Partner')] });
    // A dearer room: whether the difference is charged is the clerk's answer, never assumed (issue 36).
    const unasked = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: d.rooms[1].id }, { token: d.staffToken, lang: 'en' });
    expect(unasked.error?.data.app).toMatchObject({
      reason: 'validation.upgradeChoiceRequired',
      fields: { upgrade: 'Say whether the difference is charged or the upgrade is complimentary' },
    });
    expect((await api.query('stay.get', { stayId: stay.id }, { token: d.staffToken })).data?.state).toBe('in_house');
    const moved = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: d.rooms[1].id, upgrade: 'charge' }, { token: d.staffToken });
    expect(moved.status).toBe(200);
    const nights = (
      await api.query(
        'price.quote',
        { roomId: d.rooms[1].id, checkInAt: new Date().toISOString(), expectedCheckOutAt: stay.expectedCheckOutAt },
        { token: d.staffToken },
      )
    ).data!.nights.length;
    expect(moved.data).toMatchObject({
      roomName: '102',
      state: 'in_house',
      movedFromStayId: stay.id,
      priceDifference: 15_000 * nights,
      priceAmount: stay.priceAmount + 15_000 * nights,
    });
    expect(moved.data!.guests.map((g) => g.name)).toEqual(['Mover', 'Partner']);
    const old = await api.query('stay.get', { stayId: stay.id }, { token: d.staffToken });
    expect(old.data).toMatchObject({ state: 'moved', movedToStayId: moved.data!.id });
    expect(await roomStatus(d.staffToken, d.rooms[0].id)).toBe('dirty');
    expect(await roomStatus(d.staffToken, d.rooms[1].id)).toBe('checked_in');
  });

  it('gives a complimentary upgrade: the booked price kept, the difference not charged, and the audit says so', async () => {
    const d = await frontDesk();
    await ctx.deps.prisma.room.update({ where: { id: d.rooms[1].id }, data: { usualPrice: 35_000, weekendPrice: 35_000 } });
    const stay = await inHouse(d, 0);
    const moved = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: d.rooms[1].id, upgrade: 'complimentary' }, { token: d.staffToken });
    expect(moved.data).toMatchObject({ roomName: '102', priceDifference: 0, priceAmount: stay.priceAmount });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { action: 'stay.changeRoom', entityId: String(stay.id) } });
    expect(audit.after).toMatchObject({ priceDifference: 0, complimentaryUpgrade: expect.any(Number) });
    expect((audit.after as { complimentaryUpgrade: number }).complimentaryUpgrade).toBeGreaterThan(0);
  });

  it('says "room change failed" and why', async () => {
    const d = await frontDesk();
    const stay = await inHouse(d, 0);
    await inHouse(d, 1);
    const zh = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: d.rooms[1].id }, { token: d.staffToken, lang: 'zh-CN' });
    expect(zh.error?.data.app?.message).toBe('换房失败：房间“102”在这段时间已被占用');
    const same = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: d.rooms[0].id }, { token: d.staffToken, lang: 'en' });
    expect(same.error?.data.app?.message).toBe('Room change failed: choose a different room.');
    await ctx.deps.prisma.room.update({ where: { id: d.rooms[2].id }, data: { maintenance: 'out_of_service' } });
    const broken = await api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: d.rooms[2].id }, { token: d.staffToken, lang: 'en' });
    expect(broken.error?.data.app?.message).toBe('Room change failed: room "103" is under maintenance.');
    expect((await api.query('stay.get', { stayId: stay.id }, { token: d.staffToken })).data!.state).toBe('in_house');
  });

  it('adds and removes a co-guest, and keeps the main guest', async () => {
    const d = await frontDesk();
    const stay = await inHouse(d);
    const added = await api.mutation('stay.addGuest', { stayId: stay.id, guest: guest('Friend', { gender: 'male' }) }, { token: d.staffToken });
    expect(added.data!.guests.map((g) => g.name)).toEqual([stay.guests[0]!.name, 'Friend']);
    const friend = added.data!.guests[1]!;
    const removed = await api.mutation('stay.removeGuest', { stayId: stay.id, guestId: friend.id }, { token: d.staffToken });
    expect(removed.data!.guests).toHaveLength(1);
    const primary = await api.mutation('stay.removeGuest', { stayId: stay.id, guestId: stay.guests[0]!.id }, { token: d.staffToken, lang: 'en' });
    expect(primary.error?.data.app?.message).toBe('The main guest cannot be removed.');
  });
});

describe('stay list, guests, breakfast', () => {
  it('filters stays by state, dates, room and guest', async () => {
    const d = await frontDesk();
    const tz = 'Asia/Shanghai';
    const today = localDate(new Date(), tz);
    await api.mutation('stay.checkIn', checkInInput(d.rooms[0].id, { guests: [guest('Current One')] }), { token: d.staffToken });
    await api.mutation(
      'stay.checkIn',
      checkInInput(d.rooms[1].id, { checkInAt: hours(72).toISOString(), expectedCheckOutAt: hours(96).toISOString(), guests: [guest('Future Two')] }),
      { token: d.staffToken },
    );
    await insertStay(ctx.deps, {
      hotelId: d.hotel.id,
      roomId: d.rooms[2].id,
      checkInAt: zonedToInstant(`${addDays(today, -20)}T14:00`, tz)!,
      expectedCheckOutAt: zonedToInstant(`${addDays(today, -18)}T12:00`, tz)!,
      status: 'checked_out',
      guestName: 'Past Three',
    });
    const list = (input: object) => api.query('stay.list', input, { token: d.staffToken }).then((r) => r.data!.items.map((s) => s.guests[0]!.name));
    expect(await list({})).toEqual(['Future Two', 'Current One', 'Past Three']);
    expect(await list({ state: 'current' })).toEqual(['Future Two', 'Current One']);
    expect(await list({ state: 'in_house' })).toEqual(['Current One']);
    expect(await list({ state: 'reserved' })).toEqual(['Future Two']);
    expect(await list({ state: 'checked_out' })).toEqual(['Past Three']);
    expect(await list({ from: addDays(today, -19), to: addDays(today, -19) })).toEqual(['Past Three']);
    expect(await list({ from: today, to: today })).toEqual(['Current One']);
    expect(await list({ roomId: d.rooms[1].id })).toEqual(['Future Two']);
    expect(await list({ guest: 'current' })).toEqual(['Current One']);
  });

  it('shows a guest with their stay (the guest detail page), and lists guests', async () => {
    const d = await frontDesk();
    const stay = (
      await api.mutation(
        'stay.checkIn',
        checkInInput(d.rooms[0].id, { guests: [guest('Detail Person', { birthDate: '1990-05-06' })], remark: 'late arrival' }),
        { token: d.staffToken },
      )
    ).data!;
    const detail = await api.query('stay.guest', { guestId: stay.guests[0]!.id }, { token: d.staffToken });
    expect(detail.data).toMatchObject({ guest: { name: 'Detail Person', birthDate: '1990-05-06' }, stay: { id: stay.id, remark: 'late arrival' } });
    const guests = await api.query('stay.guests', { search: 'detail' }, { token: d.staffToken });
    expect(guests.data!.items.map((g) => [g.name, g.roomName])).toEqual([['Detail Person', '101']]);
  });

  it('lists the breakfasts of a morning and records them served', async () => {
    const d = await frontDesk();
    const tz = 'Asia/Shanghai';
    const today = localDate(new Date(), tz);
    const stay = await insertStay(ctx.deps, {
      hotelId: d.hotel.id,
      roomId: d.rooms[0].id,
      checkInAt: zonedToInstant(`${addDays(today, -1)}T15:00`, tz)!,
      expectedCheckOutAt: zonedToInstant(`${addDays(today, 1)}T12:00`, tz)!,
      guestName: 'Hungry',
    });
    await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { breakfast: true } });
    await insertStay(ctx.deps, {
      hotelId: d.hotel.id,
      roomId: d.rooms[1].id,
      checkInAt: zonedToInstant(`${addDays(today, -1)}T15:00`, tz)!,
      expectedCheckOutAt: zonedToInstant(`${addDays(today, 1)}T12:00`, tz)!,
    });
    const list = await api.query('stay.breakfast', { date: today }, { token: d.staffToken });
    expect(list.data).toMatchObject({ guests: 1, served: 0, rows: [{ stayId: stay.id, guests: 1, servedAt: null }] });
    expect((await api.query('stay.breakfast', { date: addDays(today, -1) }, { token: d.staffToken })).data!.rows).toEqual([]);
    const served = await api.mutation('stay.serveBreakfast', { stayId: stay.id, date: today }, { token: d.staffToken });
    expect(served.data!.servedGuests).toBe(1);
    expect((await api.query('stay.breakfast', { date: today }, { token: d.staffToken })).data!.served).toBe(1);
    expect(
      (await api.mutation('stay.serveBreakfast', { stayId: stay.id, date: addDays(today, 5) }, { token: d.staffToken, lang: 'en' })).error?.data.app?.message,
    ).toBe('This stay has no breakfast on that day.');
  });
});

describe('tenancy', () => {
  it('gives hotel B "not found" for every stay operation on hotel A', async () => {
    const a = await frontDesk();
    const b = await frontDesk();
    const stay = (await api.mutation('stay.checkIn', checkInInput(a.rooms[0].id), { token: a.staffToken })).data!;
    const token = b.ownerToken;
    const attempts = await Promise.all([
      api.mutation('stay.checkIn', checkInInput(a.rooms[1].id), { token }),
      api.query('stay.get', { stayId: stay.id }, { token }),
      api.mutation('stay.checkOut', { stayId: stay.id }, { token }),
      api.mutation('stay.renew', { stayId: stay.id, expectedCheckOutAt: hours(100).toISOString() }, { token }),
      api.mutation('stay.changeRoom', { stayId: stay.id, targetRoomId: b.rooms[0].id }, { token }),
      api.mutation('stay.addGuest', { stayId: stay.id, guest: guest('Intruder') }, { token }),
      api.mutation('stay.removeGuest', { stayId: stay.id, guestId: stay.guests[0]!.id }, { token }),
      api.query('stay.guest', { guestId: stay.guests[0]!.id }, { token }),
      api.mutation('stay.serveBreakfast', { stayId: stay.id, date: localDate(new Date(), 'Asia/Shanghai') }, { token }),
      api.query('price.quote', { roomId: a.rooms[0].id, checkInAt: hours(1).toISOString(), expectedCheckOutAt: hours(20).toISOString() }, { token }),
    ]);
    for (const res of attempts) expect(res.error?.data.app?.code).toBe('NOT_FOUND');
    // B's own room cannot receive A's stay either (the move above was refused), and A's lists are invisible to B.
    expect((await api.query('stay.list', {}, { token })).data!.total).toBe(0);
    expect((await api.query('stay.guests', {}, { token })).data!.total).toBe(0);
    expect((await api.query('stay.get', { stayId: stay.id }, { token: a.staffToken })).data!.state).toBe('in_house');
  });
});
