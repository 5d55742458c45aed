import { randomUUID } from 'node:crypto';
import { startLockSim, SimClient, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { createHotelWithStaff, createRooms } from '../../test/factories';
import { refreshLockStatus } from '../locks/lock-status';
import { createPassword } from './password.service';

/**
 * A gateway carries one command at a time for all the locks behind it (TTLock answers "gateway
 * busy", -3003, to a second): once a lock's status has named its gateway, the delivery engine
 * writes to one gateway's locks one after the other, so writes to several locks of one gateway at
 * once all go through at the first attempt instead of being refused and retried.
 */
let sim: LockSim;
let client: SimClient;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: [40, 60], lockIdBase: testLockIdBase() });
  client = new SimClient(sim.url);
  ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '5', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  workers = startWorkers(ctx.deps, { sweep: false });
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await sim?.close();
});

describe('writes to the locks of one gateway', () => {
  it('go one after the other: six passwords for six locks of one gateway all reach their locks at the first attempt', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { gateway } = await client.control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
    const { rooms } = await createRooms(
      ctx.deps,
      h.hotel.id,
      Array.from({ length: 6 }, (_, i) => `G${randomUUID().slice(0, 5)}-${i}`),
    );
    for (const room of rooms) {
      const { lock } = await client.control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId });
      await pairSimLock(ctx.deps, h.hotel.id, room.id, lock.lockId);
    }
    // The locks' status names their gateway.
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(new Set((await ctx.deps.prisma.lock.findMany({ where: { hotelId: h.hotel.id } })).map((l) => l.gatewayId))).toEqual(
      new Set([String(gateway.gatewayId)]),
    );

    const staff = await actorContext(ctx.deps, h.staffToken);
    const codes = ['582913', '619274', '730185', '841396', '952417', '163528'];
    const created = await Promise.all(
      rooms.map((room, i) => createPassword(staff, { roomId: room.id, kind: 'custom', code: codes[i]!, holderName: `Guest ${i}` })),
    );
    const ids = created.map((p) => p.id);
    const until = Date.now() + 30_000;
    let rows = await ctx.deps.prisma.lockPassword.findMany({ where: { id: { in: ids } } });
    while (rows.some((r) => r.deliveryState === 'pending') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      rows = await ctx.deps.prisma.lockPassword.findMany({ where: { id: { in: ids } } });
    }
    expect(rows.map((r) => r.deliveryState)).toEqual(ids.map(() => 'on_lock'));
    // Never refused as busy: no failed attempt, no error kept.
    expect(rows.map((r) => [r.attempts, r.lastError])).toEqual(ids.map(() => [0, null]));
  });
});
