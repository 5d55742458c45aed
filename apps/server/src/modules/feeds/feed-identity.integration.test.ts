/**
 * Issue 27: bookings that hold on real channel data. A booking is the hotel's (one reservation per
 * hotel, UID and RECURRENCE-ID, whatever feed lists it), overrides replace their instance, a moved
 * group booking takes a free room of the group, a bad event is skipped and named, and Airbnb's last
 * four digits reach the access rule. A local HTTP server (port 0) serves the calendars.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { jobContext } from '../../context';
import { createHotelWithStaff, createRooms, insertStay } from '../../test/factories';
import { actorContext, createTestContext, type TestContext } from '../../test/harness';
import { setAccessRule } from '../access-rules/access-rule.service';
import { issueOnTime } from '../access-rules/engine';
import { readFeed } from './feed-import';
import { changeRoom } from '../stays/room-change';
import { addFeed, deleteFeed, listFeeds, readFeedNow } from './feed.service';

let ctx: TestContext;
let server: Server;
let base: string;
const answers = new Map<string, string>();

beforeAll(async () => {
  ctx = await createTestContext({ env: { FEED_PRIVATE_ADDRESSES: 'true' } });
  server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (answer === undefined) res.writeHead(404).end('nope');
    else res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

const TZ = 'Asia/Shanghai';
const day = (n: number) => addDays(localDate(new Date(), TZ), n).replaceAll('-', '');
const at = (n: number, time: string) => zonedToInstant(`${addDays(localDate(new Date(), TZ), n)}T${time}`, TZ)!;

interface Ev {
  uid: string;
  from: number;
  to: number;
  summary?: string;
  description?: string;
  /** Extra lines (RECURRENCE-ID, SEQUENCE, RRULE...). */
  lines?: string[];
  /** The whole DTSTART line, replacing the one of `from`. */
  dtstart?: string;
}
function ics(events: Ev[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN', 'CALSCALE:GREGORIAN'];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      'DTSTAMP:20261101T000000Z',
      e.dtstart ?? `DTSTART;VALUE=DATE:${day(e.from)}`,
      `DTEND;VALUE=DATE:${day(e.to)}`,
      `UID:${e.uid}`,
      ...(e.lines ?? []),
      `SUMMARY:${e.summary ?? 'Reserved'}`,
      ...(e.description ? [`DESCRIPTION:${e.description}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}
const airbnb = (code: string, last4 = '4821') =>
  `Reservation URL: https://www.airbnb.com/hosting/reservations/details/${code}\\nPhone Number (Last 4 Digits): ${last4}`;

async function setup(roomNames = ['I1', 'I2']) {
  const h = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: TZ, checkInTime: '15:00', checkOutTime: '11:00' } });
  const { rooms, group } = await createRooms(ctx.deps, h.hotel.id, roomNames, { groupName: `Identity ${randomUUID().slice(0, 6)}` });
  const owner = await actorContext(ctx.deps, h.ownerToken);
  const path = `/${randomUUID()}.ics`;
  return { ...h, rooms, group: group!, owner, path, url: `${base}${path}` };
}

const liveStays = (hotelId: number) =>
  ctx.deps.prisma.stay.findMany({
    where: { hotelId, status: { in: ['reserved', 'in_house', 'expired'] } },
    orderBy: { id: 'asc' },
    select: { id: true, roomId: true, status: true, checkInAt: true, expectedCheckOutAt: true, priceAmount: true, version: true },
  });
const job = () => jobContext(ctx.deps, 'feed.read', randomUUID());

describe('a booking is one reservation per hotel', () => {
  it('the same calendar on a room and on its group makes one reservation; the channel’s cancellation cancels it', async () => {
    const w = await setup();
    answers.set(w.path, ics([{ uid: 'same@airbnb.com', from: 3, to: 5, description: airbnb('HMSAME0001') }]));
    const roomFeed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    expect(roomFeed.read).toMatchObject({ ok: true, created: 1 });
    const groupFeed = await addFeed(w.owner, { groupId: w.group.id, label: 'Airbnb again', url: w.url });
    expect(groupFeed.read).toMatchObject({ ok: true, created: 0, followedElsewhere: 1 });
    // The same calendar added twice to the same room: still one.
    const twice = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb twice', url: w.url });
    expect(twice.read).toMatchObject({ ok: true, created: 0, followedElsewhere: 1 });
    for (const feed of [roomFeed, groupFeed, twice]) await readFeedNow(w.owner, { feedId: feed.id });
    expect(await liveStays(w.hotel.id)).toHaveLength(1);

    // Cancelled on the channel: gone from the calendar, the one reservation is cancelled, whichever feed reads first.
    answers.set(w.path, ics([{ uid: 'other@airbnb.com', from: 20, to: 21, description: airbnb('HMOTHER001') }]));
    await readFeedNow(w.owner, { feedId: groupFeed.id });
    await readFeedNow(w.owner, { feedId: twice.id });
    await readFeedNow(w.owner, { feedId: roomFeed.id });
    const left = await liveStays(w.hotel.id);
    expect(left).toHaveLength(1);
    expect(left[0]!.checkInAt).toEqual(at(20, '15:00'));
  });

  it('a feed deleted from the room and added to the group adopts the reservation; a later cancellation cancels it', async () => {
    const w = await setup();
    answers.set(w.path, ics([{ uid: 'move@airbnb.com', from: 3, to: 5, description: airbnb('HMMOVE0001') }]));
    const roomFeed = await addFeed(w.owner, { roomId: w.rooms[1]!.id, label: 'Airbnb', url: w.url });
    const [made] = await liveStays(w.hotel.id);
    await deleteFeed(w.owner, { feedId: roomFeed.id, confirm: true });
    // The booking outlives its feed.
    expect(await ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({ where: { hotelId: w.hotel.id, uid: 'move@airbnb.com' } })).toMatchObject({
      feedId: null,
      stayId: made!.id,
      state: 'booked',
    });
    const groupFeed = await addFeed(w.owner, { groupId: w.group.id, label: 'Airbnb', url: w.url });
    expect(groupFeed.read).toMatchObject({ ok: true, created: 0 });
    expect(groupFeed.booked).toBe(1);
    expect(await liveStays(w.hotel.id)).toEqual([made]);

    answers.set(w.path, ics([{ uid: 'later@airbnb.com', from: 30, to: 31 }]));
    expect((await readFeedNow(w.owner, { feedId: groupFeed.id })).read).toMatchObject({ cancelled: 1, created: 1 });
    expect((await liveStays(w.hotel.id)).map((s) => s.id)).not.toContain(made!.id);
  });

  it('two feeds of one calendar read at the same moment make one reservation per booking, and the database refuses a second row', async () => {
    const w = await setup(['C1', 'C2', 'C3']);
    const events = Array.from({ length: 6 }, (_, i) => ({ uid: `race-${i}@airbnb.com`, from: 2 + i * 3, to: 4 + i * 3, description: airbnb(`HMRACE000${i}`) }));
    answers.set(w.path, ics(events));
    const feeds = await Promise.all(
      [{ roomId: w.rooms[0]!.id }, { groupId: w.group.id }, { roomId: w.rooms[1]!.id }].map((target) =>
        ctx.deps.prisma.calendarFeed.create({ data: { hotelId: w.hotel.id, ...target, label: 'Airbnb', url: w.url } }),
      ),
    );
    const results = await Promise.all(feeds.flatMap((f) => [readFeed(job(), w.hotel.id, f.id), readFeed(job(), w.hotel.id, f.id)]));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.reduce((n, r) => n + r.created, 0)).toBe(6);
    expect(await liveStays(w.hotel.id)).toHaveLength(6);
    expect(await ctx.deps.prisma.calendarFeedBooking.count({ where: { hotelId: w.hotel.id } })).toBe(6);

    const row = await ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({ where: { hotelId: w.hotel.id, uid: 'race-0@airbnb.com' } });
    const { id: _id, createdAt: _c, updatedAt: _u, stayId: _s, ...copy } = row;
    await expect(ctx.deps.prisma.calendarFeedBooking.create({ data: { ...copy, feedId: feeds[2]!.id } })).rejects.toThrow(
      /Unique constraint|CalendarFeedBooking_identity_key/,
    );
  });

  it("another hotel's booking of the same UID is its own", async () => {
    const a = await setup();
    const b = await setup();
    answers.set(a.path, ics([{ uid: 'shared@airbnb.com', from: 3, to: 5 }]));
    answers.set(b.path, ics([{ uid: 'shared@airbnb.com', from: 3, to: 5 }]));
    expect((await addFeed(a.owner, { roomId: a.rooms[0]!.id, label: 'Airbnb', url: a.url })).read.created).toBe(1);
    expect((await addFeed(b.owner, { roomId: b.rooms[0]!.id, label: 'Airbnb', url: b.url })).read.created).toBe(1);
  });
});

