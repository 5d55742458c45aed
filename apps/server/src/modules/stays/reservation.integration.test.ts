/**
 * Reservations at the desk (issue 17 §4, docs/room-status.md "Reservations"): taken for a room or
 * any free room of a group, sold around by time overlap alone, arrived, cancelled with a reason,
 * no-shows at the hotel's no-show time. Every test chooses its clock: the hotel's zone is one where
 * it is noon now (`zoneAtLocalHour`), and the no-show transitions are run at instants the test
 * picks, never at the hour the test happens to run.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { jobContext } from '../../context';
import { startWorkers } from '../../jobs/workers';
import { createSession } from '../auth/session.service';
import { createAccount, createHotel, createHotelWithStaff, createRooms, hours, insertStay, uniqueMobile, zoneAtLocalHour } from '../../test/factories';
import { actorContext, createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';
import { createPassword } from '../credentials/password.service';
import { scheduleStayJobs } from './stay-schedule';
import { noShowOnTime, sweepStays } from './transitions';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A hotel where it is noon now, with a group of two twins and a group of suites (one under maintenance). */
async function desk() {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = zoneAtLocalHour(12);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  const twin = await createRooms(ctx.deps, h.hotel.id, ['201', '202'], { groupName: `Twin ${randomUUID().slice(0, 4)}` });
  const suite = await createRooms(ctx.deps, h.hotel.id, ['301', '302'], { groupName: `Suite ${randomUUID().slice(0, 4)}` });
  await ctx.deps.prisma.room.update({ where: { id: suite.rooms[1]!.id }, data: { maintenance: 'out_of_order' } });
  const today = localDate(new Date(), timeZone);
  /** An instant of the hotel's wall clock, `days` after today. */
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  return {
    ...h,
    timeZone,
    today,
    at,
    twin: { group: twin.group!, rooms: twin.rooms as [(typeof twin.rooms)[number], (typeof twin.rooms)[number]] },
    suite: { group: suite.group!, rooms: suite.rooms },
  };
}
type Desk = Awaited<ReturnType<typeof desk>>;

const guest = (name = `Guest ${randomUUID().slice(0, 6)}`) => ({ name, mobile: uniqueMobile(), idNumber: `ID-${randomUUID().slice(0, 8)}` });

function reserve(
  d: Desk,
  target: { roomId: number } | { groupId: number },
  from: Date,
  to: Date,
  extra: Record<string, unknown> = {},
  options: { token?: string; lang?: string } = {},
) {
  return api.mutation(
    'stay.reserve',
    { ...target, checkInAt: from.toISOString(), expectedCheckOutAt: to.toISOString(), guests: [guest()], idempotencyKey: randomUUID(), ...extra },
    { token: options.token ?? d.staffToken, lang: options.lang },
  );
}

function walkIn(d: Desk, roomId: number, to: Date, extra: Record<string, unknown> = {}, lang = 'en') {
  return api.mutation(
    'stay.checkIn',
    {
      roomId,
      checkInAt: hours(-0.1).toISOString(),
      expectedCheckOutAt: to.toISOString(),
      guests: [guest()],
      idempotencyKey: randomUUID(),
      acknowledge: [],
      ...extra,
    },
    { token: d.staffToken, lang },
  );
}

const board = async (d: Desk) =>
  Object.fromEntries((await api.query('room.list', { pageSize: 100 }, { token: d.ownerToken })).data!.items.map((r) => [r.name, r]));
const stateOf = async (stayId: number) => (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stayId } })).status;

