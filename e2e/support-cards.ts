import type { Page } from 'playwright-core';
import { vi } from 'vitest';
import type { CardDump } from '../apps/reader-sim/src/control-client';
import { api } from './support-board';
import { sim } from './support-locks';
import { readerSim } from './support-readers';

/** A card of the console as card.list and card.get answer it (the fields these tests read). */
export type CardIssue = {
  id: number;
  cardNumber: string;
  uid: string;
  state: string;
  duplicate: boolean;
  endReason: string | null;
  validUntil: string | null;
  needsRewrite: boolean;
  grants: { roomName: string; deliveryState: string }[];
};

/** The card number the console shows for a UID: its bytes as one big-endian number. */
export const cardNumberOf = (uid: string) => BigInt(`0x${uid}`).toString(10);

/** The hotel's sector on a card written by the console: the one sector whose key A is no longer the factory key. */
export function hotelSector(dump: CardDump): number {
  const sector = dump.sectors.find((s) => s.sector > 0 && s.keyA.toUpperCase() !== 'FFFFFFFFFFFF');
  if (!sector) throw new Error(`card ${dump.uid} has no sector written by the console`);
  return sector.sector;
}

/** Holds a card of the reader simulator (by UID) to a simulated lock, as a guest does: what the lock decided. */
export async function presentAtLock(lockId: string, uid: string): Promise<{ opened: boolean; outcome: string }> {
  const dump = await readerSim().card(uid);
  const sector = hotelSector(dump);
  const { keyA, blocks } = dump.sectors[sector]!;
  return sim<{ opened: boolean; outcome: string }>('POST', `/locks/${lockId}/use`, { card: { uid: dump.uid, sector, keyA, blocks: blocks.slice(0, 3) } });
}

/** A new blank card on the reader (the one there before goes back to the desk's drawer); answers its UID. */
export async function placeBlankCard(): Promise<string> {
  return (await readerSim().placeCard()).uid;
}

/** The cards of a stay, as the console lists them. */
export async function cardsOfStay(page: Page, stayId: number, scope: 'active' | 'history' | 'all' = 'all'): Promise<CardIssue[]> {
  return (await api<{ items: CardIssue[] }>(page, 'card.list', { stayId, scope, pageSize: 50 })).items;
}

/** Waits until every lock of a card is in `state` (a lost card's denylist has reached the lock: `removed`). */
export async function waitForCardOnLocks(page: Page, issueId: number, state: string) {
  await vi.waitFor(
    async () => {
      const states = (await api<CardIssue>(page, 'card.get', { issueId })).grants.map((g) => g.deliveryState);
      if (!states.every((s) => s === state)) throw new Error(`card ${issueId} on its locks: ${states.join(', ')}, not yet ${state}`);
    },
    { timeout: 20_000, interval: 250 },
  );
}

/** The room's lock holds the hotel's card keys (its first card made them; a room paired later is sent them). */
export async function sendCardKeys(page: Page, roomId: number) {
  await api(page, 'card.syncKeys', { roomIds: [roomId] }, 'mutation');
  await vi.waitFor(
    async () => {
      const state = (await api<{ roomId: number; deliveryState: string }[]>(page, 'card.keyStates', undefined)).find((s) => s.roomId === roomId)?.deliveryState;
      if (state !== 'on_lock') throw new Error(`card keys of room ${roomId}: ${state}`);
    },
    { timeout: 20_000, interval: 250 },
  );
}
