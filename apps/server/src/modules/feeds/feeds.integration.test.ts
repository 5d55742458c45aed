/**
 * Bookings from channel calendars (issue 20 §1): a feed served by the test itself (a local HTTP
 * server on port 0 whose .ics text the test changes between reads) is read into reservations.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { jobContext } from '../../context';
import { createHotelWithStaff, createRooms, insertStay } from '../../test/factories';
import { actorContext, createTestContext, type TestContext } from '../../test/harness';
import { trpcClient } from '../../test/trpc-client';
import { arriveOnTime } from '../stays/transitions';
import { readFeed } from './feed-import';
import { addFeed, confirmEmptyFeed, deleteFeed, listFeeds, readFeedNow, regenerateExportToken, roomExportUrl } from './feed.service';
import { parseFeed } from './ical-parse';

let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;
let server: Server;
let base: string;
/** What each path of the test's server answers: an .ics text, or an HTTP status. */
const answers = new Map<string, string | number>();

beforeAll(async () => {
  // The test serves its calendars on 127.0.0.1: a feed on the hotel's own network.
  ctx = await createTestContext({ env: { FEED_PRIVATE_ADDRESSES: 'true' } });
  api = trpcClient(ctx.app);
  server = createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (answer === undefined || typeof answer === 'number') {
      res.writeHead(typeof answer === 'number' ? answer : 404).end('nope');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(answer);
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

interface Ev {
  uid: string;
  from: number;
  to: number;
  summary?: string;
  description?: string;
}
function ics(events: Ev[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN', 'CALSCALE:GREGORIAN'];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `DTSTAMP:20261101T000000Z`,
      `DTSTART;VALUE=DATE:${day(e.from)}`,
      `DTEND;VALUE=DATE:${day(e.to)}`,
      `UID:${e.uid}`,
      `SUMMARY:${e.summary ?? 'Reserved'}`,
      ...(e.description ? [`DESCRIPTION:${e.description}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}
const airbnb = (code: string, last4 = '4321') =>
  `Reservation URL: https://www.airbnb.com/hosting/reservations/details/${code}\\nPhone Number (Last 4 Digits): ${last4}`;

async function setup() {
  const h = await createHotelWithStaff(ctx.deps);
  await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone: TZ, checkInTime: '15:00', checkOutTime: '11:00' } });
  const { rooms, group } = await createRooms(ctx.deps, h.hotel.id, ['F1', 'F2'], { groupName: `Feeds ${randomUUID().slice(0, 6)}` });
  const owner = await actorContext(ctx.deps, h.ownerToken);
  const path = `/${randomUUID()}.ics`;
  return { ...h, rooms, group: group!, owner, path, url: `${base}${path}` };
}

const staysOf = (roomIds: number[]) =>
  ctx.deps.prisma.stay.findMany({
    where: { roomId: { in: roomIds } },
    orderBy: { id: 'asc' },
    select: {
      id: true,
      roomId: true,
      status: true,
      checkInAt: true,
      expectedCheckOutAt: true,
      remark: true,
      cancelReason: true,
      guests: { select: { name: true } },
    },
  });
const at = (n: number, time: string) => zonedToInstant(`${addDays(localDate(new Date(), TZ), n)}T${time}`, TZ)!;
/** Marks a room of `hotelId` out of order (or service) from day n to day m of the hotel (reason "Leaking pipe"). */
const outOfOrderIn =
  (hotelId: number) =>
  (roomId: number, from: number, to: number, kind: 'out_of_order' | 'out_of_service' = 'out_of_order') =>
    ctx.deps.prisma.roomOutOfOrder.create({
      data: {
        hotelId,
        roomId,
        kind,
        startDate: new Date(`${addDays(localDate(new Date(), TZ), from)}T00:00:00Z`),
        endDate: new Date(`${addDays(localDate(new Date(), TZ), to)}T00:00:00Z`),
        reason: 'Leaking pipe',
      },
    });

describe('reading a feed', () => {
  it('imports bookings as reservations at the hotel times, blocks are not bookings, a re-read does not duplicate', async () => {
    const w = await setup();
    answers.set(
      w.path,
      ics([
        { uid: 'a1@airbnb.com', from: 3, to: 5, description: airbnb('HMABCDEF12') },
        { uid: 'b1@airbnb.com', from: 10, to: 12, summary: 'Airbnb (Not available)' },
        { uid: 'c1@booking.com', from: 14, to: 16, summary: 'CLOSED - Not available' },
        { uid: 'old@airbnb.com', from: -5, to: -3, description: airbnb('HMOLD00001') },
      ]),
    );
    const added = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    expect(added.read).toMatchObject({ ok: true, events: 4, created: 1, conflicts: 0 });
    let stays = await staysOf([w.rooms[0]!.id]);
    expect(stays).toHaveLength(1);
    expect(stays[0]).toMatchObject({ status: 'reserved', checkInAt: at(3, '15:00'), expectedCheckOutAt: at(5, '11:00') });
    expect(stays[0]!.remark).toContain('HMABCDEF12');
    const booking = await ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({ where: { feedId: added.id } });
    expect(booking).toMatchObject({ uid: 'a1@airbnb.com', reference: 'HMABCDEF12', phone: '4321', stayId: stays[0]!.id, state: 'booked' });

    const again = await readFeedNow(w.owner, { feedId: added.id });
    expect(again.read).toMatchObject({ ok: true, created: 0, moved: 0, cancelled: 0 });
    stays = await staysOf([w.rooms[0]!.id]);
    expect(stays).toHaveLength(1);
    expect(again).toMatchObject({ booked: 1, lastError: null, lastEventCount: 4, emptyPending: false });
  });

  it('two reads at the same moment make one reservation per booking', async () => {
    const w = await setup();
    answers.set(
      w.path,
      ics([
        { uid: 'x1', from: 2, to: 4, description: airbnb('HMX0000001') },
        { uid: 'x2', from: 6, to: 8, description: airbnb('HMX0000002') },
      ]),
    );
    const feed = await ctx.deps.prisma.calendarFeed.create({ data: { hotelId: w.hotel.id, roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url } });
    const job = jobContext(ctx.deps, 'feed.read', 'test');
    const results = await Promise.all([1, 2, 3, 4].map(() => readFeed(job, w.hotel.id, feed.id)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.reduce((n, r) => n + r.created, 0)).toBe(2);
    expect(await staysOf([w.rooms[0]!.id])).toHaveLength(2);
    expect(await ctx.deps.prisma.calendarFeedBooking.count({ where: { feedId: feed.id } })).toBe(2);
  });

  it('moved dates move the reservation; a removed event cancels it; an empty answer cancels nothing until confirmed', async () => {
    const w = await setup();
    answers.set(
      w.path,
      ics([
        { uid: 'm1', from: 3, to: 5, description: airbnb('HMM0000001') },
        { uid: 'm2', from: 8, to: 9, description: airbnb('HMM0000002') },
        { uid: 'm3', from: 12, to: 14, description: airbnb('HMM0000003') },
      ]),
    );
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    expect(feed.read.created).toBe(3);
    const [s1, s2, s3] = await staysOf([w.rooms[0]!.id]);

    // m1 moves a day later, m2 is gone.
    answers.set(
      w.path,
      ics([
        { uid: 'm1', from: 4, to: 6, description: airbnb('HMM0000001') },
        { uid: 'm3', from: 12, to: 14, description: airbnb('HMM0000003') },
      ]),
    );
    const read = await readFeedNow(w.owner, { feedId: feed.id });
    expect(read.read).toMatchObject({ ok: true, created: 0, moved: 1, cancelled: 1 });
    const after = await staysOf([w.rooms[0]!.id]);
    expect(after.find((s) => s.id === s1!.id)).toMatchObject({ status: 'reserved', checkInAt: at(4, '15:00'), expectedCheckOutAt: at(6, '11:00') });
    expect(after.find((s) => s.id === s2!.id)).toMatchObject({ status: 'ended', cancelReason: 'guest_request' });
    expect(after).toHaveLength(3);
    const audit = await ctx.deps.prisma.auditLog.findMany({ where: { hotelId: w.hotel.id, entityType: 'Stay' }, select: { action: true } });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['stay.reserve', 'stay.reschedule', 'stay.cancel']));

    // The feed answers with no event at all: nothing is cancelled, the feed asks.
    answers.set(w.path, ics([]));
    const empty = await readFeedNow(w.owner, { feedId: feed.id });
    expect(empty.read).toMatchObject({ ok: true, cancelled: 0, emptyPending: true });
    expect(empty.emptyPending).toBe(true);
    expect((await staysOf([w.rooms[0]!.id])).filter((s) => s.status === 'reserved').map((s) => s.id)).toEqual([s1!.id, s3!.id]);
    // Read again, still empty: still nothing cancelled.
    await readFeed(jobContext(ctx.deps, 'feed.read', 'test'), w.hotel.id, feed.id);
    expect((await staysOf([w.rooms[0]!.id])).filter((s) => s.status === 'reserved')).toHaveLength(2);

    // The channel then lists m1 as cancelled (STATUS:CANCELLED) and nothing else: m1 is cancelled, m3 still waits for the confirmation.
    answers.set(w.path, ics([{ uid: 'm1', from: 4, to: 6, description: airbnb('HMM0000001') }]).replace('UID:m1\r\n', 'UID:m1\r\nSTATUS:CANCELLED\r\n'));
    const saidCancelled = await readFeedNow(w.owner, { feedId: feed.id });
    expect(saidCancelled.read).toMatchObject({ ok: true, cancelled: 1, emptyPending: true });
    expect((await staysOf([w.rooms[0]!.id])).filter((s) => s.status === 'reserved').map((s) => s.id)).toEqual([s3!.id]);

    const confirmed = await confirmEmptyFeed(w.owner, { feedId: feed.id });
    expect(confirmed).toMatchObject({ cancelled: 1, emptyPending: false, booked: 0 });
    expect((await staysOf([w.rooms[0]!.id])).filter((s) => s.status === 'reserved')).toHaveLength(0);
    await expect(confirmEmptyFeed(w.owner, { feedId: feed.id })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('after the guest arrived: a later check-out extends the stay and its bill, anything else is shown for the desk, a cancellation leaves the stay', async () => {
    const w = await setup();
    answers.set(
      w.path,
      ics([
        { uid: 'h1', from: -1, to: 2, description: airbnb('HMH0000001') },
        { uid: 'h2', from: -1, to: 3, description: airbnb('HMH0000002') },
      ]),
    );
    const feed = await addFeed(w.owner, { groupId: w.group.id, label: 'Airbnb', url: w.url });
    expect(feed.read.created).toBe(2);
    const job = jobContext(ctx.deps, 'stay.arrive', 'test');
    const made = await staysOf([w.rooms[0]!.id, w.rooms[1]!.id]);
    // Both began by themselves at their check-in time (yesterday).
    for (const s of made) {
      const { version } = await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: s.id }, select: { version: true } });
      expect(await arriveOnTime(job, { stayId: s.id, version })).toBe(true);
    }
    const [s1, s2] = made;
    const priceBefore = (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: s1!.id }, select: { priceAmount: true } })).priceAmount;

    // h1 stays two nights more; h2 leaves a day earlier.
    answers.set(
      w.path,
      ics([
        { uid: 'h1', from: -1, to: 4, description: airbnb('HMH0000001') },
        { uid: 'h2', from: -1, to: 2, description: airbnb('HMH0000002') },
      ]),
    );
    const read = await readFeedNow(w.owner, { feedId: feed.id });
    expect(read.read).toMatchObject({ ok: true, moved: 1, cancelled: 0 });
    const after = await staysOf([w.rooms[0]!.id, w.rooms[1]!.id]);
    expect(after.find((s) => s.id === s1!.id)).toMatchObject({ status: 'in_house', expectedCheckOutAt: at(4, '11:00') });
    const extended = await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: s1!.id }, select: { priceAmount: true } });
    expect(extended.priceAmount).toBeGreaterThan(priceBefore);
    // The earlier check-out is not applied by itself: the feed shows it for the desk.
    expect(after.find((s) => s.id === s2!.id)).toMatchObject({ status: 'in_house', expectedCheckOutAt: at(3, '11:00') });
    expect(read.conflicts.map((c) => [c.reference, c.state])).toEqual([['HMH0000002', 'moved_in_house']]);
    const renewals = await ctx.deps.prisma.auditLog.findMany({
      where: { hotelId: w.hotel.id, entityType: 'Stay', entityId: String(s1!.id), action: 'stay.renew' },
    });
    expect(renewals).toHaveLength(1);

    // A re-read of the same answer changes nothing more.
    const again = await readFeedNow(w.owner, { feedId: feed.id });
    expect(again.read).toMatchObject({ ok: true, moved: 0, cancelled: 0 });
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: w.hotel.id, entityId: String(s1!.id), action: 'stay.renew' } })).toBe(1);

    // h1 is cancelled on the channel while the guest is in: the stay is left, the feed says so.
    answers.set(w.path, ics([{ uid: 'h2', from: -1, to: 2, description: airbnb('HMH0000002') }]));
    const gone = await readFeedNow(w.owner, { feedId: feed.id });
    expect(gone.read).toMatchObject({ ok: true, cancelled: 0 });
    expect((await staysOf([w.rooms[0]!.id, w.rooms[1]!.id])).map((s) => s.status)).toEqual(['in_house', 'in_house']);
    expect(gone.conflicts.map((c) => [c.reference, c.state]).sort()).toEqual([
      ['HMH0000001', 'gone_in_house'],
      ['HMH0000002', 'moved_in_house'],
    ]);
    // Once the stay has ended, the feed no longer shows it.
    await ctx.deps.prisma.stay.update({ where: { id: s1!.id }, data: { status: 'checked_out', checkedOutAt: new Date() } });
    const listed = await listFeeds(w.owner, {});
    expect(listed.find((f) => f.id === feed.id)!.conflicts.map((c) => c.reference)).toEqual(['HMH0000002']);
  });

  it('a failing feed keeps everything and records its error', async () => {
    const w = await setup();
    answers.set(w.path, ics([{ uid: 'f1', from: 3, to: 5, description: airbnb('HMF0000001') }]));
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    const before = await staysOf([w.rooms[0]!.id]);
    expect(before).toHaveLength(1);

    answers.set(w.path, 503);
    const failed = await readFeedNow(w.owner, { feedId: feed.id });
    expect(failed.read).toMatchObject({ ok: false, error: 'http_503' });
    expect(failed).toMatchObject({ lastError: 'http_503', booked: 1 });
    expect(failed.lastReadAt).toEqual(feed.lastReadAt);

    answers.set(w.path, '<html>maintenance</html>');
    const unparsable = await readFeedNow(w.owner, { feedId: feed.id });
    expect(unparsable.read).toMatchObject({ ok: false, error: 'unparsable' });
    expect(await staysOf([w.rooms[0]!.id])).toEqual(before);

    // Back: the error goes.
    answers.set(w.path, ics([{ uid: 'f1', from: 3, to: 5, description: airbnb('HMF0000001') }]));
    expect(await readFeedNow(w.owner, { feedId: feed.id })).toMatchObject({ lastError: null, booked: 1 });
  });

  it('a booking overlapping a stay of the room is a conflict shown on the feed; a group feed takes a free room', async () => {
    const w = await setup();
    const existing = await insertStay(ctx.deps, {
      hotelId: w.hotel.id,
      roomId: w.rooms[0]!.id,
      checkInAt: at(3, '14:00'),
      expectedCheckOutAt: at(6, '12:00'),
      status: 'reserved',
    });
    answers.set(w.path, ics([{ uid: 'k1', from: 4, to: 5, description: airbnb('HMK0000001') }]));
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    expect(feed.read).toMatchObject({ ok: true, created: 0, conflicts: 1 });
    expect(feed.conflicts).toEqual([
      expect.objectContaining({ uid: 'k1', state: 'conflict', reference: 'HMK0000001', conflictStayId: existing.id, stayId: null }),
    ]);

    const groupPath = `/${randomUUID()}.ics`;
    answers.set(groupPath, ics([{ uid: 'g1', from: 4, to: 5, description: airbnb('HMG0000001') }]));
    const groupFeed = await addFeed(w.owner, { groupId: w.group.id, label: 'VRBO', url: `${base}${groupPath}` });
    expect(groupFeed.read.created).toBe(1);
    const made = await ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({
      where: { feedId: groupFeed.id },
      select: { stay: { select: { roomId: true } } },
    });
    expect(made.stay!.roomId).toBe(w.rooms[1]!.id);
  });

  it('a room out of order is not sold by a feed: a new booking, moved dates and an extension in its range are conflicts naming it', async () => {
    const w = await setup();
    const outOfOrder = outOfOrderIn(w.hotel.id);
    const f1 = w.rooms[0]!.id;
    await outOfOrder(f1, 6, 7);
    // o1 falls on day 6: not made. o2 (days 3 to 4) is made, then moved onto day 6: it keeps its dates.
    answers.set(
      w.path,
      ics([
        { uid: 'o1', from: 5, to: 7, description: airbnb('HMO0000001') },
        { uid: 'o2', from: 3, to: 5, description: airbnb('HMO0000002') },
      ]),
    );
    const feed = await addFeed(w.owner, { roomId: f1, label: 'Airbnb', url: w.url });
    expect(feed.read).toMatchObject({ ok: true, created: 1, conflicts: 1 });
    const [o2] = await staysOf([f1]);
    expect(o2).toMatchObject({ checkInAt: at(3, '15:00'), expectedCheckOutAt: at(5, '11:00') });
    answers.set(
      w.path,
      ics([
        { uid: 'o1', from: 5, to: 7, description: airbnb('HMO0000001') },
        { uid: 'o2', from: 4, to: 7, description: airbnb('HMO0000002') },
      ]),
    );
    const moved = await readFeedNow(w.owner, { feedId: feed.id });
    expect(moved.read).toMatchObject({ ok: true, created: 0, moved: 0, conflicts: 2 });
    expect(await staysOf([f1])).toEqual([o2]);
    const range = {
      roomName: 'F1',
      kind: 'out_of_order',
      startDate: addDays(localDate(new Date(), TZ), 6),
      endDate: addDays(localDate(new Date(), TZ), 7),
      reason: 'Leaking pipe',
    };
    expect(moved.conflicts.map((c) => [c.reference, c.conflictStayId, c.outOfOrder])).toEqual([
      ['HMO0000002', null, range],
      ['HMO0000001', null, range],
    ]);

    // A group's booking moved onto the range takes the group's other room.
    const groupPath = `/${randomUUID()}.ics`;
    answers.set(groupPath, ics([{ uid: 'og', from: 0, to: 2, description: airbnb('HMO000000G') }]));
    const groupFeed = await addFeed(w.owner, { groupId: w.group.id, label: 'VRBO', url: `${base}${groupPath}` });
    expect(groupFeed.read.created).toBe(1);
    const booked = () =>
      ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({ where: { feedId: groupFeed.id }, select: { state: true, stay: { select: { roomId: true } } } });
    expect((await booked()).stay!.roomId).toBe(f1);
    answers.set(groupPath, ics([{ uid: 'og', from: 0, to: 3, description: airbnb('HMO000000G') }]));
    await outOfOrder(f1, 2, 2, 'out_of_service');
    const movedRoom = await readFeedNow(w.owner, { feedId: groupFeed.id });
    expect(movedRoom.read).toMatchObject({ ok: true, roomChanged: 1 });
    expect(await booked()).toEqual({ state: 'booked', stay: { roomId: w.rooms[1]!.id } });
  });

  it('a guest in the house whose channel adds nights in a range out of service: a conflict naming it, the read does not fail', async () => {
    const w = await setup();
    const outOfOrder = outOfOrderIn(w.hotel.id);
    const inHousePath = `/${randomUUID()}.ics`;
    const f2 = w.rooms[1]!.id;
    await outOfOrder(f2, 8, 9, 'out_of_service');
    answers.set(inHousePath, ics([{ uid: 'oh', from: -1, to: 1, description: airbnb('HMO000000H') }]));
    const houseFeed = await addFeed(w.owner, { roomId: f2, label: 'Booking.com', url: `${base}${inHousePath}` });
    expect(houseFeed.read.created).toBe(1);
    const stay = await ctx.deps.prisma.calendarFeedBooking.findFirstOrThrow({ where: { feedId: houseFeed.id }, select: { stayId: true } });
    const { version } = await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.stayId! }, select: { version: true } });
    expect(await arriveOnTime(jobContext(ctx.deps, 'stay.arrive', 'test'), { stayId: stay.stayId!, version })).toBe(true);
    answers.set(inHousePath, ics([{ uid: 'oh', from: -1, to: 10, description: airbnb('HMO000000H') }]));
    const extended = await readFeedNow(w.owner, { feedId: houseFeed.id });
    expect(extended.read).toMatchObject({ ok: true, moved: 0 });
    expect(extended.lastError).toBeNull();
    expect(await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.stayId! }, select: { status: true, expectedCheckOutAt: true } })).toEqual({
      status: 'in_house',
      expectedCheckOutAt: at(1, '11:00'),
    });
    expect(extended.conflicts.map((c) => [c.reference, c.state, c.outOfOrder?.kind])).toEqual([['HMO000000H', 'conflict', 'out_of_service']]);
  });
});

