import { SimClient, startLockSim, type LockSim } from '@console/lock-sim';
import { expect } from 'vitest';
import { createLockCloud } from '../infra/locks';
import { startWorkers } from '../jobs/workers';
import { LOCK_REF_SELECT, type LockRef } from '../modules/base/lock-ref';
import { providerForLock } from '../modules/lock-cloud/account-provider';
import { lockOfTypedIdIn } from '../modules/locks/accounts/pairing.service';
import { createHotelWithStaff, createRooms } from './factories';
import { actorContext, createTestContext, testConfig, testLockIdBase, type TestContext } from './harness';
import { pairSimLock, simLockAccount } from './lock-factories';
import { startSeamFake, type SeamFake } from './seam-fake';
import { trpcClient } from './trpc-client';

/**
 * The harness of the contract suite over both lock platforms (issue 38, docs/seam.md "One contract
 * suite"): `modules/locks/platform-contract*.integration.test.ts` run one body per case on each
 * platform of PLATFORMS; only what is here differs. TTLock is `apps/lock-sim` behind the real TTLock
 * adapter; Seam is Seam's own fake (`@seamapi/fake-seam-connect`, a child process) with OUR layer
 * (`seam-fake-server.mjs`) in front of it, behind the real Seam adapter. One test server (real
 * database, Redis and workers) speaks to both, as an install with TTLock accounts and Seam
 * workspaces side by side does.
 */
export interface PlatformWorld {
  sim: LockSim;
  simClient: SimClient;
  fake: SeamFake;
  ctx: TestContext;
  workers: ReturnType<typeof startWorkers>;
}

/** Filled by `startPlatforms` (beforeAll); the platforms read it when a case runs. */
export const world = {} as PlatformWorld;

export async function startPlatforms(): Promise<void> {
  world.sim = await startLockSim({ latencyMs: [5, 15], callbackRetryDelaysMs: [100, 300], lockIdBase: testLockIdBase() });
  world.simClient = new SimClient(world.sim.url);
  world.fake = await startSeamFake();
  const env = { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' };
  const locks = createLockCloud(testConfig({ LOCK_PROVIDER: 'sim', LOCK_SIM_URL: world.sim.url, ...env }), undefined, {}, { endpoint: world.fake.url });
  world.ctx = await createTestContext({ locks, env });
  world.workers = startWorkers(world.ctx.deps, { sweep: false });
}

export async function stopPlatforms(): Promise<void> {
  await world.workers?.close();
  await world.ctx?.close();
  await world.fake?.stop();
  await world.sim?.close();
}

export interface Doors {
  hotelId: number;
  ownerToken: string;
  staffToken: string;
  /** Rooms C1, C2, ... each paired with a lock of its own (`locks`, in room order). */
  rooms: { id: number; name: string }[];
  locks: LockRef[];
  /** Locks of the hotel that are no room's door (to be made shared doors). */
  spare: LockRef[];
}

/** One lock platform as the suite needs it. */
export interface Platform {
  name: string;
  /**
   * A hotel with `rooms` rooms (2 unless said) at the same price whose doors are keypad locks of this
   * platform taking chosen and generated (offline) codes, paired, reachable from afar; and `spare`
   * more such locks, got but paired with no room.
   */
  doors(options?: { rooms?: number; spare?: number }): Promise<Doors>;
  /** What the platform accepted is done on the lock (Seam: every code of the lock set). */
  settle(lock: LockRef): Promise<void>;
  /** The lock's link to its platform up or down: TTLock its gateway; Seam the device as Seam reports it (its bridge or hub). */
  reachable(lock: LockRef, online: boolean): Promise<void>;
  /** The lock error a code meets while the lock is unreachable. */
  unreachableError: string;
  /**
   * An offline code withdrawn once the lock answers again: TTLock takes it off through the gateway;
   * Seam cannot delete its offline codes at all (they end by themselves: `offline_kept`).
   */
  offlineCodeWithdrawn: { deliveryState: 'removed'; lastError: null } | { deliveryState: 'remove_failed'; lastError: 'offline_kept' };
}

const lockRefs = (hotelId: number) => world.ctx.deps.prisma.lock.findMany({ where: { hotelId }, select: LOCK_REF_SELECT, orderBy: { id: 'asc' } });
const roomNames = (count: number) => Array.from({ length: count }, (_, i) => `C${i + 1}`);

/** TTLock lock id -> its gateway's id, for `reachable`. */
const gatewayOf = new Map<string, number>();

const TTLOCK: Platform = {
  name: 'TTLock (apps/lock-sim)',
  async doors({ rooms: count = 2, spare = 0 } = {}) {
    const { ctx, simClient } = world;
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, roomNames(count), { usualPrice: 20_000 });
    const roomLocks: number[] = [];
    for (const room of rooms) {
      const created = await simClient.lockWithGateway({});
      gatewayOf.set(String(created.lockId), created.gatewayId);
      roomLocks.push(await pairSimLock(ctx.deps, h.hotel.id, room.id, created.lockId));
    }
    await simLockAccount(ctx.deps, h.hotel.id);
    const spareIds: number[] = [];
    for (let i = 0; i < spare; i++) {
      const created = await simClient.lockWithGateway({});
      gatewayOf.set(String(created.lockId), created.gatewayId);
      spareIds.push((await lockOfTypedIdIn(ctx.deps, h.hotel.id, String(created.lockId)))!);
    }
    const all = await lockRefs(h.hotel.id);
    const byId = (id: number) => all.find((l) => l.id === id)!;
    return { hotelId: h.hotel.id, ownerToken: h.ownerToken, staffToken: h.staffToken, rooms, locks: roomLocks.map(byId), spare: spareIds.map(byId) };
  },
  // TTLock answers a write once its gateway has put it on the lock.
  settle: async () => {},
  async reachable(lock, online) {
    await world.simClient.control('PATCH', `/gateways/${gatewayOf.get(lock.providerLockId)}`, { online });
  },
  unreachableError: 'gateway_offline',
  offlineCodeWithdrawn: { deliveryState: 'removed', lastError: null },
};

