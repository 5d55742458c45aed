import { useSyncExternalStore } from 'react';

/**
 * Room cards to write at the desk, asked for by any screen (the check-in dialog, a stay's card, the
 * room's Credentials tab, the guest page) and written by one dialog of the cards feature that the
 * signed-in layout hosts (features/cards/room-cards-host.tsx). The screens that ask need neither
 * the dialog nor the reader drivers in their own download: only this small store.
 */

/** How the cards of a request open the room: see docs/card-format.md "New cards, duplicates". */
export type RoomCardMode = 'new' | 'duplicate';

export interface RoomCardRequest {
  stayId: number;
  roomId: number;
  roomName: string;
  /** Whom the cards are for (the stay's main guest), as the dialog says it. */
  holderName: string;
  /** How many cards to write, one after the other (1 to 10). */
  count: number;
  /**
   * The first card's mode: `new` (the room's earlier cards stop opening the door once it is used)
   * or `duplicate` (another card beside them); `ask` lets the desk choose in the dialog. The other
   * cards of the request are duplicates of the first one written.
   */
  mode: RoomCardMode | 'ask';
  /** Write this issued card again (a renewed stay): the same card is taken back and written with the new check-out. */
  rewrite?: { issueId: number; cardNumber: string };
}

let current: (RoomCardRequest & { key: number }) | null = null;
let nextKey = 1;
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((listener) => listener());
}

/** Opens the card-writing dialog for these cards (a request still open is replaced). */
export function requestRoomCards(request: RoomCardRequest): void {
  current = { ...request, count: Math.max(1, Math.min(10, Math.trunc(request.count))), key: nextKey++ };
  emit();
}

/** The dialog is done with the request (written, skipped or closed). */
export function finishRoomCardRequest(): void {
  if (!current) return;
  current = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The request the dialog is writing now, or null. */
export const currentRoomCardRequest = () => current;
const snapshot = currentRoomCardRequest;

/** The request the dialog is writing now, or null; `key` differs for each request. */
export function useRoomCardRequest(): (RoomCardRequest & { key: number }) | null {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** The number of room cards the desk asked for at its last check-in (this computer), the next check-in's default. */
const CHECK_IN_COUNT_KEY = 'roomCardsAtCheckIn';

export function lastCheckInCardCount(): number {
  try {
    const value = Number(localStorage.getItem(CHECK_IN_COUNT_KEY));
    return Number.isInteger(value) && value >= 0 && value <= 10 ? value : 0;
  } catch {
    return 0;
  }
}

export function rememberCheckInCardCount(count: number): void {
  try {
    localStorage.setItem(CHECK_IN_COUNT_KEY, String(count));
  } catch {
    // Storage refused (private mode): the next check-in starts from 0.
  }
}
