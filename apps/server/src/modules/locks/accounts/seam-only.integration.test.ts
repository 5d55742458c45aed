import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config';
import { createLockCloud } from '../../../infra/locks';
import { startWorkers } from '../../../jobs/workers';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../../test/factories';
import { actorContext, createTestContext, testConfig, type TestContext } from '../../../test/harness';
import { startSeamFake, type SeamFake } from '../../../test/seam-fake';
import { trpcClient } from '../../../test/trpc-client';
import { createPassword } from '../../credentials/password.service';
import { checkIn } from '../../stays/check-in';

/**
 * Issue 38: an install of Seam workspaces only (`LOCK_PROVIDER=seam`, no TTLock application) whose
 * Seam is the one `SEAM_ENDPOINT` names (here Seam's fake): the page says so, a Seam workspace is
 * connected and its lock takes a stay's code, a TTLock account is refused with the reason. The lock
 * cloud is made from the configuration alone, as the server makes it.
 */
let fake: SeamFake;
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  fake = await startSeamFake();
  const env = { LOCK_PROVIDER: 'seam', SEAM_ENDPOINT: fake.url, LOCK_DELIVERY_BACKOFF_MS: '100' };
  ctx = await createTestContext({ locks: createLockCloud(testConfig(env)), env });
  workers = startWorkers(ctx.deps, { sweep: false });
  api = trpcClient(ctx.app);
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await fake?.stop();
});

describe('an install of Seam workspaces only', () => {
  it('is a production setting of its own, needing no TTLock application, with Seam at SEAM_ENDPOINT', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgresql://x@127.0.0.1/x', REDIS_URL: 'redis://127.0.0.1:6379' };
    const config = (extra: Record<string, string>) => {
      try {
        return loadConfig({ ...production, ...extra });
      } catch (error) {
        return (error as Error).message;
      }
    };
    // Refused for other reasons (secrets) perhaps, never for a missing TTLock application.
    expect(config({ LOCK_PROVIDER: 'ttlock' })).toContain('TTLOCK_CLIENT_ID');
    const seamOnly = config({ LOCK_PROVIDER: 'seam' });
    expect(typeof seamOnly === 'string' ? seamOnly : '').not.toContain('TTLOCK_CLIENT_ID');
    expect(ctx.config.locks).toMatchObject({ provider: 'seam', seam: { endpoint: fake.url } });
    expect(testConfig({}).locks.seam.endpoint).toBeUndefined();
  });

  it('says on the lock accounts page that only Seam workspaces are connected, connects one whose lock takes a code, and refuses a TTLock account with the reason', async () => {
    const h = await createHotelWithStaff(ctx.deps);
    const list = await api.query('lockAccount.list', undefined, { token: h.ownerToken });
    expect(list.data).toMatchObject({ configured: true, ttlock: false, region: null, simulated: false, items: [] });

    const ttlock = await api.mutation(
      'lockAccount.connect',
      { username: 'front@hotel.test', password: 'secret-1', kind: 'ttlock', label: '' },
      { token: h.ownerToken, lang: 'en' },
    );
    expect(ttlock.error?.data.app).toMatchObject({ code: 'LOCK_FAILED' });
    expect(ttlock.error?.message).toContain('Seam workspaces only');
    expect(await ctx.deps.prisma.lockAccount.count({ where: { hotelId: h.hotel.id } })).toBe(0);

    const workspace = await fake.ours.addWorkspace('Seam only');
    const door = await fake.ours.addDevice({ name: 'Room 501', workspace_id: workspace.workspace_id, can_program_online_access_codes: true });
    const connect = await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
    expect(connect.error, JSON.stringify(connect.error)).toBeUndefined();
    expect((await api.mutation('lockAccount.importLocks', { accountId: connect.data!.id }, { token: h.ownerToken })).data).toMatchObject({ added: 1 });
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['501']);
    const lock = await ctx.deps.prisma.lock.findFirstOrThrow({ where: { hotelId: h.hotel.id, providerLockId: door.device_id } });
    // Its locks are simulated: the endpoint is not Seam's own.
    expect(lock).toMatchObject({ provider: 'seam', simulated: true });
    await ctx.deps.prisma.room.update({ where: { id: rooms[0]!.id }, data: { lockId: lock.id } });

    const staff = await actorContext(ctx.deps, h.staffToken);
    const stay = await checkIn(staff, {
      roomId: rooms[0]!.id,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
      guests: [{ name: 'Noor Saleh', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
    const created = await createPassword(staff, { roomId: rooms[0]!.id, stayId: stay.id, kind: 'custom', code: '492758' });
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).providerRef, { timeout: 15_000 })
      .not.toBeNull();
    const { providerRef } = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } });
    await fake.ours.setCode(providerRef!, { status: 'set' });
    await expect
      .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).deliveryState, { timeout: 15_000 })
      .toBe('on_lock');
  });
});