describe('a reservation sold around', () => {
  it('leaves a room reserved from tomorrow free tonight: a walk-in tonight succeeds on every face, an overlapping stay is refused, translated', async () => {
    const d = await desk();
    const [a, b] = d.twin.rooms;
    const booked = await reserve(d, { roomId: a.id }, d.at(1, '14:00'), d.at(2, '12:00'));
    expect(booked.status).toBe(200);
    expect(booked.data).toMatchObject({ state: 'reserved', roomId: a.id, awaitsArrival: true, noShowAt: d.at(2, '00:00').toISOString() });
    // Tonight the room is free, and the board shows the reservation with it.
    let rooms = await board(d);
    expect(rooms['201']).toMatchObject({ status: 'vacant', currentStay: { id: booked.data!.id, status: 'reserved', awaitsArrival: true } });
    expect((await api.query('room.get', { id: a.id }, { token: d.staffToken })).data!.status).toBe('vacant');
    // Sold tonight to a walk-in who leaves before the reservation arrives.
    const tonight = await walkIn(d, a.id, d.at(1, '12:00'));
    expect(tonight.status).toBe(200);
    rooms = await board(d);
    expect(rooms['201']).toMatchObject({ status: 'checked_in', currentStay: { id: tonight.data!.id }, nextStay: { id: booked.data!.id, status: 'reserved' } });
    // A stay reaching into the reservation is refused, in the clerk's language.
    const overlapping = await walkIn(d, a.id, d.at(1, '15:00'), {}, 'zh-CN');
    expect(overlapping.error?.data.app).toMatchObject({
      code: 'CONFLICT',
      reason: 'stay.errors.roomOccupied',
      message: expect.stringMatching(/正在入住该房间，至 .+ 退房$/),
    });
    const overlappingReservation = await reserve(d, { roomId: a.id }, d.at(1, '10:00'), d.at(1, '20:00'), {}, { lang: 'en' });
    expect(overlappingReservation.error?.data.app).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/ is staying in the room until .+\.$/) });
    // The legacy check-in decides by the same rule: room 202 reserved from tomorrow, sold tonight over the legacy protocol.
    await reserve(d, { roomId: b.id }, d.at(1, '14:00'), d.at(2, '12:00'));
    const legacy = legacyClient(ctx.app, ctx.config);
    const token = (await createSession(ctx.deps, { accountId: d.staff.id, hotelId: d.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    const local = (x: Date) => localDate(x, d.timeZone) + x.toLocaleTimeString('en-GB', { timeZone: d.timeZone, hour12: false }).replace(/^/, ' ');
    const checkIn = (to: Date) =>
      legacy.call(
        'room/tenant/update/checkIn',
        { room_id: b.id, check_in_time: local(hours(-0.1)), check_out_time: local(to), guests: [{ name: 'Legacy walk-in' }], request_id: randomUUID() },
        { token, language: 'en' },
      );
    expect(await checkIn(d.at(2, '10:00'))).toMatchObject({ errno: 100006, errmsg: expect.stringMatching(/^The room is reserved for .+ from .+ to .+\.$/) });
    expect(await checkIn(d.at(1, '12:00'))).toMatchObject({ errno: 0, data: { room_id: b.id, state: 'in_house' } });
  });

  it("shows a room reserved for later today as reserved tonight, with its arrival on the day's list", async () => {
    const d = await desk();
    const [a] = d.twin.rooms;
    const booked = (await reserve(d, { roomId: a.id }, d.at(0, '18:00'), d.at(1, '12:00'))).data!;
    expect((await board(d))['201']).toMatchObject({ status: 'reserved', currentStay: { id: booked.id } });
    const arrivals = (await api.query('stay.arrivals', {}, { token: d.staffToken })).data!;
    expect(arrivals).toMatchObject({ date: d.today, timeZone: d.timeZone, expectedTotal: 1, noShowsTotal: 0 });
    expect(arrivals.expected.map((s) => s.id)).toEqual([booked.id]);
    const today = (await api.query('today.get', undefined, { token: d.staffToken })).data!;
    expect(today.arrivals.expected).toBe(1);
    expect(today.rooms.reserved).toBe(1);
  });
});

