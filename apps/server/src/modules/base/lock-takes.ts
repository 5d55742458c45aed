import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../errors';

/**
 * What a room's lock can take (issue 38: capabilities drive the screens and the rules): a chosen
 * code sent to it (online codes), a code computed without reaching it (offline codes: TTLock's
 * generated codes, Seam's offline access codes), a face, a room card; and whether it opens from afar
 * (remote unlock). From the lock's own facts (`Lock.hasKeypad`, `onlinePasscodes`,
 * `offlinePasscodes`, `hasFaceModule`, `hasCardReader`, `remoteUnlock`, from its platform at import). A room without a lock takes anything: its credentials wait for one.
 */
export type LockNeed = 'onlineCodes' | 'offlineCodes' | 'faces' | 'cards' | 'remoteUnlock';

const REFUSALS: Record<LockNeed, string> = {
  onlineCodes: 'credentials.errors.lockTakesNoOnlineCodes',
  offlineCodes: 'credentials.errors.lockTakesNoOfflineCodes',
  faces: 'credentials.errors.lockTakesNoFaces',
  cards: 'credentials.errors.lockTakesNoCards',
  remoteUnlock: 'credentials.errors.lockTakesNoRemoteUnlock',
};

/** The facts of a lock that say what it takes. */
export const LOCK_TAKES_SELECT = {
  hasKeypad: true,
  onlinePasscodes: true,
  offlinePasscodes: true,
  hasFaceModule: true,
  hasCardReader: true,
  remoteUnlock: true,
  encodedCards: true,
} as const;

export function lockTakes(
  lock: { hasKeypad: boolean; onlinePasscodes: boolean; offlinePasscodes: boolean; hasFaceModule: boolean; hasCardReader: boolean; remoteUnlock: boolean },
  need: LockNeed,
): boolean {
  if (need === 'remoteUnlock') return lock.remoteUnlock;
  if (need === 'onlineCodes') return lock.hasKeypad && lock.onlinePasscodes;
  if (need === 'offlineCodes') return lock.hasKeypad && lock.offlinePasscodes;
  return need === 'faces' ? lock.hasFaceModule : lock.hasCardReader;
}

/** Refuses (CONFLICT, naming the room) a credential the room's lock cannot take; nothing when the room has no lock. */
export async function requireLockTakes(db: TPrisma | Tx, hotelId: number, roomId: number, need: LockNeed): Promise<void> {
  const room = await db.room.findFirst({ where: { id: roomId, hotelId }, select: { name: true, lock: { select: LOCK_TAKES_SELECT } } });
  if (!room?.lock || lockTakes(room.lock, need)) return;
  // A card system's door opens to cards, the system's: said so, where the desk reader's are refused.
  const messageKey = need === 'cards' && room.lock.encodedCards ? 'cards.encode.useEncoder' : REFUSALS[need];
  throw new AppError('CONFLICT', { messageKey, params: { room: room.name } });
}
