/**
 * Housekeeping (issue 28 §2, docs/housekeeping.md): the day's tasks made once however many runs at
 * once, the stay-over rule, assignment by list and by floor, the attendant's steps on their own rooms
 * only, inspection pass (the room inspected) and fail (back to the attendant, the room dirty),
 * another hotel's ids not found, and rooms out of order by dates: the ranges of a room never
 * overlap, a reservation, a check-in and a group's reservation respect them, the board follows.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { jobContext } from '../../context';
import { createSession } from '../auth/session.service';
import { createAccount, createHotelWithStaff, createRooms, insertStay, uniqueMobile, zoneAtLocalHour } from '../../test/factories';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';
import { rotaOf } from './rota';
import { generateDaysOnTime } from './task-generation';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  api = trpcClient(ctx.app);
});
afterAll(() => ctx.close());

/** A hotel where it is 10:00: rooms 101, 102 (floor 1), 201 (floor 2); a departure today in 101, a guest staying on in 201, an attendant and a supervisor. */
async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const timeZone = zoneAtLocalHour(10);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
  const hotelId = h.hotel.id;
  const { rooms, group } = await createRooms(ctx.deps, hotelId, ['101', '102', '201'], { groupName: 'Main' });
  const [r101, r102, r201] = rooms as [(typeof rooms)[number], (typeof rooms)[number], (typeof rooms)[number]];
  const today = localDate(new Date(), timeZone);
  const at = (days: number, time: string) => zonedToInstant(`${addDays(today, days)}T${time}`, timeZone)!;
  const leaving = await insertStay(ctx.deps, {
    hotelId,
    roomId: r101.id,
    checkInAt: at(-2, '14:00'),
    expectedCheckOutAt: at(0, '12:00'),
    guestName: 'Ana Lima',
  });
  const staying = await insertStay(ctx.deps, {
    hotelId,
    roomId: r201.id,
    checkInAt: at(-1, '14:00'),
    expectedCheckOutAt: at(3, '12:00'),
    guestName: 'Bo Chen',
  });
  const member = async (role: 'housekeeping' | 'housekeeping_supervisor') => {
    const account = await createAccount(ctx.deps, { hotelId, role });
    const membership = await ctx.deps.prisma.membership.findUniqueOrThrow({ where: { accountId_hotelId: { accountId: account.id, hotelId } } });
    const { token } = await createSession(ctx.deps, { accountId: account.id, hotelId, kind: 'web', meta: testMeta() });
    return { account, membership, token };
  };
  const ann = await member('housekeeping');
  const bea = await member('housekeeping');
  const sup = await member('housekeeping_supervisor');
  return { ...h, hotelId, timeZone, today, at, r101, r102, r201, group: group!, leaving, staying, ann, bea, sup };
}
type Hotel = Awaited<ReturnType<typeof hotel>>;

async function generate(h: Hotel, token = h.sup.token) {
  const res = await api.mutation('housekeeping.generate', {}, { token });
  expect(res.error).toBeUndefined();
  return res.data!;
}

async function day(h: Hotel) {
  const res = await api.query('housekeeping.day', {}, { token: h.sup.token });
  expect(res.error).toBeUndefined();
  return res.data!;
}