describe('any room of a group', () => {
  it("assigns the first room of the group free for the dates (in the board's order, never one under maintenance), and says when none is", async () => {
    const d = await desk();
    const [a, b] = d.twin.rooms;
    await insertStay(ctx.deps, { hotelId: d.hotel.id, roomId: a.id, checkInAt: hours(-1), expectedCheckOutAt: d.at(2, '12:00') });
    const first = await reserve(d, { groupId: d.twin.group.id }, d.at(1, '14:00'), d.at(3, '12:00'));
    expect(first.data).toMatchObject({ roomId: b.id, roomName: '202' });
    const none = await reserve(d, { groupId: d.twin.group.id }, d.at(1, '14:00'), d.at(2, '12:00'), {}, { lang: 'en' });
    expect(none.error?.data.app).toMatchObject({ code: 'CONFLICT', message: `No room of group “${d.twin.group.name}” is free for these dates.` });
    // Later dates, when both are free: the first in order.
    expect((await reserve(d, { groupId: d.twin.group.id }, d.at(5, '14:00'), d.at(6, '12:00'))).data).toMatchObject({ roomId: a.id });
    // The suites: 302 is under maintenance, so only 301 is ever assigned.
    expect((await reserve(d, { groupId: d.suite.group.id }, d.at(1, '14:00'), d.at(2, '12:00'))).data).toMatchObject({ roomId: d.suite.rooms[0]!.id });
    expect((await reserve(d, { groupId: d.suite.group.id }, d.at(1, '14:00'), d.at(2, '12:00'))).error?.data.app?.code).toBe('CONFLICT');
  });

  it('gives the last free room to one of several reservations sent at once; the others are refused clearly', async () => {
    const d = await desk();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => reserve(d, { groupId: d.suite.group.id }, d.at(3, '14:00'), d.at(4, '12:00'), {}, { lang: 'en' })),
    );
    const won = answers.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]!.data!.roomId).toBe(d.suite.rooms[0]!.id);
    for (const lost of answers.filter((r) => r.status !== 200)) {
      expect(lost.error?.data.app).toMatchObject({ code: 'CONFLICT', message: `No room of group “${d.suite.group.name}” is free for these dates.` });
    }
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: d.hotel.id, status: 'reserved' } })).toBe(1);
  });

  it('takes one reservation of one request sent twice at once (the same idempotency key)', async () => {
    const d = await desk();
    const input = {
      groupId: d.twin.group.id,
      checkInAt: d.at(1, '14:00').toISOString(),
      expectedCheckOutAt: d.at(2, '12:00').toISOString(),
      guests: [guest()],
      idempotencyKey: randomUUID(),
    };
    const [one, two] = await Promise.all([
      api.mutation('stay.reserve', input, { token: d.staffToken }),
      api.mutation('stay.reserve', input, { token: d.staffToken }),
    ]);
    expect(one.data!.id).toBe(two.data!.id);
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: d.hotel.id } })).toBe(1);
  });
});

describe('money of a reservation', () => {
  it('posts the deposit with its way of paying when taken, the room charge only at arrival', async () => {
    const d = await desk();
    const [a] = d.twin.rooms;
    const booked = (await reserve(d, { roomId: a.id }, d.at(0, '18:00'), d.at(2, '12:00'), { depositAmount: 15_000, depositMethod: 'wechat' })).data!;
    expect(booked.priceAmount).toBe(40_000);
    const entries = async () =>
      (await api.query('order.folio', { stayId: booked.id }, { token: d.staffToken })).data!.entries.map((e) => [e.kind, e.amount, e.method]);
    expect(await entries()).toEqual([['deposit', 15_000, 'wechat']]);
    const arrived = await api.mutation('stay.arrive', { stayId: booked.id }, { token: d.staffToken });
    expect(arrived.data).toMatchObject({ state: 'in_house' });
    expect(await entries()).toEqual(
      expect.arrayContaining([
        ['deposit', 15_000, 'wechat'],
        ['room_charge', -arrived.data!.priceAmount, null],
      ]),
    );
    expect((await board(d))['201']).toMatchObject({ status: 'checked_in' });
  });
});

