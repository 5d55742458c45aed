import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, actorContext, type TestContext } from '../test/harness';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../test/factories';
import { jobContext } from '../context';
import { checkIn } from '../modules/stays/check-in';
import { renewStay } from '../modules/stays/renewal';
import { sweepStays } from '../modules/stays/transitions';
import { startWorkers } from './workers';

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

/** No sweep left over from an earlier test may run in this one (each test of the restart pair must stand alone). */
async function removeSweeps(ctx: TestContext) {
  await ctx.deps.queues.stay.removeJobScheduler('stay-sweep');
  for (const job of await ctx.deps.queues.stay.getJobs(['waiting', 'delayed', 'prioritized'])) if (job.name === 'sweep') await job.remove();
}

/** The job-made audit entries of a stay's transition (`by: 'sweep'` when the sweep made it). */
async function transitions(ctx: TestContext, stayId: number, action: string) {
  const rows = await ctx.deps.prisma.auditLog.findMany({ where: { entityType: 'Stay', entityId: String(stayId), action, actorType: 'job', channel: 'job' } });
  return rows.map((r) => ((r.after as { by?: string } | null)?.by === 'sweep' ? 'sweep' : 'job'));
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
    const workers = startWorkers(ctx.deps, { sweep: false });
    try {
      const h = await createHotelWithStaff(ctx.deps);
      const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E1']);
      // Four seconds ahead: a check-in on a busy machine (CI with the browser tests beside it) takes
      // more than the second and a half this used to leave, and the job was then due at once.
      const input = endingSoon(rooms[0]!.id, 4);
      const stay = await checkIn(await actorContext(ctx.deps, h.staffToken), input);
      expect(await stateOf(ctx, stay.id)).toBe('in_house');
      // Scheduled for the expected check-out, as a delayed job.
      const job = await ctx.deps.queues.stay.getJob(`stay-${stay.id}-v0-expire`);
      expect(job?.delay).toBeGreaterThan(0);
      expect(Math.abs(job!.timestamp + job!.delay - input.expectedCheckOutAt.getTime())).toBeLessThan(1_000);
      expect(await waitFor(async () => (await stateOf(ctx, stay.id)) === 'expired', 20_000)).toBe(true);
      expect(await ctx.deps.prisma.auditLog.count({ where: { entityType: 'Stay', entityId: String(stay.id), action: 'stay.expire', actorType: 'job' } })).toBe(
        1,
      );
    } finally {
      await workers.close();
    }
  });

  it('answers a committed check-in as done when its jobs cannot be queued (Redis away): the sweep expires it when due', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E4']);
    // The stay's jobs follow its commit (followStayJobs): a failed queueing is logged, not answered.
    const add = vi.spyOn(ctx.deps.queues.stay, 'add').mockRejectedValue(new Error('Redis away'));
    const input = endingSoon(rooms[0]!.id, 2);
    let stay;
    try {
      stay = await checkIn(await actorContext(ctx.deps, h.staffToken), input);
      expect(add).toHaveBeenCalled();
    } finally {
      add.mockRestore();
    }
    expect(await stateOf(ctx, stay.id)).toBe('in_house');
    expect(await ctx.deps.queues.stay.getJob(`stay-${stay.id}-v0-expire`)).toBeUndefined();
    await sweepStays(jobContext(ctx.deps, 'stay.sweep', 'test-sweep'), new Date(input.expectedCheckOutAt.getTime() + 1_000), { hotelId: h.hotel.id });
    expect(await stateOf(ctx, stay.id)).toBe('expired');
  });

  it('reschedules on renewal: the old job finds a newer version and does nothing', async () => {
    const workers = startWorkers(ctx.deps, { sweep: false });
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

  it('keeps a pending expiry job across a restart of the server: the delayed job itself expires the stay', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E3']);
    // Scheduled while no worker runs; then the whole app stops.
    const first = await createTestContext();
    const stay = await checkIn(await actorContext(first.deps, h.staffToken), endingSoon(rooms[0]!.id, 4));
    await first.close();
    // Past the due time, with no worker anywhere: nothing has happened yet, the job waits in Redis.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(stay.expectedCheckOutAt) - Date.now()) + 200));
    expect(await stateOf(ctx, stay.id)).toBe('in_house');
    expect(await (await ctx.deps.queues.stay.getJob(`stay-${stay.id}-v0-expire`))?.isDelayed()).toBe(true);
    // A new process with workers (and no sweep at all) picks the overdue job up.
    await removeSweeps(ctx);
    const second = await createTestContext();
    const workers = startWorkers(second.deps, { sweep: false });
    try {
      expect(await waitFor(async () => (await stateOf(ctx, stay.id)) === 'expired')).toBe(true);
      expect(await transitions(ctx, stay.id, 'stay.expire')).toEqual(['job']);
    } finally {
      await workers.close();
      await second.close();
    }
  });

  it('the start-up sweep alone expires a stay whose job was lost', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E6']);
    const first = await createTestContext();
    const stay = await checkIn(await actorContext(first.deps, h.staffToken), endingSoon(rooms[0]!.id, 4));
    await first.close();
    await (await ctx.deps.queues.stay.getJob(`stay-${stay.id}-v0-expire`))!.remove();
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(stay.expectedCheckOutAt) - Date.now()) + 200));
    const second = await createTestContext();
    const workers = startWorkers(second.deps, { sweepScope: { hotelId: h.hotel.id } });
    try {
      expect(await waitFor(async () => (await stateOf(ctx, stay.id)) === 'expired')).toBe(true);
      expect(await transitions(ctx, stay.id, 'stay.expire')).toEqual(['sweep']);
    } finally {
      await workers.close();
      await second.close();
    }
  });

  it('sweeps stays whose jobs were lost (an old Redis backup)', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['E4', 'E5']);
    const overdue = await ctx.deps.prisma.stay.create({
      data: {
        hotelId: h.hotel.id,
        roomId: rooms[0]!.id,
        status: 'in_house',
        checkInAt: new Date(Date.now() - 5 * 3_600_000),
        expectedCheckOutAt: new Date(Date.now() - 3_600_000),
      },
    });
    const arrived = await ctx.deps.prisma.stay.create({
      data: {
        hotelId: h.hotel.id,
        roomId: rooms[1]!.id,
        status: 'reserved',
        checkInAt: new Date(Date.now() - 3_600_000),
        expectedCheckOutAt: new Date(Date.now() + 3_600_000),
      },
    });
    // A sweep of one hotel (what tests use: the files share one database) leaves another hotel's stays.
    const other = await createHotelWithStaff(ctx.deps);
    const { rooms: otherRooms } = await createRooms(ctx.deps, other.hotel.id, ['E7']);
    const elsewhere = await ctx.deps.prisma.stay.create({
      data: {
        hotelId: other.hotel.id,
        roomId: otherRooms[0]!.id,
        status: 'in_house',
        checkInAt: new Date(Date.now() - 5 * 3_600_000),
        expectedCheckOutAt: new Date(Date.now() - 3_600_000),
      },
    });
    const result = await sweepStays(jobContext(ctx.deps, 'stay.sweep', 'test-sweep'), new Date(), { hotelId: h.hotel.id });
    expect(await stateOf(ctx, elsewhere.id)).toBe('in_house');
    expect(result.expired).toBe(1);
    expect(result.arrived).toBe(1);
    expect(await stateOf(ctx, overdue.id)).toBe('expired');
    expect(await stateOf(ctx, arrived.id)).toBe('in_house');
    // Each change the sweep makes is in the audit log, the sweep as its actor.
    expect(await transitions(ctx, overdue.id, 'stay.expire')).toEqual(['sweep']);
    expect(await transitions(ctx, arrived.id, 'stay.arrive')).toEqual(['sweep']);
  });
});