describe('RFC 5545 overrides', () => {
  it('an override replaces its instance: the reservation takes its dates once, and a second read changes nothing', async () => {
    const w = await setup();
    answers.set(
      w.path,
      ics([
        { uid: 'rec@vrbo.com', from: 3, to: 5, summary: 'Reserved - Nora Quinn' },
        { uid: 'rec@vrbo.com', from: 4, to: 7, summary: 'Reserved - Nora Quinn', lines: [`RECURRENCE-ID;VALUE=DATE:${day(3)}`, 'SEQUENCE:1'] },
      ]),
    );
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'VRBO', url: w.url });
    expect(feed.read).toMatchObject({ ok: true, created: 1 });
    const [stay] = await liveStays(w.hotel.id);
    expect(stay).toMatchObject({ checkInAt: at(4, '15:00'), expectedCheckOutAt: at(7, '11:00') });
    for (let i = 0; i < 3; i += 1) {
      const again = await readFeedNow(w.owner, { feedId: feed.id });
      expect(again.read).toMatchObject({ ok: true, created: 0, moved: 0, cancelled: 0 });
    }
    expect(await liveStays(w.hotel.id)).toEqual([stay]);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: w.hotel.id, action: 'stay.reschedule' } })).toBe(0);
  });

  it('a recurring booking is one reservation per instance, its override moving only its own', async () => {
    const w = await setup();
    const first = day(3);
    answers.set(
      w.path,
      ics([
        { uid: 'weekly@pms.example', from: 3, to: 4, lines: ['RRULE:FREQ=WEEKLY;COUNT=3'] },
        { uid: 'weekly@pms.example', from: 11, to: 12, lines: [`RECURRENCE-ID;VALUE=DATE:${day(10)}`] },
      ]),
    );
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'PMS', url: w.url });
    expect(feed.read).toMatchObject({ ok: true, created: 3 });
    expect((await liveStays(w.hotel.id)).map((s) => s.checkInAt)).toEqual([at(3, '15:00'), at(11, '15:00'), at(17, '15:00')]);
    expect(
      (await ctx.deps.prisma.calendarFeedBooking.findMany({ where: { feedId: feed.id }, orderBy: { startsAt: 'asc' } })).map((b) => b.recurrenceId),
    ).toEqual([first, day(10), day(17)]);
    expect((await readFeedNow(w.owner, { feedId: feed.id })).read).toMatchObject({ created: 0, moved: 0, cancelled: 0 });
  });
});

