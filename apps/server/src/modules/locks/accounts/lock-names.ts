import { lockDisplayName } from '../../base/lock-ref';

/**
 * Which room a lock's name proposes (the lock accounts page's suggestions, the demo's pairing): the
 * name a lock has in the TTLock app usually carries its room's number ("Room 101", "101室").
 */

/** Runs of letters and runs of digits of a name, lower case (`SIM Room 101` -> sim, room, 101; `A-203室` -> a, 203, 室). */
export function nameTokens(name: string): string[] {
  return (
    name
      .normalize('NFKC')
      .toLowerCase()
      .match(/\p{N}+|\p{L}+/gu) ?? []
  );
}

/**
 * Whether a room's name appears in a lock's name as whole tokens in a row (room `101` in `Room 101`,
 * not in `1101`). A room named by a number alone is the lock name's last number (`Floor 1 Room 9`
 * is room 9, not room 1).
 */
export function lockNameFits(lockName: string, roomName: string): boolean {
  const lock = nameTokens(lockName);
  const room = nameTokens(roomName);
  if (room.length === 0 || room.length > lock.length) return false;
  if (room.length === 1 && /^\p{N}+$/u.test(room[0]!)) return lock.filter((t) => /^\p{N}+$/u.test(t)).at(-1) === room[0];
  for (let i = 0; i + room.length <= lock.length; i += 1) if (room.every((t, j) => lock[i + j] === t)) return true;
  return false;
}

/**
 * Proposed pairs of unpaired locks and rooms without a lock, by name: a lock's name in the lock app
 * (else its Bluetooth name) that fits exactly one such room, which no other such lock fits.
 */
export function proposePairs(locks: { id: number; name: string; alias: string }[], rooms: { id: number; name: string }[]): Map<number, number> {
  const fits = new Map<number, number[]>();
  for (const lock of locks)
    fits.set(
      lock.id,
      rooms.filter((r) => lockNameFits(lockDisplayName(lock), r.name)).map((r) => r.id),
    );
  const byRoom = new Map<number, number>();
  for (const ids of fits.values()) for (const roomId of ids) byRoom.set(roomId, (byRoom.get(roomId) ?? 0) + 1);
  const pairs = new Map<number, number>();
  for (const [lockId, ids] of fits) if (ids.length === 1 && byRoom.get(ids[0]!) === 1) pairs.set(lockId, ids[0]!);
  return pairs;
}