describe('the day’s tasks', () => {
  it('are made once however many runs at once: a departure clean of 101, a stay-over of 201', async () => {
    const h = await hotel();
    const runs = await Promise.all([generate(h), generate(h), generate(h), generate(h)]);
    expect(runs.reduce((sum, r) => sum + r.created, 0)).toBe(2);
    const { tasks } = await day(h);
    expect(tasks.map((t) => [t.roomName, t.kind, t.status])).toEqual([
      ['101', 'departure', 'todo'],
      ['201', 'stayover', 'todo'],
    ]);
    // Again later: nothing new, nothing twice.
    expect((await generate(h)).created).toBe(0);
    // The page's out-of-order form offers every room of the hotel, tasks or not.
    expect((await day(h)).rooms.map((r) => r.name)).toEqual(['101', '102', '201']);
  });

  it('follow the hotel’s stay-over rule: every 3 days counts from the check-in day; on request only when asked', async () => {
    const h = await hotel();
    const settings = { stayoverRule: 'every_n_days' as const, stayoverEveryDays: 3, dayStart: '07:00' };
    expect((await api.mutation('housekeeping.setSettings', settings, { token: h.sup.token })).error).toBeUndefined();
    await generate(h);
    // 201 checked in yesterday: day 1 of 3, no stay-over today.
    expect((await day(h)).tasks.map((t) => t.roomName)).toEqual(['101']);

    const other = await hotel();
    await api.mutation('housekeeping.setSettings', { ...settings, stayoverRule: 'on_request' }, { token: other.sup.token });
    await generate(other);
    expect((await day(other)).tasks.map((t) => t.kind)).toEqual(['departure']);
    const asked = await api.mutation('housekeeping.requestClean', { roomId: other.r201.id }, { token: other.staffToken });
    expect(asked.data).toMatchObject({ roomName: '201', kind: 'stayover', requested: true });
  });

  it('keep the rule as it was when N is not a whole number from 1 to 30 or the day start not a time, refused in words', async () => {
    const h = await hotel();
    const good = { stayoverRule: 'every_n_days' as const, stayoverEveryDays: 2, dayStart: '06:30' };
    expect((await api.mutation('housekeeping.setSettings', good, { token: h.sup.token })).data).toEqual(good);
    for (const n of [0, 31, 1.5, -2, '2', null]) {
      const refused = await api.raw.mutation('housekeeping.setSettings', { ...good, stayoverEveryDays: n }, { token: h.sup.token });
      expect([n, refused.error?.data.code, refused.error?.message]).toEqual([n, 'BAD_REQUEST', 'Enter a whole number of days from 1 to 30.']);
    }
    const inChinese = await api.raw.mutation('housekeeping.setSettings', { ...good, stayoverEveryDays: 31 }, { token: h.sup.token, lang: 'zh-CN' });
    expect(inChinese.error?.message).toBe('请输入 1 到 30 之间的整数天数。');
    const badTime = await api.raw.mutation('housekeeping.setSettings', { ...good, dayStart: '7:00' }, { token: h.sup.token });
    expect(badTime.error?.message).toBe('Enter a time as HH:mm.');
    const badRule = await api.raw.mutation('housekeeping.setSettings', { ...good, stayoverRule: 'weekly' }, { token: h.sup.token });
    expect(badRule.error?.data.code).toBe('BAD_REQUEST');
    // An attendant may not change it at all; the front desk neither.
    expect((await api.mutation('housekeeping.setSettings', { ...good, stayoverEveryDays: 5 }, { token: h.ann.token })).error?.data.code).toBe('FORBIDDEN');
    expect((await api.mutation('housekeeping.setSettings', { ...good, stayoverEveryDays: 5 }, { token: h.staffToken })).error?.data.code).toBe('FORBIDDEN');
    expect((await day(h)).settings).toEqual(good);
    // Housekeeping's other refusals of bad input are in words too (their keys are validation keys).
    const noReason = await api.raw.mutation('housekeeping.inspect', { taskId: 1, pass: false }, { token: h.sup.token });
    expect(noReason.error?.message).toBe('Say why.');
    const twoWays = await api.raw.mutation('housekeeping.assign', { membershipId: null, floor: 1, groupId: h.group.id }, { token: h.sup.token });
    expect(twoWays.error?.message).toBe('Choose rooms, a room group or a floor.');
    const shift = await api.raw.mutation(
      'housekeeping.setShift',
      { membershipId: h.ann.membership.id, day: h.today, start: '8:00', end: '16:00' },
      { token: h.sup.token },
    );
    expect(shift.error?.message).toBe('Enter a time as HH:mm.');
  });

  it('are made by the day-start job once per hotel day, before which nothing happens', async () => {
    const h = await hotel();
    const job = jobContext(ctx.deps, 'stay.housekeeping', 'test');
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotelId }, data: { housekeepingDayStart: '11:00' } });
    expect(await generateDaysOnTime(job, new Date(), { hotelId: h.hotelId })).toBe(0);
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotelId }, data: { housekeepingDayStart: '07:00' } });
    const made = await Promise.all([1, 2, 3].map(() => generateDaysOnTime(job, new Date(), { hotelId: h.hotelId })));
    expect(made.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await day(h)).tasks).toHaveLength(2);
  });
});