describe('cancellation', () => {
  it('keeps the reason (a code, translated on display) and the note, audits them, withdraws the credentials; "other" needs a note; a stay in progress is not cancelled', async () => {
    const d = await desk();
    const [a, b] = d.twin.rooms;
    const booked = (await reserve(d, { roomId: a.id }, d.at(1, '14:00'), d.at(2, '12:00'))).data!;
    const password = await createPassword(await actorContext(ctx.deps, d.ownerToken), { roomId: a.id, stayId: booked.id, kind: 'custom', code: '481526' });
    const withoutNote = await api.mutation('stay.cancelReservation', { stayId: booked.id, reason: 'other' }, { token: d.staffToken, lang: 'en' });
    expect(withoutNote.error?.data.app?.fields).toEqual({ note: 'Say why in the note' });
    expect(await stateOf(booked.id)).toBe('reserved');
    const cancelled = await api.mutation(
      'stay.cancelReservation',
      { stayId: booked.id, reason: 'guest_request', note: 'Flight cancelled' },
      { token: d.staffToken },
    );
    expect(cancelled.data).toMatchObject({ state: 'ended', cancelReason: 'guest_request', cancelNote: 'Flight cancelled', revokedCredentials: 1 });
    expect(await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: password.id } })).toMatchObject({
      deliveryState: 'removing',
      revokeReason: 'cancelled',
    });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { entityType: 'Stay', entityId: String(booked.id), action: 'stay.cancel' } });
    expect(audit.after).toMatchObject({ reason: 'guest_request', note: 'Flight cancelled' });
    // The legacy faces translate the code in the client's language.
    const legacy = legacyClient(ctx.app, ctx.config);
    const token = (await createSession(ctx.deps, { accountId: d.staff.id, hotelId: d.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    const second = (await reserve(d, { roomId: b.id }, d.at(1, '14:00'), d.at(2, '12:00'))).data!;
    expect(await legacy.call('room/reservation/cancel', { stay_id: second.id, reason: 'duplicate' }, { token, language: 'zh-CN' })).toMatchObject({
      errno: 0,
      data: { state: 'ended', cancel_reason: 'duplicate', cancel_reason_text: '重复预订', cancel_note: '' },
    });
    const inHouse = (await walkIn(d, a.id, d.at(1, '12:00'))).data!;
    expect(
      (await api.mutation('stay.cancelReservation', { stayId: inHouse.id, reason: 'guest_request' }, { token: d.staffToken, lang: 'en' })).error?.data.app,
    ).toMatchObject({
      code: 'CONFLICT',
      message: 'This is not a reservation waiting for its guest.',
    });
  });
});

