/**
 * Issue 36 §8: one notion of an arrival (stays/visit-start.ts). A reservation moved to another room
 * before its guest came, who then arrives, is an arrival; a guest in house changing rooms is not a
 * second one; a walk-in is one. Today's figure and list, the timeline's header and the day report
 * count the same guests.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hours, uniqueMobile } from '../../test/factories';
import { createTestContext, type TestContext } from '../../test/harness';
import { ledgerHotel, stayIn } from '../../test/ledger-kit';
import { zoneAtLocalHour } from '../../test/factories';
import { localDate } from '@console/shared';
import { dayReport } from '../reports/day-report';
import { timelineWindow } from '../timeline/timeline.service';
import { getToday } from '../today/today.service';
import { arriveReservation } from './arrival';
import { listArrivals } from './arrivals';
import { createReservation } from './reservation';
import { rescheduleStay } from './reschedule';
import { changeRoom } from './room-change';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

describe('an arrival', () => {
  it('is a reservation moved before its guest came and then arrived, and a walk-in who changed rooms once, on every figure', async () => {
    const h = await ledgerHotel(ctx, ['V1', 'V2', 'V3', 'V4']);
    const timeZone = zoneAtLocalHour(12);
    await ctx.deps.prisma.hotel.update({ where: { id: h.hotel.id }, data: { timeZone } });
    for (const c of [h.owner, h.staff]) c.actor.timeZone = timeZone;
    const today = localDate(new Date(), timeZone);
    const [v1, v2, v3, v4] = h.rooms as unknown as { id: number; name: string }[];

    // Booked in V1 for tonight, moved to V2 before the guest came, then arrived.
    const booked = await createReservation(h.staff, {
      roomId: v1!.id,
      checkInAt: hours(1),
      expectedCheckOutAt: hours(24),
      guests: [{ name: 'Moved Guest', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const moved = await rescheduleStay(h.staff, { stayId: booked.id, roomId: v2!.id, checkInAt: hours(1), expectedCheckOutAt: hours(24) });
    expect(moved.movedFromStayId).toBe(booked.id);
    // Before the guest comes, nobody has arrived.
    expect((await getToday(h.owner)).arrivals.arrived).toBe(0);
    await arriveReservation(h.staff, { stayId: moved.id, acknowledge: ['room_dirty', 'guest_in_other_room'] });
    // A walk-in in V3, moved to V4 while in house: one arrival, not two.
    const walkIn = await stayIn(h.staff, v3!.id, { from: -1, to: 24 });
    await changeRoom(h.staff, { stayId: walkIn.id, targetRoomId: v4!.id, upgrade: 'charge' });

    const board = await getToday(h.owner);
    expect(board.arrivals.arrived).toBe(2);
    const list = await listArrivals(h.owner);
    expect([list.arrivedTotal, list.arrived.map((s) => s.roomName).sort()]).toEqual([2, ['V2', 'V3']]);
    const window = await timelineWindow(h.owner, { from: today, days: 7 });
    expect(window.header[0]).toMatchObject({ date: today, arrivals: 2 });
    expect((await dayReport(h.owner, { date: today })).arrivals).toBe(2);
  });
});
