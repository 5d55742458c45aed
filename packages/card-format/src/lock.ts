import { decodeCard } from './card';
import { normalizeUid } from './card-fields';
import type { CardDump, DecodedCard, DecodeRefusal } from './card-layout';
import type { CardKeyEntry } from './keys';

/**
 * What an offline lock knows about cards (docs/card-format.md, "At the lock"): its hotel's tag,
 * its own lock number, the newest guest-card generation it has accepted for its room, and its
 * denylist.
 */
export interface LockCardState {
  hotelTag: number;
  lockNumber: number;
  /**
   * A shared door's number (entrance, lift, ...; 1-65535): the lock is a shared door, and opens
   * for the guest cards that name it (version 2) and for "all rooms" cards, never by room. Absent
   * or 0: a room's lock.
   */
  doorNumber?: number;
  /** The newest guest-card generation this lock has let in for its room; 0: none yet. */
  newestGeneration: number;
  denylist?: {
    /** Card UIDs (any letter case), from the lock cloud. */
    uids?: readonly string[];
    /** Card ids, from the lock cloud or from cancel cards. */
    cardIds?: readonly number[];
  };
}

/** The lock's state and its list of key sets (current and earlier ones, tried in turn). */
export interface LockCardConfig extends LockCardState {
  keys: readonly CardKeyEntry[];
}

/**
 * Why a lock refuses a card it could read:
 * - `wrong_hotel`: another hotel's tag (only with key sets shared between hotels, which ours never are);
 * - `denylisted`: its UID or card id is on the lock's denylist;
 * - `wrong_room`: not a card of this lock's room (at a shared door: a card that does not name the door);
 * - `not_yet_valid`, `expired`: outside its validity, by the lock's clock;
 * - `superseded`: a guest card older than the newest generation the lock has let in.
 */
export const LOCK_REFUSALS = ['wrong_hotel', 'denylisted', 'wrong_room', 'not_yet_valid', 'expired', 'superseded'] as const;
export type LockRefusal = (typeof LOCK_REFUSALS)[number];

/**
 * The lock's decision. `opened`; or a refusal; or `cancel_applied` (a cancel card: the door stays
 * shut and the lock denylists `denylistCardId`). `newestGeneration` is what the lock keeps for its
 * room afterwards (raised by a newer guest card that opened); the caller stores both.
 */
export interface LockDecision {
  opened: boolean;
  outcome: 'opened' | 'cancel_applied' | LockRefusal;
  newestGeneration: number;
  /** A card id for the lock's denylist (cancel cards); null otherwise. */
  denylistCardId: number | null;
}

/** Whether the card opens the lock with this lock number. */
export function cardOpensRoom(card: Pick<DecodedCard, 'rooms'>, lockNumber: number): boolean {
  return card.rooms === 'all' || card.rooms.includes(lockNumber);
}

/**
 * Whether the card opens the shared door with this door number: a guest card that names it, or a
 * master or staff card of every lock of the hotel. Cancel cards act at room locks only.
 */
export function cardOpensDoor(card: Pick<DecodedCard, 'kind' | 'rooms' | 'doors'>, doorNumber: number): boolean {
  if (card.kind === 'guest') return card.doors.includes(doorNumber);
  return card.kind !== 'cancel' && card.rooms === 'all';
}

/**
 * What the lock decides about a card it has read (`decodeCard`), at `now` by its own clock. The
 * checks, in this order: hotel tag, denylist (UID, card id), room (or door), start of validity, end of
 * validity, generation (guest cards). Pure: the caller keeps `newestGeneration` and
 * `denylistCardId` in the lock's state.
 */
export function checkCardAtLock(card: DecodedCard, lock: LockCardState, now: Date): LockDecision {
  const keep = lock.newestGeneration;
  const refuse = (outcome: LockRefusal): LockDecision => ({ opened: false, outcome, newestGeneration: keep, denylistCardId: null });
  if (card.hotelTag !== lock.hotelTag) return refuse('wrong_hotel');
  const uids = new Set((lock.denylist?.uids ?? []).map((u) => u.toUpperCase()));
  if (uids.has(normalizeUid(card.uid)) || (card.cardId !== 0 && (lock.denylist?.cardIds ?? []).includes(card.cardId))) return refuse('denylisted');
  const door = lock.doorNumber ? lock.doorNumber : null;
  if (door !== null ? !cardOpensDoor(card, door) : !cardOpensRoom(card, lock.lockNumber)) return refuse('wrong_room');
  const t = now.getTime();
  if (t < card.validFrom.getTime()) return refuse('not_yet_valid');
  if (card.validUntil !== null && t >= card.validUntil.getTime()) return refuse('expired');
  if (card.kind === 'cancel') return { opened: false, outcome: 'cancel_applied', newestGeneration: keep, denylistCardId: card.cancelsCardId };
  // A shared door serves many rooms and keeps no generation: a room's older cards are stopped
  // there by the denylist (the server denylists an ended writing on the doors too).
  if (card.kind === 'guest' && door === null) {
    if (card.generation < keep) return refuse('superseded');
    return { opened: true, outcome: 'opened', newestGeneration: Math.max(keep, card.generation), denylistCardId: null };
  }
  return { opened: true, outcome: 'opened', newestGeneration: keep, denylistCardId: null };
}

/** A card presented at a lock: read (decodeCard), then decided (checkCardAtLock). */
export interface PresentedCard extends Omit<LockDecision, 'outcome'> {
  outcome: LockDecision['outcome'] | DecodeRefusal;
  /** The card as read, when it could be. */
  card: DecodedCard | null;
}

/** Reads and checks a card at a lock, as the lock does when a card is held to it. */
export function presentCard(dump: CardDump, lock: LockCardConfig, now: Date): PresentedCard {
  const read = decodeCard(dump, lock.keys, now);
  if (!read.ok) return { opened: false, outcome: read.reason, card: null, newestGeneration: lock.newestGeneration, denylistCardId: null };
  return { ...checkCardAtLock(read.card, lock, now), card: read.card };
}
