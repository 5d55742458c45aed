/**
 * Room cards as a lock holds them (docs/card-format.md, "Keys"): the hotel's tag, the lock's number
 * and the key sets, and the denylist. Part of the lock provider's contract (provider.ts).
 */

/** What a lock is to the hotel's cards: a room's lock by its lock number, or a shared door by its door number. */
export type CardKeysTarget = { hotelTag: number; keys: readonly CardKeySet[] } & ({ lockNumber: number } | { doorNumber: number });

/**
 * A hotel's room-card key set as a lock holds it (docs/card-format.md, "Keys"): the same fields as
 * `HotelCardKeys` of `@console/card-format`, all hexadecimal.
 */
export interface CardKeySet {
  /** Our id of the key set (diagnostics; never on a card). */
  id: string;
  /** When the lock may stop trying it (every card written under it has expired); null: until replaced. */
  validUntil: Date | null;
  keys: { sector: number; sectorKeyA: string; sectorKeyB: string; desKey: string; desIv: string; macKey: string };
}

/** A denylist entry of a lock: a card's UID, or the card id written on it. */
export type CardDenylistEntry = { uid: string } | { cardId: number };

/** What a lock holds for room cards; key material is never read back. */
export interface LockCardSettings {
  /** 0 before any keys were set. */
  hotelTag: number;
  /** 0 before any keys were set. */
  lockNumber: number;
  keys: { id: string; validUntil: Date | null; sector: number }[];
  /** Denylisted card UIDs (upper-case hex) and card ids. */
  denylist: { uids: string[]; cardIds: number[] };
}