describe('assignment and the attendant’s rooms', () => {
  it('gives rooms in order; the attendant sees only theirs; by floor takes the floor’s rooms', async () => {
    const h = await hotel();
    await generate(h);
    const byList = await api.mutation(
      'housekeeping.assign',
      { membershipId: h.ann.membership.id, roomIds: [h.r201.id, h.r101.id, h.r102.id] },
      { token: h.sup.token },
    );
    expect(byList.data).toEqual({ assigned: 2, skipped: ['102'] });
    const mine = await api.query('housekeeping.myRooms', {}, { token: h.ann.token });
    expect(mine.data!.tasks.map((t) => t.roomName)).toEqual(['201', '101']);
    expect((await api.query('housekeeping.myRooms', {}, { token: h.bea.token })).data!.tasks).toEqual([]);

    const byFloor = await api.mutation('housekeeping.assign', { membershipId: h.bea.membership.id, floor: 2 }, { token: h.sup.token });
    expect(byFloor.data).toEqual({ assigned: 1, skipped: [] });
    expect((await api.query('housekeeping.myRooms', {}, { token: h.bea.token })).data!.tasks.map((t) => t.roomName)).toEqual(['201']);
    expect((await api.query('housekeeping.myRooms', {}, { token: h.ann.token })).data!.tasks.map((t) => t.roomName)).toEqual(['101']);

    // The rota the keys follow: each attendant's rooms of the day in order, and their shift.
    expect(
      (await api.mutation('housekeeping.setShift', { membershipId: h.bea.membership.id, day: h.today, start: '22:00', end: '06:00' }, { token: h.sup.token }))
        .error,
    ).toBeUndefined();
    const rota = await rotaOf(ctx.deps.prisma, h.hotelId, h.today);
    const shiftStart = zonedToInstant(`${h.today}T22:00`, h.timeZone)!;
    expect(rota).toEqual(
      expect.arrayContaining([
        { membershipId: h.ann.membership.id, roomIds: [h.r101.id], shift: null },
        { membershipId: h.bea.membership.id, roomIds: [h.r201.id], shift: { startsAt: shiftStart, endsAt: new Date(shiftStart.getTime() + 8 * 3_600_000) } },
      ]),
    );
    expect(rota).toHaveLength(2);
  });

  it('an attendant sees nothing else: not the day, not the board, not stays', async () => {
    const h = await hotel();
    expect((await api.query('housekeeping.day', {}, { token: h.ann.token })).error?.data.code).toBe('FORBIDDEN');
    expect((await api.query('room.list', { page: 1, pageSize: 20 } as never, { token: h.ann.token })).error?.data.code).toBe('FORBIDDEN');
    expect(
      (await api.mutation('housekeeping.assign', { membershipId: h.ann.membership.id, roomIds: [h.r101.id] }, { token: h.ann.token })).error?.data.code,
    ).toBe('FORBIDDEN');
  });

  it('refuses another hotel’s attendant, room and task as not found', async () => {
    const h = await hotel();
    const other = await hotel();
    await generate(other);
    const otherTask = (await day(other)).tasks[0]!;
    const asTo = await api.mutation('housekeeping.assign', { membershipId: other.ann.membership.id, roomIds: [h.r101.id] }, { token: h.sup.token, lang: 'en' });
    expect(asTo.error?.data.code).toBe('NOT_FOUND');
    expect(asTo.error?.message).toBe('This attendant is not on the hotel’s housekeeping staff.'.replace('’', "'"));
    const room = await api.mutation('housekeeping.assign', { membershipId: h.ann.membership.id, roomIds: [other.r101.id] }, { token: h.sup.token });
    expect(room.error?.data.code).toBe('NOT_FOUND');
    expect((await api.mutation('housekeeping.step', { taskId: otherTask.id, step: 'start' }, { token: h.ann.token })).error?.data.code).toBe('NOT_FOUND');
    expect((await api.mutation('housekeeping.inspect', { taskId: otherTask.id, pass: true }, { token: h.sup.token })).error?.data.code).toBe('NOT_FOUND');
    expect(
      (
        await api.mutation(
          'housekeeping.setShift',
          { membershipId: other.ann.membership.id, day: h.today, start: '08:00', end: '16:00' },
          { token: h.sup.token },
        )
      ).error?.data.code,
    ).toBe('NOT_FOUND');
    // Nothing of the other hotel changed.
    expect((await day(other)).tasks.every((t) => t.status === 'todo' && t.assigneeId === null)).toBe(true);
  });
});