describe('a moved group booking whose room is taken', () => {
  it('takes a free room of the group by the room change (the code follows), and the read says so', async () => {
    const w = await setup(['G1', 'G2']);
    answers.set(w.path, ics([{ uid: 'grp@airbnb.com', from: 3, to: 5, description: airbnb('HMGROUP001') }]));
    const feed = await addFeed(w.owner, { groupId: w.group.id, label: 'Airbnb', url: w.url });
    const [stay] = await liveStays(w.hotel.id);
    expect(stay!.roomId).toBe(w.rooms[0]!.id);
    // The guest's code, as the rule or the desk gave it.
    const code = await ctx.deps.prisma.lockPassword.create({
      data: {
        hotelId: w.hotel.id,
        roomId: stay!.roomId,
        stayId: stay!.id,
        kind: 'custom',
        code: '630417',
        holderName: 'Guest',
        validFrom: at(3, '15:00'),
        validUntil: at(5, '11:00'),
      },
    });
    // G1 is taken on the new nights; G2 is free.
    await insertStay(ctx.deps, {
      hotelId: w.hotel.id,
      roomId: w.rooms[0]!.id,
      checkInAt: at(6, '15:00'),
      expectedCheckOutAt: at(9, '11:00'),
      status: 'reserved',
    });
    answers.set(w.path, ics([{ uid: 'grp@airbnb.com', from: 6, to: 8, description: airbnb('HMGROUP001') }]));
    const read = await readFeedNow(w.owner, { feedId: feed.id });
    expect(read.read).toMatchObject({ ok: true, moved: 1, roomChanged: 1, conflicts: 0 });
    expect(read.lastReadReport).toMatchObject({ roomChanges: [{ reference: 'HMGROUP001', fromRoom: 'G1', toRoom: 'G2' }] });
    const moved = (await liveStays(w.hotel.id)).find((s) => s.roomId === w.rooms[1]!.id)!;
    expect(moved).toMatchObject({ status: 'reserved', checkInAt: at(6, '15:00'), expectedCheckOutAt: at(8, '11:00') });
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay!.id } })).toMatchObject({ status: 'moved' });
    expect(await ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({ where: { feedId: feed.id } })).toMatchObject({ stayId: moved.id, state: 'booked' });
    // The code followed the guest: off G1's lock, the same digits on G2's for the new nights.
    expect(await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: code.id } })).toMatchObject({ revokeReason: 'room_change' });
    expect(await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { stayId: moved.id } })).toMatchObject({
      roomId: w.rooms[1]!.id,
      code: '630417',
      validFrom: at(6, '15:00'),
      validUntil: at(8, '11:00'),
    });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: w.hotel.id, action: 'stay.changeRoom', entityId: String(stay!.id) } })).toBe(1);
    // Read again: nothing more moves.
    expect((await readFeedNow(w.owner, { feedId: feed.id })).read).toMatchObject({ moved: 0, roomChanged: 0 });

    // No room of the group free on the next new nights: a conflict, the reservation keeps its dates.
    await insertStay(ctx.deps, {
      hotelId: w.hotel.id,
      roomId: w.rooms[0]!.id,
      checkInAt: at(12, '15:00'),
      expectedCheckOutAt: at(14, '11:00'),
      status: 'reserved',
    });
    await insertStay(ctx.deps, {
      hotelId: w.hotel.id,
      roomId: w.rooms[1]!.id,
      checkInAt: at(12, '15:00'),
      expectedCheckOutAt: at(14, '11:00'),
      status: 'reserved',
    });
    answers.set(w.path, ics([{ uid: 'grp@airbnb.com', from: 12, to: 13, description: airbnb('HMGROUP001') }]));
    expect((await readFeedNow(w.owner, { feedId: feed.id })).read).toMatchObject({ moved: 0, conflicts: 1 });
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: moved.id } })).toMatchObject({ checkInAt: at(6, '15:00'), status: 'reserved' });
  });

  it('a reservation the desk moved to another room is still the booking: the channel’s cancellation cancels it there', async () => {
    const w = await setup(['D1', 'D2']);
    answers.set(w.path, ics([{ uid: 'desk@airbnb.com', from: 3, to: 5, description: airbnb('HMDESK0001') }]));
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    const [stay] = await liveStays(w.hotel.id);
    const moved = await changeRoom(w.owner, { stayId: stay!.id, targetRoomId: w.rooms[1]!.id });
    expect(await ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({ where: { feedId: feed.id } })).toMatchObject({ stayId: moved.id });
    // Read again: nothing is made in the feed's room.
    expect((await readFeedNow(w.owner, { feedId: feed.id })).read).toMatchObject({ created: 0 });
    answers.set(w.path, ics([{ uid: 'other@airbnb.com', from: 30, to: 31 }]));
    expect((await readFeedNow(w.owner, { feedId: feed.id })).read).toMatchObject({ cancelled: 1 });
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: moved.id } })).toMatchObject({ status: 'ended' });
  });
});

