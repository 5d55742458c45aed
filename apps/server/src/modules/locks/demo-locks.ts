import type { Deps } from '../../context';
import { DEMO } from '../../db/seed';

/**
 * The quick start's simulated locks: every room of the demo hotel that is not paired with a lock
 * the simulator knows gets a new simulated lock (one gateway per floor) through the simulator's
 * control API. Only ever against the simulator; real locks are paired by people, in the TTLock app.
 */
export async function pairDemoRoomsWithSimulatedLocks(deps: Deps, simUrl: string): Promise<{ paired: number }> {
  const owner = await deps.prisma.account.findUnique({ where: { mobile: DEMO.owner.mobile }, select: { memberships: { where: { role: 'owner' }, select: { hotelId: true }, take: 1 } } });
  const hotelId = owner?.memberships[0]?.hotelId;
  if (!hotelId) return { paired: 0 };
  const rooms = await deps.prisma.room.findMany({ where: { hotelId, deletedAt: null }, select: { id: true, name: true, lockId: true, sortOrder: true }, orderBy: { sortOrder: 'asc' } });
  const control = simControl(simUrl);
  const known = new Set((await control.locks()).map((l) => String(l.lockId)));
  const unpaired = rooms.filter((r) => !r.lockId || !known.has(r.lockId));
  if (unpaired.length === 0) return { paired: 0 };
  const gateways = new Map((await control.gateways()).map((g) => [g.gatewayName, g.gatewayId]));
  let paired = 0;
  for (const room of unpaired) {
    const floor = Math.floor(room.sortOrder / 100) || 1;
    const gatewayName = `SIM Floor ${floor} gateway`;
    let gatewayId = gateways.get(gatewayName);
    if (gatewayId === undefined) {
      gatewayId = (await control.createGateway(gatewayName)).gatewayId;
      gateways.set(gatewayName, gatewayId);
    }
    const lock = await control.createLock({ name: `Room ${room.name}`, gatewayIds: [gatewayId] });
    await deps.prisma.room.update({ where: { id: room.id }, data: { lockId: String(lock.lockId), macId: lock.lockMac } });
    paired += 1;
  }
  return { paired };
}

interface SimLockInfo {
  lockId: number;
  lockMac: string;
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
