/**
 * The door as a lock's own sensor says it in a status read (Seam's `properties.door_open`; TTLock's
 * door sensors notify instead, notifications.ts): what changed becomes the room's lock messages, as
 * a TTLock sensor's notifications do: opened and closed are notes (already read), a door still open
 * DOOR_LEFT_OPEN_MS after it was first found open is an alarm, once.
 */
export const DOOR_LEFT_OPEN_MS = 10 * 60_000;

type Known = { doorOpen: boolean | null; doorOpenSince: Date | null; statusCheckedAt: Date | null };
type Message = { kind: 'door_open' | 'door_closed' | 'door_left_open'; content: string; read: boolean };

/** The row's new door fields and the messages for a read saying `open` (undefined: the read said nothing of the door). */
export function doorChange(
  lock: Known,
  open: boolean | undefined,
  now: Date,
): { data: { doorOpen?: boolean; doorOpenSince?: Date | null }; messages: Message[] } {
  if (open === undefined) return { data: {}, messages: [] };
  if (open && lock.doorOpen !== true) return { data: { doorOpen: true, doorOpenSince: now }, messages: [{ kind: 'door_open', content: '', read: true }] };
  if (!open)
    return {
      data: { doorOpen: false, doorOpenSince: null },
      messages: lock.doorOpen === true ? [{ kind: 'door_closed', content: '', read: true }] : [],
    };
  // Still open: left open once it has been so long, said at the first read past that time.
  const since = lock.doorOpenSince?.getTime();
  if (since === undefined) return { data: { doorOpenSince: now }, messages: [] };
  const crossed = now.getTime() - since >= DOOR_LEFT_OPEN_MS && (!lock.statusCheckedAt || lock.statusCheckedAt.getTime() - since < DOOR_LEFT_OPEN_MS);
  return { data: {}, messages: crossed ? [{ kind: 'door_left_open', content: '', read: false }] : [] };
}
