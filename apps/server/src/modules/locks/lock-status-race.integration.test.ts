import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../context';
import { createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock, simControl } from '../../test/lock-factories';
import { createHotelWithStaff, createRooms } from '../../test/factories';
import { noteLockUnreachable, refreshLockStatus } from './lock-status';

/**
 * A status read that meets a write of the same lock (docs/locks.md "Status"): TTLock's status cycle
 * reads the lock's row, asks the cloud, and saves over the row it read only; a door that refused to
 * open meanwhile (`noteLockUnreachable`) is not undone by the cycle's older word from the gateway.
 * The meeting is made exact, not timed: the cycle's save of the lock is preceded by the failed write.
 */
let sim: LockSim;
let ctx: TestContext;

beforeAll(async () => {
  sim = await startLockSim({ latencyMs: 5, lockIdBase: testLockIdBase() });
  ctx = await createTestContext({ sim });
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

const control = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => simControl<T>(sim, method, path, body);

/** The console's dependencies, where `before` runs once just before the first save of the lock's status over the row a read found. */
function meetingAtSave(lockId: number, before: () => Promise<void>): Deps {
  let met = false;
  const lock = new Proxy(ctx.deps.prisma.lock, {
    get(target, key, receiver) {
      if (key !== 'updateMany') return Reflect.get(target, key, receiver);
      return async (args: { where?: { id?: number; statusCheckedAt?: unknown } }) => {
        if (!met && args.where?.id === lockId && 'statusCheckedAt' in args.where) {
          met = true;
          await before();
        }
        return target.updateMany(args as Parameters<typeof target.updateMany>[0]);
      };
    },
  });
  const prisma = new Proxy(ctx.deps.prisma, { get: (target, key, receiver) => (key === 'lock' ? lock : Reflect.get(target, key, receiver)) });
  return { ...ctx.deps, prisma };
}

describe('a status read that meets a failed write of the same lock', () => {
  it('keeps the lock offline that a write found unreachable while the cycle asked the cloud, and tells it once', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
    const { lock } = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId, battery: 80 });
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, [`L${lock.lockId}`]);
    const lockId = await pairSimLock(ctx.deps, h.hotel.id, rooms[0]!.id, lock.lockId);
    await refreshLockStatus(ctx.deps, { hotelId: h.hotel.id });
    expect(await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: lockId } })).toMatchObject({ online: true, statusError: null });

    // The cycle reads the gateway's links again (it heard the lock minutes ago); before it saves, an
    // unlock fails "lock offline" and marks it so.
    await ctx.deps.prisma.lockAccount.updateMany({ where: { hotelId: h.hotel.id }, data: { linksReadAt: null } });
    const deps = meetingAtSave(lockId, () => noteLockUnreachable(ctx.deps, { id: lockId, hotelId: h.hotel.id }, 'lock_offline'));
    await refreshLockStatus(deps, { hotelId: h.hotel.id });

    expect(await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: lockId } })).toMatchObject({ online: false, statusError: 'lock_offline' });
    const told = await ctx.deps.prisma.lockMessage.findMany({ where: { roomId: rooms[0]!.id }, orderBy: { id: 'asc' } });
    expect(told.map((m) => m.kind)).toEqual(['lock_offline']);
    const events = await ctx.deps.prisma.domainEvent.count({ where: { hotelId: h.hotel.id, kind: 'lock.offline', ids: { path: ['lockId'], equals: lockId } } });
    expect(events).toBe(1);
  });
});
