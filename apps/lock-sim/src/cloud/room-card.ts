import { CardFormatError, MAX_DOOR_NUMBER, MAX_HOTEL_TAG, MAX_LOCK_NUMBER, normalizeUid, parseHotelCardKeys } from '@console/card-format';
import { TT, ttError } from '../errors';
import type { SimCardKey, SimLock } from '../state';
import { CardCloud } from './card';
import { CARD_DENYLIST_CAPACITY, int, type Params, required } from './core';

/** Key sets a lock holds at once (the current one and earlier ones whose cards have not all expired). */
export const CARD_KEY_SETS_PER_LOCK = 8;

/**
 * `cardKeys` of lock/setHotelCardKeys: a JSON array of 1 to CARD_KEY_SETS_PER_LOCK key sets, each
 * { keyId, validUntil (ms; 0 or absent: none), sector, sectorKeyA, sectorKeyB, desKey, desIv,
 * macKey }, with distinct key ids. Anything else is -3 with the reason.
 */
function parseCardKeys(text: string): SimCardKey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardKeys is a JSON array');
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > CARD_KEY_SETS_PER_LOCK)
    throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys holds 1 to ${CARD_KEY_SETS_PER_LOCK} key sets`);
  const keys = parsed.map((item: unknown, i): SimCardKey => {
    const entry = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const keyId = typeof entry.keyId === 'string' || typeof entry.keyId === 'number' ? String(entry.keyId) : '';
    if (!keyId || keyId.length > 64) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys[${i}].keyId is required (at most 64 characters)`);
    const validUntil = entry.validUntil ?? 0;
    if (typeof validUntil !== 'number' || !Number.isInteger(validUntil) || validUntil < 0)
      throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys[${i}].validUntil is ms, or 0 for none`);
    try {
      return { keyId, validUntil: validUntil === 0 ? null : validUntil, keys: parseHotelCardKeys(entry) };
    } catch (error) {
      if (error instanceof CardFormatError) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys[${i}].${error.message}`);
      throw error;
    }
  });
  if (new Set(keys.map((k) => k.keyId)).size !== keys.length) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardKeys has a keyId twice');
  return keys;
}

/** Room cards (docs/card-format.md): a simulator extension, not part of TTLock's API (a layer of LockCloud: see core.ts). */
export class RoomCardCloud extends CardCloud {
  /**
   * lock/setHotelCardKeys: the hotel's tag, the lock's number (`lockNumber`, a room's lock) or its
   * door number (`doorNumber`, a shared door: it opens for guest cards naming it), and the hotel's card key sets
   * (`cardKeys`, a JSON array of { keyId, validUntil, sector, sectorKeyA, sectorKeyB, desKey,
   * desIv, macKey }), replacing what the lock had, through the gateway. A new hotel tag (the lock
   * moved to another hotel) also clears the lock's card generations and denylist.
   */
  async setHotelCardKeys(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const hotelTag = int(required(params, 'hotelTag'))!;
    if (hotelTag < 1 || hotelTag > MAX_HOTEL_TAG) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: hotelTag is 1 to ${MAX_HOTEL_TAG}`);
    // A room's lock has a lock number; a shared door a door number instead; never both.
    if ((params.lockNumber === undefined) === (params.doorNumber === undefined))
      throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: lockNumber or doorNumber is required (not both)');
    const doorNumber = params.doorNumber === undefined ? undefined : int(params.doorNumber)!;
    if (doorNumber !== undefined && (doorNumber < 1 || doorNumber > MAX_DOOR_NUMBER))
      throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: doorNumber is 1 to ${MAX_DOOR_NUMBER}`);
    const lockNumber = doorNumber === undefined ? int(params.lockNumber)! : 0;
    if (doorNumber === undefined && (lockNumber < 1 || lockNumber > MAX_LOCK_NUMBER))
      throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: lockNumber is 1 to ${MAX_LOCK_NUMBER}`);
    const keys = parseCardKeys(required(params, 'cardKeys'));
    await this.throughGateway(lock, () => {
      if (lock.hotelCard && lock.hotelCard.hotelTag !== hotelTag) {
        lock.cardGenerations = {};
        lock.cardDenylist = { uids: [], cardIds: [] };
      }
      lock.hotelCard = { hotelTag, lockNumber, ...(doorNumber === undefined ? {} : { doorNumber }), keys, updatedAt: this.now() };
    });
  }

  /** lock/getHotelCardSettings: what the lock holds for room cards; key material is never read back. */
  hotelCardSettings(lock: SimLock) {
    this.requireCardReader(lock);
    const card = lock.hotelCard;
    return {
      hotelTag: card?.hotelTag ?? 0,
      lockNumber: card?.lockNumber ?? 0,
      doorNumber: card?.doorNumber ?? 0,
      keys: (card?.keys ?? []).map((k) => ({ keyId: k.keyId, validUntil: k.validUntil ?? 0, sector: k.keys.sector })),
      denylist: { cardUids: lock.cardDenylist?.uids ?? [], cardIds: lock.cardDenylist?.cardIds ?? [] },
      generations: lock.cardGenerations ?? {},
    };
  }

  private denylistEntry(params: Params): { uid: string } | { cardId: number } {
    if (params.cardUid) {
      try {
        return { uid: normalizeUid(params.cardUid) };
      } catch {
        throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardUid is 8 or 14 hexadecimal characters');
      }
    }
    const cardId = int(params.cardId);
    if (cardId === undefined || cardId < 1 || cardId > 0xffffffff) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardUid or cardId is required');
    return { cardId };
  }

  /** lock/addHotelCardDenylist: a card UID (`cardUid`) or card id (`cardId`) the lock refuses from now on, through the gateway. */
  async addHotelCardDenylist(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const entry = this.denylistEntry(params);
    await this.throughGateway(lock, () => {
      const list = (lock.cardDenylist ??= { uids: [], cardIds: [] });
      const present = 'uid' in entry ? list.uids.includes(entry.uid) : list.cardIds.includes(entry.cardId);
      if (present) return;
      if (list.uids.length + list.cardIds.length >= CARD_DENYLIST_CAPACITY) throw ttError(TT.STORAGE_FULL);
      if ('uid' in entry) list.uids.push(entry.uid);
      else list.cardIds.push(entry.cardId);
    });
  }

  /** lock/deleteHotelCardDenylist: takes a UID or card id off the lock's denylist, through the gateway; -1021 if it is not there. */
  async deleteHotelCardDenylist(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const entry = this.denylistEntry(params);
    await this.throughGateway(lock, () => {
      const list = (lock.cardDenylist ??= { uids: [], cardIds: [] });
      const before = list.uids.length + list.cardIds.length;
      if ('uid' in entry) list.uids = list.uids.filter((u) => u !== entry.uid);
      else list.cardIds = list.cardIds.filter((id) => id !== entry.cardId);
      if (list.uids.length + list.cardIds.length === before) throw ttError(TT.CARD_NOT_EXIST);
    });
  }
}
