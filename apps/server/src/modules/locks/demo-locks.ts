import { SIM_DEFAULTS } from '@console/lock-sim';
import { randomUUID } from 'node:crypto';
import { jobContext, type Deps } from '../../context';
import { DEMO } from '../../db/seed';
import { connectAccount } from './accounts/account.service';
import { ACCOUNT_ROW_SELECT } from '../base/lock-ref';
import { importAccountLocks } from './accounts/import.service';
import { proposePairs } from './accounts/lock-names';
import { pairInTransaction } from './accounts/pairing.service';

/**
 * The quick start's simulated locks, set up the way a hotel sets up real ones: the simulator's
 * demo TTLock account holds a simulated lock named after every room of the demo hotel (one gateway
 * per floor), the demo hotel connects that account, gets its locks, and pairs each with the room
 * its name proposes. Only ever against the simulator; a restart changes nothing that is already so.
 */
export async function pairDemoRoomsWithSimulatedLocks(deps: Deps, simUrl: string): Promise<{ paired: number }> {
  const owner = await deps.prisma.account.findUnique({
    where: { mobile: DEMO.owner.mobile },
    select: { memberships: { where: { role: 'owner' }, select: { hotelId: true }, take: 1 } },
  });
  const hotelId = owner?.memberships[0]?.hotelId;
  if (!hotelId || !deps.locks?.simulated) return { paired: 0 };
  const rooms = await deps.prisma.room.findMany({
    where: { hotelId, deletedAt: null },
    select: { id: true, name: true, sortOrder: true, lockId: true, lock: { select: { goneAt: true } } },
    orderBy: { sortOrder: 'asc' },
  });

  // The simulator's account: a lock for each room that has none there yet.
  const control = simControl(simUrl);
  const names = new Set((await control.locks()).map((l) => l.lockName));
  const gateways = new Map((await control.gateways()).map((g) => [g.gatewayName, g.gatewayId]));
  for (const room of rooms) {
    const name = `SIM Room ${room.name}`;
    if (names.has(name)) continue;
    const floor = Math.floor(room.sortOrder / 100) || 1;
    const gatewayName = `SIM Floor ${floor} gateway`;
    let gatewayId = gateways.get(gatewayName);
    if (gatewayId === undefined) {
      gatewayId = (await control.createGateway(gatewayName)).gatewayId;
      gateways.set(gatewayName, gatewayId);
    }
    await control.createLock({ name: `Room ${room.name}`, gatewayIds: [gatewayId] });
  }

  // The demo hotel connects the account and gets its locks.
  const audit = jobContext(deps, 'demo.locks', randomUUID());
  let account = await deps.prisma.lockAccount.findFirst({ where: { hotelId, username: SIM_DEFAULTS.username }, select: ACCOUNT_ROW_SELECT });
  if (!account) {
    await connectAccount(audit, hotelId, { username: SIM_DEFAULTS.username, password: SIM_DEFAULTS.password, kind: 'ttlock', label: 'Demo (simulated)' });
    account = await deps.prisma.lockAccount.findFirstOrThrow({ where: { hotelId, username: SIM_DEFAULTS.username }, select: ACCOUNT_ROW_SELECT });
  }
  if (account.state !== 'connected') return { paired: 0 };
  await importAccountLocks(audit, account);

  // Rooms whose lock is gone from the simulator (its state was deleted) take the new one.
  const stale = rooms.filter((r) => r.lock?.goneAt).map((r) => ({ roomId: r.id, lockId: null }));
  if (stale.length) await pairInTransaction({ hotelId, rooms: { hotelId, deletedAt: null }, audit }, stale);
  const [locks, free] = await Promise.all([
    deps.prisma.lock.findMany({ where: { hotelId, goneAt: null, rooms: { none: { deletedAt: null } } }, select: { id: true, name: true, alias: true } }),
    deps.prisma.room.findMany({ where: { hotelId, deletedAt: null, lockId: null }, select: { id: true, name: true } }),
  ]);
  const pairs = [...proposePairs(locks, free)].map(([lockId, roomId]) => ({ roomId, lockId }));
  if (pairs.length) await pairInTransaction({ hotelId, rooms: { hotelId, deletedAt: null }, audit }, pairs);
  return { paired: pairs.length };
}

interface SimLockInfo {
  lockId: number;
  lockName: string;
}
interface SimGatewayInfo {
  gatewayId: number;
  gatewayName: string;
}

/** The few calls of the simulator's control API (`/sim/...`) the quick start needs. */
function simControl(baseUrl: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`lock simulator: ${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    locks: async () => (await call<{ locks: SimLockInfo[] }>('GET', '/sim/locks')).locks,
    gateways: async () => (await call<{ gateways: SimGatewayInfo[] }>('GET', '/sim/gateways')).gateways,
    createGateway: async (name: string) => (await call<{ gateway: SimGatewayInfo }>('POST', '/sim/gateways', { name })).gateway,
    createLock: async (input: { name: string; gatewayIds: number[] }) => (await call<{ lock: SimLockInfo }>('POST', '/sim/locks', input)).lock,
  };
}