describe('no-show', () => {
  it("happens at the hotel's no-show time on the arrival day (the clock chosen here): the room released, the credentials withdrawn, audited as the job, listed as the day's no-show", async () => {
    const d = await desk();
    const [a] = d.twin.rooms;
    expect((await api.mutation('hotel.update', { noShowTime: '18:00' }, { token: d.ownerToken })).data).toMatchObject({ noShowTime: '18:00' });
    const booked = (await reserve(d, { roomId: a.id }, d.at(0, '13:00'), d.at(1, '12:00'))).data!;
    expect(booked.noShowAt).toBe(d.at(0, '18:00').toISOString());
    const password = await createPassword(await actorContext(ctx.deps, d.ownerToken), { roomId: a.id, stayId: booked.id, kind: 'custom', code: '602715' });
    const job = jobContext(ctx.deps, 'stay.noShow', 'test-no-show');
    // A minute before, nothing happens.
    expect(await noShowOnTime(job, { stayId: booked.id, version: 0 }, d.at(0, '17:59'))).toBe(false);
    expect(await stateOf(booked.id)).toBe('reserved');
    expect((await board(d))['201']!.status).toBe('reserved');
    // At the no-show time, the reservation ends and the room is free.
    expect(await noShowOnTime(job, { stayId: booked.id, version: 0 }, d.at(0, '18:00'))).toBe(true);
    expect(await noShowOnTime(job, { stayId: booked.id, version: 0 }, d.at(0, '18:01'))).toBe(false);
    expect(await stateOf(booked.id)).toBe('no_show');
    expect((await board(d))['201']).toMatchObject({ status: 'vacant', currentStay: null });
    expect(await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: password.id } })).toMatchObject({
      deliveryState: 'removing',
      revokeReason: 'no_show',
    });
    const audit = await ctx.deps.prisma.auditLog.findMany({ where: { entityType: 'Stay', entityId: String(booked.id), action: 'stay.noShow' } });
    expect(audit.map((e) => [e.actorType, e.channel])).toEqual([['job', 'job']]);
    const arrivals = (await api.query('stay.arrivals', {}, { token: d.staffToken })).data!;
    expect(arrivals.noShows.map((s) => [s.id, s.state])).toEqual([[booked.id, 'no_show']]);
    expect(arrivals.expected).toEqual([]);
    expect((await api.query('stay.list', { state: 'no_show' }, { token: d.staffToken })).data!.items.map((s) => s.id)).toEqual([booked.id]);
    // The room can be sold again for those nights.
    expect((await walkIn(d, a.id, d.at(1, '12:00'))).status).toBe(200);
  });

  it('owes nothing for the room once a no-show: its deposit is kept at settlement with the reason the desk gives, or refunded', async () => {
    const d = await desk();
    const [a, b] = d.twin.rooms;
    expect((await api.mutation('hotel.update', { noShowTime: '18:00' }, { token: d.ownerToken })).data).toMatchObject({ noShowTime: '18:00' });
    const job = jobContext(ctx.deps, 'stay.noShow', 'test-no-show-bill');
    const kept = (await reserve(d, { roomId: a.id }, d.at(0, '13:00'), d.at(1, '12:00'), { depositAmount: 10_000, depositMethod: 'cash' })).data!;
    const refunded = (await reserve(d, { roomId: b.id }, d.at(0, '13:00'), d.at(1, '12:00'), { depositAmount: 8_000, depositMethod: 'wechat' })).data!;
    for (const s of [kept, refunded]) expect(await noShowOnTime(job, { stayId: s.id, version: 0 }, d.at(0, '18:00'))).toBe(true);
    const folio = (await api.query('order.folio', { stayId: kept.id }, { token: d.staffToken })).data!;
    expect(folio.preview).toMatchObject({ roomCharge: { due: 0 }, depositHeld: 10_000, ifDepositRefunded: { owed: 0, refunded: 10_000 } });
    const settled = (await api.mutation('order.settle', { stayId: kept.id, deposit: 'keep', depositReason: 'No-show fee' }, { token: d.staffToken })).data!;
    expect(settled).toMatchObject({ state: 'settled', balance: 0 });
    expect(settled.entries.map((e) => [e.kind, e.amount])).toEqual([
      ['deposit', 10_000],
      ['charge', -10_000],
    ]);
    const back = (await api.mutation('order.settle', { stayId: refunded.id, deposit: 'refund', refundMethod: 'wechat' }, { token: d.staffToken })).data!;
    expect(back.entries.map((e) => [e.kind, e.amount, e.method])).toEqual([
      ['deposit', 8_000, 'wechat'],
      ['refund', -8_000, 'wechat'],
    ]);
  });

  it('defaults to the midnight that ends the arrival day; a new no-show time moves the pending reservations; the sweep catches up a lost job', async () => {
    const d = await desk();
    const [a, b] = d.twin.rooms;
    const first = (await reserve(d, { roomId: a.id }, d.at(1, '14:00'), d.at(3, '12:00'))).data!;
    expect(first.noShowAt).toBe(d.at(2, '00:00').toISOString());
    // A no-show time in the early morning: the night audit after the arrival day.
    await api.mutation('hotel.update', { noShowTime: '02:00' }, { token: d.ownerToken });
    expect((await api.query('stay.get', { stayId: first.id }, { token: d.staffToken })).data!.noShowAt).toBe(d.at(2, '02:00').toISOString());
    // A reservation of one afternoon: at the latest its expected check-out.
    const short = (await reserve(d, { roomId: b.id }, d.at(1, '14:00'), d.at(1, '17:00'), { lengthUnit: 'hour' })).data!;
    expect(short.noShowAt).toBe(d.at(1, '17:00').toISOString());
    // No job ran (none in this test): the sweep, run at a moment after both, catches them up.
    const result = await sweepStays(jobContext(ctx.deps, 'stay.sweep', 'test-sweep'), d.at(2, '03:00'), { hotelId: d.hotel.id });
    expect(result.noShows).toBeGreaterThanOrEqual(2);
    expect([await stateOf(first.id), await stateOf(short.id)]).toEqual(['no_show', 'no_show']);
    const by = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { entityType: 'Stay', entityId: String(first.id), action: 'stay.noShow' } });
    expect(by.after).toMatchObject({ by: 'sweep' });
  });

  it('never lets a reservation awaiting its guest begin by itself (a check-in dated ahead does)', async () => {
    const d = await desk();
    const [a, b] = d.twin.rooms;
    // It is 12:00-12:59 at the hotel now: 13:30 is ahead whatever the minute the test runs at.
    const awaited = (await reserve(d, { roomId: a.id }, d.at(0, '13:30'), d.at(1, '12:00'))).data!;
    const dated = (await walkIn(d, b.id, d.at(1, '12:00'), { checkInAt: d.at(0, '13:30').toISOString() })).data!;
    expect(dated).toMatchObject({ state: 'reserved', awaitsArrival: false });
    await sweepStays(jobContext(ctx.deps, 'stay.sweep', 'test-sweep'), d.at(0, '14:00'), { hotelId: d.hotel.id });
    expect([await stateOf(awaited.id), await stateOf(dated.id)]).toEqual(['reserved', 'in_house']);
  });

  it('is made by the delayed job of the reservation itself when its time comes', async () => {
    const d = await desk();
    const [a] = d.twin.rooms;
    const stay = await ctx.deps.prisma.stay.create({
      data: {
        hotelId: d.hotel.id,
        roomId: a.id,
        status: 'reserved',
        awaitsArrival: true,
        checkInAt: hours(-1),
        expectedCheckOutAt: hours(20),
        noShowAt: new Date(Date.now() + 1_500),
      },
    });
    await scheduleStayJobs(ctx.deps, stay, d.timeZone);
    const workers = startWorkers(ctx.deps, { sweep: false });
    try {
      const until = Date.now() + 10_000;
      while (Date.now() < until && (await stateOf(stay.id)) !== 'no_show') await new Promise((r) => setTimeout(r, 100));
      expect(await stateOf(stay.id)).toBe('no_show');
      const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { entityType: 'Stay', entityId: String(stay.id), action: 'stay.noShow' } });
      expect(audit.after).not.toHaveProperty('by');
    } finally {
      await workers.close();
    }
  });
});