describe('steps and inspection', () => {
  async function assigned() {
    const h = await hotel();
    await generate(h);
    await api.mutation('housekeeping.assign', { membershipId: h.ann.membership.id, roomIds: [h.r101.id] }, { token: h.sup.token });
    const task = (await day(h)).tasks.find((t) => t.roomName === '101')!;
    return { h, task };
  }
  const room = (id: number) => ctx.deps.prisma.room.findUniqueOrThrow({ where: { id }, select: { cleanStatus: true } });

  it('an attendant works only their own task; another attendant gets not found', async () => {
    const { h, task } = await assigned();
    expect((await api.mutation('housekeeping.step', { taskId: task.id, step: 'start' }, { token: h.bea.token })).error?.data.code).toBe('NOT_FOUND');
    const started = await api.mutation('housekeeping.step', { taskId: task.id, step: 'start' }, { token: h.ann.token });
    expect(started.data).toMatchObject({ status: 'in_progress', hasChanged: true });
    const again = await api.mutation('housekeeping.step', { taskId: task.id, step: 'start' }, { token: h.ann.token });
    expect(again.data).toMatchObject({ status: 'in_progress', hasChanged: false });
  });

  it('done makes the room clean; inspection passed makes it inspected', async () => {
    const { h, task } = await assigned();
    await ctx.deps.prisma.room.update({ where: { id: h.r101.id }, data: { cleanStatus: 'dirty' } });
    const early = await api.mutation('housekeeping.inspect', { taskId: task.id, pass: true }, { token: h.sup.token, lang: 'en' });
    expect(early.error?.message).toBe('Room 101 is not cleaned yet: inspect it once it is done.');
    expect((await api.mutation('housekeeping.step', { taskId: task.id, step: 'done' }, { token: h.ann.token })).data?.status).toBe('done');
    expect(await room(h.r101.id)).toEqual({ cleanStatus: 'clean' });
    expect((await api.mutation('housekeeping.inspect', { taskId: task.id, pass: true }, { token: h.sup.token })).data?.status).toBe('inspected');
    expect(await room(h.r101.id)).toEqual({ cleanStatus: 'inspected' });
  });

  it('inspection failed returns the room to its attendant with the reason, dirty, to be done again', async () => {
    const { h, task } = await assigned();
    await api.mutation('housekeeping.step', { taskId: task.id, step: 'done' }, { token: h.ann.token });
    const noReason = await api.mutation('housekeeping.inspect', { taskId: task.id, pass: false }, { token: h.sup.token, lang: 'en' });
    expect(noReason.error?.data.code).toBe('BAD_REQUEST');
    const failed = await api.mutation('housekeeping.inspect', { taskId: task.id, pass: false, reason: 'Hair in the shower' }, { token: h.sup.token });
    expect(failed.data).toMatchObject({ status: 'failed', failReason: 'Hair in the shower', assigneeId: h.ann.membership.id });
    expect(await room(h.r101.id)).toEqual({ cleanStatus: 'dirty' });
    const mine = await api.query('housekeeping.myRooms', {}, { token: h.ann.token });
    expect(mine.data!.tasks).toEqual([expect.objectContaining({ roomName: '101', status: 'failed', failReason: 'Hair in the shower' })]);
    expect((await api.mutation('housekeeping.step', { taskId: task.id, step: 'done' }, { token: h.ann.token })).data?.status).toBe('done');
    expect(await room(h.r101.id)).toEqual({ cleanStatus: 'clean' });
  });

  it('needs maintenance keeps a note and a photo of the hotel’s uploads only', async () => {
    const { h, task } = await assigned();
    const foreign = await api.mutation(
      'housekeeping.step',
      { taskId: task.id, step: 'needs_maintenance', note: 'Tap leaks', photo: `/uploads/${h.hotelId + 1}/00000000-0000-4000-8000-000000000000.jpg` },
      { token: h.ann.token },
    );
    expect(foreign.error?.data.code).toBe('BAD_REQUEST');
    const photo = `/uploads/${h.hotelId}/00000000-0000-4000-8000-000000000000.jpg`;
    const reported = await api.mutation('housekeeping.step', { taskId: task.id, step: 'needs_maintenance', note: 'Tap leaks', photo }, { token: h.ann.token });
    expect(reported.data).toMatchObject({ status: 'needs_maintenance', note: 'Tap leaks', photo });
    const nul = await api.raw.mutation('housekeeping.step', { taskId: task.id, step: 'needs_maintenance', note: 'a\u0000b' }, { token: h.ann.token });
    expect(nul.error?.data.code).toBe('BAD_REQUEST');
  });
});

