import { randomUUID } from 'node:crypto';
import { SIM_DEFAULTS, SimClient } from '@console/lock-sim';
import { jobContext, type Deps } from '../context';
import { connectAccount } from '../modules/locks/accounts/account.service';
import { ACCOUNT_ROW_SELECT } from '../modules/base/lock-ref';
import { lockOfTypedIdIn, pairInTransaction } from '../modules/locks/accounts/pairing.service';
import { createHotelWithStaff, createRooms } from './factories';
import { actorContext } from './harness';

/**
 * Simulated locks in tests, set up as a hotel sets up real ones: the hotel connects a TTLock
 * account of the test's simulator (the real connect service, its password sent once), and a room
 * is paired with a lock that account holds (named by its lock id, as the legacy `room/setLockData`
 * does: the lock is imported from the account on the spot). Never a lock id written straight into
 * a row.
 */

/** The hotel's lock account of this simulator's account (SIM_DEFAULTS unless named), connected on first use. */
export async function simLockAccount(deps: Deps, hotelId: number, account: { username: string; password: string } = SIM_DEFAULTS): Promise<number> {
  const known = await deps.prisma.lockAccount.findFirst({ where: { hotelId, username: account.username }, select: ACCOUNT_ROW_SELECT });
  if (known) return known.id;
  const { id } = await connectAccount(jobContext(deps, 'demo.locks', randomUUID()), hotelId, {
    username: account.username,
    password: account.password,
    kind: 'ttlock',
    label: '',
  });
  return id;
}

/**
 * Pairs a room with a simulated lock (its TTLock lock id) of the simulator account the hotel
 * connects (SIM_DEFAULTS unless named). Returns the lock's row id.
 */
export async function pairSimLock(
  deps: Deps,
  hotelId: number,
  roomId: number,
  simLockId: number | string,
  account?: { username: string; password: string },
): Promise<number> {
  await simLockAccount(deps, hotelId, account);
  const lockId = (await lockOfTypedIdIn(deps, hotelId, String(simLockId)))!;
  const audit = jobContext(deps, 'demo.locks', randomUUID());
  await pairInTransaction({ hotelId, rooms: { hotelId, deletedAt: null }, audit }, [{ roomId, lockId }]);
  return lockId;
}

/**
 * A lock row of the hotel with no lock account behind it (what the migration keeps of a lock paired
 * before lock accounts), paired with the room: for tests that only show a room's lock id. Nothing
 * can act on it until an account that holds it is connected.
 */
export async function insertKeptLock(deps: Deps, hotelId: number, roomId: number, providerLockId: string): Promise<number> {
  const lock = await deps.prisma.lock.create({ data: { hotelId, provider: 'ttlock', providerLockId, hasFaceModule: true }, select: { id: true } });
  await deps.prisma.room.update({ where: { id: roomId }, data: { lockId: lock.id } });
  return lock.id;
}

/**
 * A hotel for the shared-door tests (docs/shared-doors.md): `rooms` rooms named after `prefix`, in
 * one room group, each paired with a simulated lock behind a gateway of its own; the simulator's
 * lock account connected; and `doors` more locks of that account, got but not paired, to be made
 * shared doors.
 */
export async function hotelWithDoors(deps: Deps, client: SimClient, options: { rooms: number; doors?: number; prefix: string }) {
  const h = await createHotelWithStaff(deps);
  const { rooms, group } = await createRooms(
    deps,
    h.hotel.id,
    Array.from({ length: options.rooms }, (_, i) => `${options.prefix}${randomUUID().slice(0, 6)}-${i}`),
    { groupName: `Wing ${randomUUID().slice(0, 6)}` },
  );
  const paired = [];
  for (const room of rooms) {
    const created = await client.lockWithGateway({});
    await pairSimLock(deps, h.hotel.id, room.id, created.lockId);
    paired.push({ id: room.id, name: room.name, simLockId: String(created.lockId) });
  }
  await simLockAccount(deps, h.hotel.id);
  const doors = [];
  for (let i = 0; i < (options.doors ?? 1); i++) {
    const created = await client.lockWithGateway({});
    const id = (await lockOfTypedIdIn(deps, h.hotel.id, String(created.lockId)))!;
    doors.push({ id, simLockId: String(created.lockId) });
  }
  return {
    ...h,
    rooms: paired,
    group: group!,
    doors,
    staff: await actorContext(deps, h.staffToken),
    owner: await actorContext(deps, h.ownerToken),
  };
}

/**
 * A call to the lock simulator's control API (`${sim.url}/sim/...`, docs/lock-sim.md): how a test
 * changes the simulated cloud (a lock offline, a gateway added); a refusal throws with its answer.
 */
export function simControl<T = Record<string, unknown>>(sim: { url: string }, method: string, path: string, body?: unknown): Promise<T> {
  return new SimClient(sim.url).control<T>(method, path, body);
}
