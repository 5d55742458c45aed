import { createHash } from 'node:crypto';
import { localDate } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { insertKeptLock } from '../../test/lock-factories';
import { trpcClient } from '../../test/trpc-client';
import { createSession } from '../auth/session.service';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { recordPayment } from '../orders/payments';
import { correctEntry, refundEntry } from '../orders/refunds';

/**
 * The today board (today.get): each figure of a hotel's day, in its time zone, over the rooms
 * the member may see, equals the list it links to; another hotel's data never shows; a member
 * limited to some rooms sees their rooms' figures only; takings only for members who manage orders.
 */
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext({ locks: null });
  api = trpcClient(ctx.app);
});

afterAll(async () => {
  await ctx?.close();
});

/**
 * A time zone where it is about noon now (an `Etc/GMT±n` zone: whole hours), so that a few hours
 * either side of now are still today whenever the test runs: today is [now - 12 h - m, now + 12 h - m).
 */
function noonZone(): string {
  const offset = 12 - new Date().getUTCHours();
  return offset >= 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

async function data<T>(promise: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  const result = await promise;
  if (result.data === undefined) throw new Error(JSON.stringify(result.error));
  return result.data;
}

/**
 * Entries of the order ledger, each on the bill of the room's latest stay (made on first use, in
 * the entry's currency), posted to the journal as every entry is.
 */
async function ledger(hotelId: number, entries: { kind: 'payment' | 'deposit' | 'room_charge'; amount: number; currency: string; roomId: number; at: Date }[]) {
  for (const entry of entries) {
    const stay = await ctx.deps.prisma.stay.findFirstOrThrow({
      where: { hotelId, roomId: entry.roomId },
      orderBy: { checkInAt: 'desc' },
      select: { id: true },
    });
    const folio =
      (await ctx.deps.prisma.folio.findUnique({ where: { hotelId_stayId: { hotelId, stayId: stay.id } } })) ??
      (await ctx.deps.prisma.folio.create({ data: { hotelId, stayId: stay.id, currency: entry.currency } }));
    await ctx.deps.prisma.orderEntry.create({
      data: {
        hotelId,
        kind: entry.kind,
        amount: entry.amount,
        currency: entry.currency,
        roomId: entry.roomId,
        stayId: stay.id,
        folioId: folio.id,
        method: entry.kind === 'room_charge' ? null : 'cash',
        note: 'till',
        createdAt: entry.at,
      },
    });
  }
}

/** Hotel A's day: every figure has one or two rooms of its own (see the expectations below). */
async function hotelA() {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = noonZone();
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone, currency: 'CNY' } });
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8']);
  const [a1, a2, a3, a4, a5, a6, a7, a8] = rooms as [
    (typeof rooms)[0],
    (typeof rooms)[0],
    (typeof rooms)[0],
    (typeof rooms)[0],
    (typeof rooms)[0],
    (typeof rooms)[0],
    (typeof rooms)[0],
    (typeof rooms)[0],
  ];
  const hotelId = h.hotel.id;
  const today = localDate(new Date(), timeZone);

  // A1: in house since yesterday, leaves today at +3 h, breakfast for two (served); its lock's battery (legacy reading) 10 %.
  const s1 = await insertStay(ctx.deps, { hotelId, roomId: a1.id, checkInAt: hours(-20), expectedCheckOutAt: hours(3), guestName: 'Guest One' });
  await ctx.deps.prisma.stay.update({ where: { id: s1.id }, data: { breakfast: true } });
  await ctx.deps.prisma.stayGuest.create({ data: { hotelId, stayId: s1.id, name: 'Guest One B' } });
  await ctx.deps.prisma.breakfastRecord.create({ data: { hotelId, stayId: s1.id, date: new Date(`${today}T00:00:00Z`), guests: 2, servedAt: hours(-1) } });
  await ctx.deps.prisma.room.update({ where: { id: a1.id }, data: { lockPower: 10 } });
  // A2: arrived today at -2 h, leaves tomorrow; breakfast, but it did not sleep here last night.
  const s2 = await insertStay(ctx.deps, { hotelId, roomId: a2.id, checkInAt: hours(-2), expectedCheckOutAt: hours(30), guestName: 'Guest Two' });
  await ctx.deps.prisma.stay.update({ where: { id: s2.id }, data: { breakfast: true } });
  // A3: a reservation arriving today at +2 h.
  const s3 = await insertStay(ctx.deps, {
    hotelId,
    roomId: a3.id,
    checkInAt: hours(2),
    expectedCheckOutAt: hours(26),
    status: 'reserved',
    guestName: 'Guest Three',
  });
  // A4: overdue (expected at -1 h, still there).
  await insertStay(ctx.deps, { hotelId, roomId: a4.id, checkInAt: hours(-30), expectedCheckOutAt: hours(-1), status: 'expired', guestName: 'Guest Four' });
  // A5: checked out today at -1 h after a night with breakfast; the room is clean again.
  const s5 = await insertStay(ctx.deps, {
    hotelId,
    roomId: a5.id,
    checkInAt: hours(-26),
    expectedCheckOutAt: hours(-1),
    status: 'checked_out',
    guestName: 'Guest Five',
  });
  await ctx.deps.prisma.stay.update({ where: { id: s5.id }, data: { breakfast: true, checkedOutAt: hours(-1) } });
  // A stay checked out yesterday (not a departure of today) and a cancelled reservation of today (not an arrival).
  const old = await insertStay(ctx.deps, { hotelId, roomId: a5.id, checkInAt: hours(-60), expectedCheckOutAt: hours(-40), status: 'checked_out' });
  await ctx.deps.prisma.stay.update({ where: { id: old.id }, data: { checkedOutAt: hours(-40) } });
  const cancelled = await insertStay(ctx.deps, { hotelId, roomId: a8.id, checkInAt: hours(1), expectedCheckOutAt: hours(5), status: 'reserved' });
  await ctx.deps.prisma.stay.update({ where: { id: cancelled.id }, data: { status: 'ended', checkedOutAt: hours(-3) } });
  // A6 dirty, A7 out of order, A8's lock offline at its last check (an older report said online).
  await ctx.deps.prisma.room.update({ where: { id: a6.id }, data: { cleanStatus: 'dirty' } });
  await ctx.deps.prisma.room.update({ where: { id: a7.id }, data: { maintenance: 'out_of_order' } });
  const lockId = `8${hotelId}${Date.now() % 1e6}`;
  const lock = await insertKeptLock(ctx.deps, hotelId, a8.id, lockId);
  await ctx.deps.prisma.lock.update({ where: { id: lock }, data: { online: false, battery: 80, statusCheckedAt: hours(-1) } });
  // Deliveries that failed: a password of A2, a face of A3, a card of A1 (and one on its lock, which does not count).
  await ctx.deps.prisma.lockPassword.create({
    data: {
      hotelId,
      roomId: a2.id,
      stayId: s2.id,
      kind: 'custom',
      holderName: 'Guest Two',
      code: '123456',
      validFrom: hours(-2),
      validUntil: hours(30),
      deliveryState: 'failed',
      lastError: 'lock_offline',
    },
  });
  await ctx.deps.prisma.lockPassword.create({
    data: {
      hotelId,
      roomId: a2.id,
      stayId: s2.id,
      kind: 'custom',
      holderName: 'Guest Two',
      code: '223456',
      validFrom: hours(-2),
      validUntil: hours(30),
      deliveryState: 'on_lock',
    },
  });
  const face = await ctx.deps.prisma.face.create({
    data: { hotelId, faceId: `F-${hotelId}`, note: 'Three', imageUrl: '/uploads/x.png', imageSha256: createHash('sha256').update('x').digest('hex') },
  });
  await ctx.deps.prisma.faceAuthorization.create({
    data: {
      hotelId,
      faceId: face.id,
      roomId: a3.id,
      stayId: s3.id,
      validFrom: hours(2),
      validUntil: hours(26),
      deliveryState: 'failed',
      lastError: 'lock_offline',
    },
  });
  const card = await ctx.deps.prisma.card.create({ data: { hotelId, cardNumber: `9${hotelId}01`, kind: 'room' } });
  await ctx.deps.prisma.cardGrant.create({
    data: { hotelId, cardId: card.id, roomId: a1.id, stayId: s1.id, validFrom: hours(-20), validUntil: hours(3), deliveryState: 'remove_failed' },
  });
  // The ledger: today a payment in A2 and a deposit in A1; yesterday a deposit; today a payment in
  // another currency, and (with the orders ledger's kinds) a room charge, which is not money taken.
  await ledger(hotelId, [
    { kind: 'payment', amount: 30_000, currency: 'CNY', roomId: a2.id, at: hours(-1) },
    { kind: 'deposit', amount: 7_000, currency: 'CNY', roomId: a1.id, at: hours(-0.5) },
    { kind: 'deposit', amount: 20_000, currency: 'CNY', roomId: a1.id, at: hours(-14) },
    { kind: 'payment', amount: 1_000, currency: 'USD', roomId: a5.id, at: hours(-1) },
    { kind: 'room_charge', amount: -50_000, currency: 'CNY', roomId: a1.id, at: hours(-1) },
  ]);

  // A member limited to A1 and A2.
  const limited = await createAccount(ctx.deps);
  const membership = await ctx.deps.prisma.membership.create({ data: { accountId: limited.id, hotelId, role: 'staff', allRooms: false } });
  await ctx.deps.prisma.membershipRoom.createMany({ data: [a1, a2].map((r) => ({ hotelId, membershipId: membership.id, roomId: r.id })) });
  const limitedToken = (await createSession(ctx.deps, { accountId: limited.id, hotelId, kind: 'web', meta: testMeta() })).token;
  return { ...h, rooms: { a1, a2, a3, a4, a5, a6, a7, a8 }, today, timeZone, limitedToken };
}

