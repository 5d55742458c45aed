import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, actorContext, type TestContext } from '../test/harness';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../test/factories';
import { checkIn, renewStay } from '../modules/stay/stay.service';
import { startWorkers } from './workers';
import { sweepStays } from './stay.job';

/** A stay that started almost an hour ago (the minimum length) and ends in `seconds`. */
function endingSoon(roomId: number, seconds: number) {
  const end = Date.now() + seconds * 1000;
  return {
    roomId,
    checkInAt: new Date(end - 3_600_000),
    expectedCheckOutAt: new Date(end),
    guests: [{ name: 'Soon Gone', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  };
}

async function stateOf(ctx: TestContext, stayId: number) {
  return (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stayId } })).status;
}

async function waitFor(check: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('stay expiry jobs', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('expires a stay at its expected check-out by a delayed job, once, with an audit entry', async () => {
    const workers = startWorkers(ctx.deps);
    try {
      const h = await createHotelWithStaff(ctx.deps);
      const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E1']);
      const stay = await checkIn(await actorContext(ctx.deps, h.staffToken), endingSoon(rooms[0]!.id, 1.5));
      expect(await stateOf(ctx, stay.id)).toBe('in_house');
      const job = await ctx.deps.queues.stay.getJob(`stay-${stay.id}-v0-expire`);
      expect(await job?.isDelayed()).toBe(true);
      expect(await waitFor(async () => (await stateOf(ctx, stay.id)) === 'expired')).toBe(true);
      expect(await ctx.deps.prisma.auditLog.count({ where: { entityType: 'Stay', entityId: String(stay.id), action: 'stay.expire', actorType: 'job' } })).toBe(1);
    } finally {
      await workers.close();
    }
  });

  it('reschedules on renewal: the old job finds a newer version and does nothing', async () => {
    const workers = startWorkers(ctx.deps);
    try {
      const h = await createHotelWithStaff(ctx.deps);
      const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E2']);
      const actor = await actorContext(ctx.deps, h.staffToken);
      const stay = await checkIn(actor, endingSoon(rooms[0]!.id, 1.5));
      await renewStay(actor, { stayId: stay.id, expectedCheckOutAt: new Date(Date.now() + 6 * 3_600_000) });
      expect(await ctx.deps.queues.stay.getJob(`stay-${stay.id}-v1-expire`)).toBeTruthy();
      const oldJob = await ctx.deps.queues.stay.getJob(`stay-${stay.id}-v0-expire`);
      expect(await waitFor(async () => (await oldJob!.getState()) === 'completed')).toBe(true);
      expect(await stateOf(ctx, stay.id)).toBe('in_house');
    } finally {
      await workers.close();
    }
  });

  it('loses no pending expiry across a restart of the server and its workers', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E3']);
    // Scheduled while no worker runs; then the whole app stops.
    const first = await createTestContext();
    const stay = await checkIn(await actorContext(first.deps, h.staffToken), endingSoon(rooms[0]!.id, 1));
    await first.close();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await stateOf(ctx, stay.id)).toBe('in_house');
    // A new process with workers picks the overdue job up.
    const second = await createTestContext();
    const workers = startWorkers(second.deps);
    try {
      expect(await waitFor(async () => (await stateOf(ctx, stay.id)) === 'expired')).toBe(true);
    } finally {
      await workers.close();
      await second.close();
    }
  });

  it('sweeps stays whose jobs were lost (an old Redis backup)', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E4', 'E5']);
    const overdue = await ctx.deps.prisma.stay.create({ data: { hotelId: h.hotel.id, roomId: rooms[0]!.id, status: 'in_house', checkInAt: new Date(Date.now() - 5 * 3_600_000), expectedCheckOutAt: new Date(Date.now() - 3_600_000) } });
    const arrived = await ctx.deps.prisma.stay.create({ data: { hotelId: h.hotel.id, roomId: rooms[1]!.id, status: 'reserved', checkInAt: new Date(Date.now() - 3_600_000), expectedCheckOutAt: new Date(Date.now() + 3_600_000) } });
    const result = await sweepStays(ctx.deps);
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(result.arrived).toBeGreaterThanOrEqual(1);
    expect(await stateOf(ctx, overdue.id)).toBe('expired');
    expect(await stateOf(ctx, arrived.id)).toBe('in_house');
  });
});