describe('the legacy face', () => {
  it('room/setRoomStatus marking a room clean closes today’s open task of the room', async () => {
    const h = await hotel();
    await generate(h);
    const task = (await day(h)).tasks.find((t) => t.roomName === '101')!;
    await ctx.deps.prisma.room.update({ where: { id: h.r101.id }, data: { cleanStatus: 'dirty' } });
    const legacy = legacyClient(ctx.app, ctx.deps.config, { language: 'en' });
    const { token } = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotelId, kind: 'legacy', meta: testMeta() });
    const answer = await legacy.call('room/setRoomStatus', { room_id: h.r101.id, status: 1 }, { token });
    expect(answer.errno).toBe(0);
    expect((await day(h)).tasks.find((t) => t.id === task.id)).toMatchObject({ status: 'done', cleanStatus: 'clean' });
  });
});

describe('rooms out of order by dates', () => {
  const range = (h: Hotel, roomId: number, from: number, to: number, reason = 'Broken window') => ({
    roomId,
    kind: 'out_of_order' as const,
    startDate: addDays(h.today, from),
    endDate: addDays(h.today, to),
    reason,
  });

  it('never overlap for one room, even two at once', async () => {
    const h = await hotel();
    const both = await Promise.all([
      api.mutation('housekeeping.outOfOrderCreate', range(h, h.r102.id, 5, 7), { token: h.ownerToken, lang: 'en' }),
      api.mutation('housekeeping.outOfOrderCreate', range(h, h.r102.id, 6, 9), { token: h.ownerToken, lang: 'en' }),
    ]);
    expect(both.filter((r) => r.data).length).toBe(1);
    expect(both.find((r) => r.error)?.error?.message).toBe('Room 102 is already out of order on some of these days.');
    await expect(
      ctx.deps.prisma.roomOutOfOrder.create({
        data: {
          hotelId: h.hotelId,
          roomId: h.r102.id,
          kind: 'out_of_order',
          startDate: new Date(`${addDays(h.today, 7)}T00:00:00Z`),
          endDate: new Date(`${addDays(h.today, 8)}T00:00:00Z`),
          reason: 'x',
        },
      }),
    ).rejects.toThrow();
  });

  it('refuse a reservation with a night in the range, with the range named; a night before it is sold', async () => {
    const h = await hotel();
    expect((await api.mutation('housekeeping.outOfOrderCreate', range(h, h.r102.id, 3, 4), { token: h.sup.token })).error).toBeUndefined();
    const reserve = (from: number, to: number, target: { roomId: number } | { groupId: number } = { roomId: h.r102.id }) =>
      api.mutation(
        'stay.reserve',
        {
          ...target,
          checkInAt: h.at(from, '14:00').toISOString(),
          expectedCheckOutAt: h.at(to, '12:00').toISOString(),
          guests: [{ name: 'Cy Park', mobile: uniqueMobile(), idNumber: `ID-${randomUUID().slice(0, 8)}` }],
          idempotencyKey: randomUUID(),
        },
        { token: h.staffToken, lang: 'en' },
      );
    const refused = await reserve(2, 4);
    expect(refused.error?.data.code).toBe('CONFLICT');
    expect(refused.error?.message).toBe(
      `The room is out of order from ${addDays(h.today, 3)} to ${addDays(h.today, 4)} (Broken window) and cannot be sold for those nights.`,
    );
    // Leaving on the range's first day at noon: no night in it.
    expect((await reserve(2, 3)).error).toBeUndefined();
    // A group's reservation skips the room out of order: with 101 and 201 taken, no room of the group is free.
    expect((await reserve(2, 5, { roomId: h.r101.id })).error).toBeUndefined();
    expect((await reserve(3, 5, { roomId: h.r201.id })).error).toBeUndefined();
    const group = await reserve(3, 4, { groupId: h.group.id });
    expect(group.data?.roomName).toBeUndefined();
    expect(group.error?.data.code).toBe('CONFLICT');
    // The check-in of a walk-in is refused too, in Chinese.
    const walkIn = await api.mutation(
      'stay.checkIn',
      {
        roomId: h.r102.id,
        checkInAt: h.at(3, '14:00').toISOString(),
        expectedCheckOutAt: h.at(4, '12:00').toISOString(),
        guests: [{ name: 'Dee', mobile: uniqueMobile(), idNumber: `ID-${randomUUID().slice(0, 8)}` }],
        idempotencyKey: randomUUID(),
        acknowledge: [],
      } as never,
      { token: h.staffToken, lang: 'zh-CN' },
    );
    expect(walkIn.error?.message).toMatch(/停用（Broken window）/);
  });

  it('cannot cover a stay’s nights (the stay is named); covering today puts the room under maintenance, removing it brings it back', async () => {
    const h = await hotel();
    const busy = await api.mutation('housekeeping.outOfOrderCreate', range(h, h.r201.id, 1, 2), { token: h.sup.token, lang: 'en' });
    expect(busy.error?.message).toBe(`Room 201 is booked for Bo Chen from ${addDays(h.today, -1)} to ${addDays(h.today, 3)}: move or cancel that stay first.`);
    const made = await api.mutation('housekeeping.outOfOrderCreate', range(h, h.r102.id, 0, 1), { token: h.sup.token });
    expect(made.data).toMatchObject({ roomName: '102', startDate: h.today });
    const status = () => ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: h.r102.id }, select: { maintenance: true, status: true } });
    expect(await status()).toEqual({ maintenance: 'out_of_order', status: 'maintain' });
    // No task is made for a room out of order today.
    await generate(h);
    expect((await day(h)).tasks.map((t) => t.roomName)).not.toContain('102');
    expect((await api.mutation('housekeeping.outOfOrderDelete', { id: made.data!.id }, { token: h.sup.token })).error).toBeUndefined();
    expect(await status()).toEqual({ maintenance: 'none', status: 'vacant' });
    // Another hotel's range is not found.
    const other = await hotel();
    const theirs = await api.mutation('housekeeping.outOfOrderCreate', range(other, other.r102.id, 10, 11), { token: other.sup.token });
    expect((await api.mutation('housekeeping.outOfOrderDelete', { id: theirs.data!.id }, { token: h.sup.token })).error?.data.code).toBe('NOT_FOUND');
    expect((await api.mutation('housekeeping.outOfOrderCreate', range(h, other.r102.id, 10, 11), { token: h.sup.token })).error?.data.code).toBe('NOT_FOUND');
  });

  it('show on the timeline, and the room is not counted free on those days', async () => {
    const h = await hotel();
    await api.mutation('housekeeping.outOfOrderCreate', range(h, h.r102.id, 2, 3, 'Paint'), { token: h.sup.token });
    const w = await api.query('timeline.window', { from: h.today, days: 7 }, { token: h.staffToken });
    expect(w.data!.outOfOrder).toEqual([
      { roomId: h.r102.id, kind: 'out_of_order', startDate: addDays(h.today, 2), endDate: addDays(h.today, 3), reason: 'Paint' },
    ]);
    const free = (d: number) => w.data!.header.find((x) => x.date === addDays(h.today, d))!.free;
    // Day 2: 101 only (201 has its guest, 102 is out of order); day 3: 101 and 201; day 4: all three.
    expect([free(2), free(3), free(4)]).toEqual([1, 2, 3]);
  });
});
