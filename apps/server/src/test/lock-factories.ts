import { randomUUID } from 'node:crypto';
import { SIM_DEFAULTS } from '@console/lock-sim';
import { jobContext, type Deps } from '../context';
import { connectAccount } from '../modules/locks/accounts/account.service';
import { ACCOUNT_ROW_SELECT } from '../modules/locks/accounts/account-provider';
import { lockOfTypedIdIn, pairInTransaction } from '../modules/locks/accounts/pairing.service';

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
  const { id } = await connectAccount(jobContext(deps, 'test.locks', randomUUID()), hotelId, {
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
  const audit = jobContext(deps, 'test.locks', randomUUID());
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