describe('tenancy, permissions and hostile input', () => {
  it("another hotel's room, group and feed are not found; staff may not manage feeds", async () => {
    const a = await setup();
    const b = await setup();
    answers.set(a.path, ics([]));
    const feed = await addFeed(a.owner, { roomId: a.rooms[0]!.id, label: 'Airbnb', url: a.url });
    await expect(addFeed(b.owner, { roomId: a.rooms[0]!.id, label: 'X', url: b.url })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(addFeed(b.owner, { groupId: a.group.id, label: 'X', url: b.url })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readFeedNow(b.owner, { feedId: feed.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(deleteFeed(b.owner, { feedId: feed.id, confirm: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(confirmEmptyFeed(b.owner, { feedId: feed.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(roomExportUrl(b.owner, { roomId: a.rooms[0]!.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await listFeeds(b.owner)).map((f) => f.id)).not.toContain(feed.id);
    const res = await api.raw.mutation('feed.edit', { feedId: feed.id, label: 'X', url: b.url, everyMinutes: 15 }, { token: b.ownerToken });
    expect(res.status).toBe(404);
    const staff = await api.raw.query('feed.list', {}, { token: a.staffToken });
    expect(staff.status).toBe(403);
    expect(await ctx.deps.prisma.calendarFeed.findUniqueOrThrow({ where: { id: feed.id } })).toMatchObject({ label: 'Airbnb' });
  });

  it('refuses a URL that is not http(s), too long, and NUL or lone surrogates', async () => {
    const w = await setup();
    const send = (input: Record<string, unknown>) =>
      api.raw.mutation('feed.add', { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url, ...input }, { token: w.ownerToken });
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ftp://example.com/a.ics',
      'webcal',
      `https://example.com/${'a'.repeat(2100)}`,
      'http://user:pw@example.com/a.ics',
    ]) {
      const res = await send({ url });
      expect(res.status, url).toBe(400);
    }
    for (const label of ['Air\u0000bnb', 'Air\ud800bnb', '', 'x'.repeat(65)]) expect((await send({ label })).status, JSON.stringify(label)).toBe(400);
    expect((await send({ url: `${w.url}\ud800` })).status).toBe(400);
    expect((await send({ everyMinutes: 1 })).status).toBe(400);
    expect((await send({ groupId: w.group.id })).status).toBe(400);
    expect(await ctx.deps.prisma.calendarFeed.count({ where: { hotelId: w.hotel.id } })).toBe(0);
  });

  it('deleting a feed with bookings asks first, then keeps the reservations', async () => {
    const w = await setup();
    answers.set(w.path, ics([{ uid: 'd1', from: 3, to: 5, description: airbnb('HMD0000001') }]));
    const feed = await addFeed(w.owner, { roomId: w.rooms[0]!.id, label: 'Airbnb', url: w.url });
    await expect(deleteFeed(w.owner, { feedId: feed.id })).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED' });
    expect(await deleteFeed(w.owner, { feedId: feed.id, confirm: true })).toEqual({ deleted: true });
    expect(await ctx.deps.prisma.calendarFeed.count({ where: { id: feed.id } })).toBe(0);
    expect((await staysOf([w.rooms[0]!.id]))[0]).toMatchObject({ status: 'reserved' });
  });
});

describe('export', () => {
  it("serves the room's bookings at a secret URL as a calendar the parser reads back; a new token retires the old URL", async () => {
    const w = await setup();
    await insertStay(ctx.deps, {
      hotelId: w.hotel.id,
      roomId: w.rooms[0]!.id,
      checkInAt: at(3, '15:00'),
      expectedCheckOutAt: at(5, '11:00'),
      status: 'reserved',
      guestName: 'Secret Guest',
    });
    const link = await roomExportUrl(w.owner, { roomId: w.rooms[0]!.id });
    expect(link.path).toMatch(/^\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await roomExportUrl(w.owner, { roomId: w.rooms[0]!.id })).path).toBe(link.path);
    const res = await ctx.app.inject({ method: 'GET', url: link.path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/calendar');
    expect(res.body).toContain('\r\nBEGIN:VEVENT\r\n');
    expect(res.body).not.toContain('Secret Guest');
    const { events } = parseFeed(res.body, { timeZone: TZ, checkInTime: '15:00', checkOutTime: '11:00' });
    expect(events).toEqual([expect.objectContaining({ checkInAt: at(3, '15:00'), checkOutAt: at(5, '11:00') })]);

    const renewed = await regenerateExportToken(w.owner, { roomId: w.rooms[0]!.id });
    expect(renewed.path).not.toBe(link.path);
    expect((await ctx.app.inject({ method: 'GET', url: link.path })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: renewed.path })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/calendar/nothing.ics' })).statusCode).toBe(404);
  });
});