describe('the today board', () => {
  it("counts the hotel's day in its time zone, each figure as its list counts it", async () => {
    const a = await hotelA();
    const board = await data(api.query('today.get', undefined, { token: a.ownerToken }));
    expect(board.date).toBe(a.today);
    expect(board.timeZone).toBe(a.timeZone);
    expect(board.rooms).toEqual({ total: 8, vacant: 2, reserved: 1, checked_in: 3, dirty: 1, maintain: 1 });
    expect(board.arrivals).toEqual({ expected: 1, arrived: 1 });
    expect(board.departures).toEqual({ due: 1, departed: 1 });
    expect(board.inHouse).toBe(2);
    expect(board.overdue).toBe(1);
    expect(board.breakfast).toEqual({ stays: 2, guests: 3, served: 2 });
    expect(board.locks).toMatchObject({ offline: 1, lowBattery: 1, roomsTotal: 2 });
    expect(board.locks.rooms).toEqual([
      { id: a.rooms.a1.id, name: 'A1', online: null, battery: 10 },
      { id: a.rooms.a8.id, name: 'A8', online: false, battery: 80 },
    ]);
    expect(board.deliveries).toMatchObject({ failed: 3, passwords: 1, faces: 1, cards: 1, roomsTotal: 3 });
    expect(board.deliveries.rooms.map((r) => [r.name, r.passwords, r.faces, r.cards])).toEqual([
      ['A1', 0, 0, 1],
      ['A2', 1, 0, 0],
      ['A3', 0, 1, 0],
    ]);
    expect(board.takings).toEqual({ currency: 'CNY', total: 37_000, received: 37_000, paidOut: 0, entries: 2 });

    // The lists the figures link to say the same.
    const stays = (input: Parameters<typeof api.query<'stay.list'>>[1]) => data(api.query('stay.list', input, { token: a.ownerToken }));
    expect((await stays({ state: 'in_house' })).total).toBe(board.inHouse);
    expect((await stays({ state: 'expired' })).total).toBe(board.overdue);
    expect((await stays({ state: 'reserved', from: a.today, to: a.today })).total).toBe(board.arrivals.expected);
    // The arrivals panel's "Arrived" list is the same visits as "arrived today", walk-ins included (issue 36 §8).
    const arrivals = await data(api.query('stay.arrivals', {}, { token: a.ownerToken }));
    expect([arrivals.arrivedTotal, arrivals.arrived.map((s) => s.roomName)]).toEqual([board.arrivals.arrived, ['A2']]);
    const roomsOf = async (status: 'dirty' | 'maintain') => (await data(api.query('room.list', { status }, { token: a.ownerToken }))).total;
    expect(await roomsOf('dirty')).toBe(board.rooms.dirty);
    expect(await roomsOf('maintain')).toBe(board.rooms.maintain);
    const breakfast = await data(api.query('stay.breakfast', { date: a.today }, { token: a.ownerToken }));
    expect([breakfast.rows.length, breakfast.guests, breakfast.served]).toEqual([board.breakfast.stays, board.breakfast.guests, board.breakfast.served]);
  });

  it('shows a member limited to some rooms the figures of those rooms only, and no takings without order management', async () => {
    const a = await hotelA();
    const board = await data(api.query('today.get', undefined, { token: a.limitedToken }));
    expect(board.rooms).toEqual({ total: 2, vacant: 0, reserved: 0, checked_in: 2, dirty: 0, maintain: 0 });
    expect(board.arrivals).toEqual({ expected: 0, arrived: 1 });
    expect(board.departures).toEqual({ due: 1, departed: 0 });
    expect([board.inHouse, board.overdue]).toEqual([2, 0]);
    expect(board.breakfast).toEqual({ stays: 1, guests: 2, served: 2 });
    expect(board.locks).toMatchObject({ offline: 0, lowBattery: 1, roomsTotal: 1, rooms: [{ name: 'A1' }] });
    expect(board.deliveries).toMatchObject({ failed: 2, passwords: 1, faces: 0, cards: 1, roomsTotal: 2 });
    expect(board.takings).toBeNull();
    // The whole hotel's staff member sees every room, still without takings.
    const staff = await data(api.query('today.get', undefined, { token: a.staffToken }));
    expect([staff.rooms.total, staff.inHouse, staff.deliveries.failed, staff.takings]).toEqual([8, 2, 3, null]);
    // An administrator limited to A1 counts the ledger entries of A1 only.
    const admin = await createAccount(ctx.deps);
    const membership = await ctx.deps.prisma.membership.create({ data: { accountId: admin.id, hotelId: a.hotel.id, role: 'admin', allRooms: false } });
    await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: a.hotel.id, membershipId: membership.id, roomId: a.rooms.a1.id } });
    const adminToken = (await createSession(ctx.deps, { accountId: admin.id, hotelId: a.hotel.id, kind: 'web', meta: testMeta() })).token;
    const adminBoard = await data(api.query('today.get', undefined, { token: adminToken }));
    expect(adminBoard.takings).toMatchObject({ total: 7_000, entries: 1 });
    expect(adminBoard.rooms.total).toBe(1);
  });

  it('counts takings net of the corrections made today: a payment corrected as never received is no taking (issue 36)', async () => {
    const h = await ledgerHotel(ctx);
    const stay = await stayIn(h.staff, h.rooms[0].id, { to: 'next_noon' });
    await recordPayment(h.staff, { stayId: stay.id, amount: 10_000, method: 'cash' });
    const wrong = await recordPayment(h.staff, { stayId: stay.id, amount: 1_000, method: 'wechat' });
    const refund = await refundEntry(h.owner, { entryId: wrong.entry.id, amount: 400, reason: 'Asked back' });
    expect((await data(api.query('today.get', undefined, { token: h.ownerToken }))).takings).toEqual({
      currency: 'CNY',
      total: 10_600,
      received: 11_000,
      paidOut: -400,
      entries: 3,
    });
    // The refund, then the payment itself, corrected: neither is money that changed hands.
    await correctEntry(h.owner, { entryId: refund.entry.id, reason: 'Never paid back' });
    await correctEntry(h.owner, { entryId: wrong.entry.id, reason: 'Never received' });
    expect((await data(api.query('today.get', undefined, { token: h.ownerToken }))).takings).toEqual({
      currency: 'CNY',
      total: 10_000,
      received: 10_000,
      paidOut: 0,
      entries: 1,
    });
  });

  it("never shows another hotel's rooms, stays, locks, deliveries or money", async () => {
    await hotelA();
    const b = await createHotelWithStaff(ctx.deps);
    const empty = await data(api.query('today.get', undefined, { token: b.ownerToken }));
    expect(empty.rooms.total).toBe(0);
    expect([empty.arrivals, empty.departures, empty.inHouse, empty.overdue]).toEqual([{ expected: 0, arrived: 0 }, { due: 0, departed: 0 }, 0, 0]);
    expect(empty.breakfast).toEqual({ stays: 0, guests: 0, served: 0 });
    expect(empty.locks).toMatchObject({ offline: 0, lowBattery: 0, roomsTotal: 0, rooms: [] });
    expect(empty.deliveries).toMatchObject({ failed: 0, roomsTotal: 0, rooms: [] });
    expect(empty.takings).toEqual({ currency: 'CNY', total: 0, received: 0, paidOut: 0, entries: 0 });
    // With a room and a guest of its own, B counts those.
    const { rooms } = await createRooms(ctx.deps, b.hotel.id, ['B1']);
    await insertStay(ctx.deps, { hotelId: b.hotel.id, roomId: rooms[0]!.id, checkInAt: hours(-1), expectedCheckOutAt: hours(40) });
    const own = await data(api.query('today.get', undefined, { token: b.ownerToken }));
    expect([own.rooms.total, own.rooms.checked_in, own.inHouse]).toEqual([1, 1, 1]);
  });

  it('needs a session', async () => {
    const answer = await api.query('today.get');
    expect(answer.error?.data.code).toBe('UNAUTHORIZED');
  });
});