describe('bad events are skipped and named', () => {
  it('one VEVENT with DTSTART garbage: the rest imported, the skipped one named on the feed, its booking not cancelled, no stack in the log', async () => {
    const w = await setup();
    answers.set(
      w.path,
      ics([
        { uid: 'ok@airbnb.com', from: 3, to: 5, description: airbnb('HMOK000001') },
        { uid: 'soon-bad@airbnb.com', from: 8, to: 9, description: airbnb('HMBAD00001') },
      ]),
    );
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    expect(feed.read.created).toBe(2);
    const warn = vi.spyOn(ctx.deps.log, 'warn');
    const error = vi.spyOn(ctx.deps.log, 'error');
    answers.set(
      w.path,
      ics([
        { uid: 'ok@airbnb.com', from: 3, to: 5, description: airbnb('HMOK000001') },
        { uid: 'soon-bad@airbnb.com', from: 8, to: 9, dtstart: 'DTSTART:garbage' },
        { uid: 'new@airbnb.com', from: 12, to: 14, description: airbnb('HMNEW00001') },
        { uid: 'backwards@airbnb.com', from: 20, to: 18 },
        { uid: 'a\u0000b\ud800', from: 22, to: 23, summary: 'Na\u0000me\ud800 two\u2028lines' },
        { uid: 'u'.repeat(600), from: 24, to: 25 },
      ]),
    );
    const read = await readFeedNow(w.owner, { feedId: feed.id });
    expect(read.read).toMatchObject({ ok: true, created: 3, cancelled: 0, skipped: 2 });
    expect(read.lastError).toBeNull();
    expect(read.lastReadReport!.skipped).toEqual(
      expect.arrayContaining([
        { uid: 'soon-bad@airbnb.com', reason: 'bad_date' },
        { uid: 'backwards@airbnb.com', reason: 'ends_before_start' },
      ]),
    );
    expect(read.lastReadReport!.skippedCount).toBe(2);
    expect((await listFeeds(w.owner)).find((f) => f.id === feed.id)!.lastReadReport!.skipped).toHaveLength(2);
    // The booking whose event could not be read this time is not taken for cancelled.
    expect(await liveStays(w.hotel.id)).toHaveLength(5);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    warn.mockRestore();
    error.mockRestore();
    const hostile = await ctx.deps.prisma.calendarFeedBooking.findMany({
      where: { feedId: feed.id, startsAt: { gte: at(22, '00:00') } },
      orderBy: { startsAt: 'asc' },
    });
    expect(hostile).toHaveLength(2);
    expect(hostile.every((b) => b.uid.length <= 512 && !b.uid.includes('\u0000') && !b.uid.includes('\ud800'))).toBe(true);
    // Read again: nothing changes.
    expect((await readFeedNow(w.owner, { feedId: feed.id })).read).toMatchObject({ created: 0, moved: 0, cancelled: 0, skipped: 2 });
  });
});