describe('who may reserve what', () => {
  it('gives another hotel "not found" for this hotel\'s rooms, groups and reservations', async () => {
    const d = await desk();
    const b = await createHotel(ctx.deps);
    const owner = await createAccount(ctx.deps, { hotelId: b.id, role: 'owner' });
    const token = (await createSession(ctx.deps, { accountId: owner.id, hotelId: b.id, kind: 'web', meta: testMeta() })).token;
    const booked = (await reserve(d, { roomId: d.twin.rooms[0].id }, d.at(1, '14:00'), d.at(2, '12:00'))).data!;
    const code = (r: { error?: { data: { app?: { code: string } } } }) => r.error?.data.app?.code;
    expect(code(await reserve(d, { roomId: d.twin.rooms[1].id }, d.at(1, '14:00'), d.at(2, '12:00'), {}, { token }))).toBe('NOT_FOUND');
    expect(code(await reserve(d, { groupId: d.twin.group.id }, d.at(1, '14:00'), d.at(2, '12:00'), {}, { token }))).toBe('NOT_FOUND');
    expect(code(await api.mutation('stay.arrive', { stayId: booked.id }, { token }))).toBe('NOT_FOUND');
    expect(code(await api.mutation('stay.cancelReservation', { stayId: booked.id, reason: 'guest_request' }, { token }))).toBe('NOT_FOUND');
    const theirs = (await api.query('stay.arrivals', { date: addDays(d.today, 1) }, { token })).data!;
    expect([theirs.expectedTotal, theirs.noShowsTotal, theirs.arrivedTotal]).toEqual([0, 0, 0]);
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: d.hotel.id } })).toBe(1);
  });

  it('limits a staff member to the rooms they manage: another room is "not found", a group gives only theirs, the arrivals show only theirs', async () => {
    const d = await desk();
    const [a, b] = d.twin.rooms;
    const account = await createAccount(ctx.deps, { hotelId: d.hotel.id, role: 'staff' });
    const membership = await ctx.deps.prisma.membership.update({
      where: { accountId_hotelId: { accountId: account.id, hotelId: d.hotel.id } },
      data: { allRooms: false },
    });
    await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: d.hotel.id, membershipId: membership.id, roomId: a.id } });
    const token = (await createSession(ctx.deps, { accountId: account.id, hotelId: d.hotel.id, kind: 'web', meta: testMeta() })).token;
    expect((await reserve(d, { roomId: b.id }, d.at(1, '14:00'), d.at(2, '12:00'), {}, { token })).error?.data.app?.code).toBe('NOT_FOUND');
    const others = (await reserve(d, { roomId: b.id }, d.at(1, '14:00'), d.at(2, '12:00'))).data!;
    expect((await reserve(d, { groupId: d.twin.group.id }, d.at(1, '14:00'), d.at(2, '12:00'), {}, { token })).data).toMatchObject({ roomId: a.id });
    // Later dates: 201 taken, 202 free, but 202 is not theirs: no room of the group for them.
    await insertStay(ctx.deps, { hotelId: d.hotel.id, roomId: a.id, status: 'reserved', checkInAt: d.at(5, '14:00'), expectedCheckOutAt: d.at(6, '12:00') });
    expect((await reserve(d, { groupId: d.twin.group.id }, d.at(5, '14:00'), d.at(6, '12:00'), {}, { token })).error?.data.app?.code).toBe('CONFLICT');
    expect((await reserve(d, { groupId: d.twin.group.id }, d.at(5, '14:00'), d.at(6, '12:00'))).data).toMatchObject({ roomId: b.id });
    const arrivals = (await api.query('stay.arrivals', { date: addDays(d.today, 1) }, { token })).data!;
    expect(arrivals.expected.map((s) => s.roomId)).toEqual([a.id]);
    expect(arrivals.expected.map((s) => s.id)).not.toContain(others.id);
  });
});