const SEAM: Platform = {
  name: "Seam (Seam's fake and OUR layer)",
  async doors({ rooms: count = 2, spare = 0 } = {}) {
    const { ctx, fake } = world;
    const h = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, roomNames(count), { usualPrice: 20_000 });
    const workspace = await fake.ours.addWorkspace('Contract');
    const device = (name: string) =>
      fake.ours.addDevice({
        name,
        display_name: name,
        workspace_id: workspace.workspace_id,
        can_program_online_access_codes: true,
        can_program_offline_access_codes: true,
        can_remotely_unlock: true,
      });
    for (const room of rooms) await device(`Room ${room.name}`);
    for (let i = 0; i < spare; i++) await device(`Entrance ${i + 1}`);
    const api = trpcClient(ctx.app);
    const connect = await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
    expect(connect.error, JSON.stringify(connect.error)).toBeUndefined();
    const imported = await api.mutation('lockAccount.importLocks', { accountId: connect.data!.id }, { token: h.ownerToken });
    expect(imported.data).toMatchObject({ added: count + spare });
    // Paired by the console's own suggestion (by name): each room with its door, the entrances with none.
    const { data } = await api.query('lock.suggestedPairs', undefined, { token: h.ownerToken });
    expect(data?.pairs).toHaveLength(count);
    expect((await api.mutation('lock.pair', { pairs: data!.pairs }, { token: h.ownerToken })).error).toBeUndefined();
    const all = await lockRefs(h.hotel.id);
    const paired = await ctx.deps.prisma.room.findMany({ where: { id: { in: rooms.map((r) => r.id) } }, select: { id: true, lockId: true } });
    const locks = rooms.map((r) => all.find((l) => l.id === paired.find((p) => p.id === r.id)!.lockId)!);
    return { hotelId: h.hotel.id, ownerToken: h.ownerToken, staffToken: h.staffToken, rooms, locks, spare: all.filter((l) => !locks.includes(l)) };
  },
  async settle(lock) {
    // In one step of OUR layer: read here and set after, a code the console withdrew in between was asked for (a flake).
    await world.fake.ours.settleDevice(lock.providerLockId);
  },
  async reachable(lock, online) {
    await world.fake.ours.setOnline(lock.providerLockId, online);
  },
  unreachableError: 'lock_offline',
  offlineCodeWithdrawn: { deliveryState: 'remove_failed', lastError: 'offline_kept' },
};

export const PLATFORMS: Platform[] = [TTLOCK, SEAM];

/** The staff and owner of a hotel of `doors`, signed in. */
export async function desk(d: Doors) {
  return { staff: await actorContext(world.ctx.deps, d.staffToken), owner: await actorContext(world.ctx.deps, d.ownerToken) };
}

/** Waits for a password's state, letting the platform finish what it accepted meanwhile (on every lock given). */
export async function until(platform: Platform, id: number, states: string[], ...locks: LockRef[]) {
  const end = Date.now() + 30_000;
  for (;;) {
    const row = await world.ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
    if (states.includes(row.deliveryState)) return row;
    if (Date.now() > end) throw new Error(`password ${id}: ${states.join('/')} awaited on ${platform.name}, found ${JSON.stringify(row)}`);
    for (const lock of locks) await platform.settle(lock);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The codes a lock holds, as its platform lists them. */
export async function codesOn(lock: LockRef): Promise<string[]> {
  return (await (await providerForLock(world.ctx.deps, lock)).listPasscodes(lock.providerLockId)).map((p) => p.code);
}