describe('phone fields of real channels', () => {
  const RULE = { enabled: true, issueDaysBefore: 2, minutesBeforeCheckIn: 0, minutesAfterCheckOut: 0, phoneFallback: 'random', codeType: 'custom' } as const;

  it("Airbnb's last 4 digits give the last-4 rule its code; a 6-digit rule runs its fallback; a VRBO phone is a phone", async () => {
    const w = await setup(['P1', 'P2', 'P3']);
    answers.set(
      w.path,
      ics([
        { uid: 'p4@airbnb.com', from: 3, to: 5, description: airbnb('HMPHONE001', '4821') },
        { uid: 'p6@airbnb.com', from: 6, to: 8, description: airbnb('HMPHONE002', '4821') },
        { uid: 'pv@vrbo.com', from: 9, to: 10, summary: 'Reserved - Ana Silva', description: 'Guest phone: +1 (415) 555-0193' },
      ]),
    );
    await setAccessRule(w.owner, { ...RULE, codeRule: 'phone_last4' });
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Channels', url: w.url });
    expect(feed.read.created).toBe(3);
    const guests = await ctx.deps.prisma.stayGuest.findMany({
      where: { hotelId: w.hotel.id },
      orderBy: { id: 'asc' },
      select: { stayId: true, mobile: true, phoneTail: true },
    });
    expect(guests.map((g) => [g.mobile, g.phoneTail])).toEqual([
      [null, '4821'],
      [null, '4821'],
      ['+14155550193', null],
    ]);
    const [s4, s6, sv] = await liveStays(w.hotel.id);
    const issue = (s: { id: number; version: number; checkInAt: Date }) =>
      issueOnTime(jobContext(ctx.deps, 'stay.issue', randomUUID()), { stayId: s.id, version: s.version }, new Date(s.checkInAt.getTime() - 3_600_000));
    expect(await issue(s4!)).toBe('issued');
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: s4!.id } })).toMatchObject({ accessOutcome: 'as_rule' });
    expect(await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { stayId: s4!.id } })).toMatchObject({ kind: 'custom', code: '4821' });
    expect(await issue(sv!)).toBe('issued');
    expect(await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { stayId: sv!.id } })).toMatchObject({ code: '0193' });

    // A 6-digit rule is never given 4 digits: its stated fallback (a random code) runs, and says why.
    await setAccessRule(w.owner, { ...RULE, codeRule: 'phone_last6' });
    expect(await issue(s6!)).toBe('issued');
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: s6!.id } })).toMatchObject({ accessOutcome: 'phone_missing_random' });
    const random = await ctx.deps.prisma.lockPassword.findFirstOrThrow({ where: { stayId: s6!.id } });
    expect(random.code).toMatch(/^\d{6}$/);
    expect(random.code!.endsWith('4821')).toBe(false);
  });
});