describe('bad input', () => {
  it('refuses a NUL, a number too large for money, a missing room or group, an arrival before today, with translated field messages, and writes nothing', async () => {
    const d = await desk();
    const [a] = d.twin.rooms;
    const fields = async (extra: Record<string, unknown>, target: object = { roomId: a.id }) =>
      (
        await api.raw.mutation(
          'stay.reserve',
          {
            ...target,
            checkInAt: d.at(1, '14:00').toISOString(),
            expectedCheckOutAt: d.at(2, '12:00').toISOString(),
            guests: [guest()],
            idempotencyKey: randomUUID(),
            ...extra,
          },
          { token: d.staffToken, lang: 'en' },
        )
      ).error?.data.app;
    expect(await fields({ remark: 'late\u0000arrival' })).toMatchObject({ code: 'VALIDATION' });
    expect((await fields({ depositAmount: 1e308 }))?.fields).toEqual({ depositAmount: expect.any(String) });
    expect((await fields({ fixedPrice: 1e308, priceMode: 'fixed' }))?.fields).toEqual({ fixedPrice: expect.any(String) });
    expect((await fields({}, {}))?.fields).toEqual({ roomId: 'Choose a room or a room group' });
    expect((await fields({}, { roomId: a.id, groupId: d.twin.group.id }))?.fields).toEqual({ roomId: 'Choose a room or a room group' });
    expect((await fields({ checkInAt: d.at(-1, '14:00').toISOString() }))?.fields).toEqual({ checkInAt: 'The arrival cannot be before today' });
    expect((await fields({ guests: [{ name: '' }] }))?.fields).toEqual({ 'guests.0.name': expect.any(String) });
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: d.hotel.id } })).toBe(0);
  });

  it("refuses a text with a lone surrogate as a field error in the clerk's language, never a server error, and makes nothing (decision 025)", async () => {
    const d = await desk();
    const before = await ctx.deps.prisma.stay.count({ where: { hotelId: d.hotel.id } });
    const res = await reserve(
      d,
      { roomId: d.twin.rooms[0].id },
      d.at(1, '14:00'),
      d.at(2, '12:00'),
      { guests: [{ name: 'Bad \uD800 name' }], remark: 'x\uDC00' },
      { lang: 'en' },
    );
    expect(res.status).toBe(400);
    expect(res.error?.data.app?.code).toBe('VALIDATION');
    expect(JSON.stringify(res.error)).toMatch(/character/i);
    expect(await ctx.deps.prisma.stay.count({ where: { hotelId: d.hotel.id } })).toBe(before);
  });
});
