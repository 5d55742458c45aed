import { TT, ttError } from '../errors';
import type { SimLock } from '../state';
import { int, ordered, page, type Params, required, reverseCardNumber } from './core';
import { PasscodeCloud } from './passcode';

/** IC cards (a layer of LockCloud: see core.ts). */
export class CardCloud extends PasscodeCloud {
  /** Card calls (and the room-card extension) need a card reader (feature bit 1); a lock without one answers -4043. */
  protected requireCardReader(lock: SimLock): void {
    if (lock.cardReader === false) throw ttError(TT.NOT_SUPPORTED);
  }

  /** identityCard/add: the card number is stored as given. */
  async addCard(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const cardNumber = required(params, 'cardNumber');
    if (!/^\d{1,20}$/.test(cardNumber)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardNumber is digits');
    return this.storeCard(lock, params, cardNumber);
  }

  /**
   * identityCard/addForReversedCardNumber: the same parameters and answers as identityCard/add, the
   * number stored with its 4 bytes reversed (3661413478 is listed as 1723612378); a number above
   * 2^32-1 is -3.
   */
  async addCardReversed(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const given = required(params, 'cardNumber');
    if (!/^\d{1,20}$/.test(given)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardNumber is digits');
    if (Number(given) > 0xffffffff) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardNumber is at most 4294967295 (4 bytes)');
    return this.storeCard(lock, params, String(reverseCardNumber(Number(given))));
  }

  private async storeCard(lock: SimLock, params: Params, cardNumber: string) {
    const startDate = int(params.startDate) ?? 0;
    const endDate = int(params.endDate) ?? 0;
    if (endDate !== 0 && endDate <= startDate) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    const addType = int(params.addType) ?? 1;
    if (addType !== 1 && addType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: addType is 1 (Bluetooth) or 2 (gateway)');
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    const checkRoom = () => {
      const existing = lock.cards.find((c) => c.cardNumber === cardNumber);
      if (addType === 2 && !existing?.onLock && lock.cards.filter((c) => c.onLock).length >= lock.capacity.cards) throw ttError(TT.STORAGE_FULL);
      return existing;
    };
    checkRoom();
    const create = (): { cardId: number } => {
      const existing = checkRoom();
      const fields = { cardName: params.cardName ?? '', startDate, endDate, inCloud: true, onLock: existing?.onLock === true || addType === 2 };
      // The same card number again replaces the lock's entry for it (the simulator's choice).
      if (existing) {
        Object.assign(existing, fields);
        this.changed();
        return { cardId: existing.cardId };
      }
      const cardId = ++this.state.counters.cardId;
      lock.cards.push({ cardId, cardNumber, createdAt: this.now(), senderUsername: this.ownerOf(lock), ...fields });
      this.changed();
      return { cardId };
    };
    return addType === 2 ? this.throughGateway(lock, create) : create();
  }

  async deleteCard(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const id = int(required(params, 'cardId'))!;
    const deleteType = int(params.deleteType) ?? 1;
    if (deleteType !== 1 && deleteType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: deleteType is 1 (Bluetooth) or 2 (gateway)');
    const find = () => {
      const entry = lock.cards.find((c) => c.cardId === id && c.inCloud);
      if (!entry) throw ttError(TT.CARD_NOT_EXIST);
      return entry;
    };
    find();
    if (deleteType === 1) {
      if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
      find().inCloud = false;
      this.prune(lock);
      this.changed();
      return;
    }
    await this.throughGateway(lock, () => {
      const entry = find();
      lock.cards = lock.cards.filter((c) => c !== entry);
    });
  }

  listCards(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const items = ordered(
      lock.cards.filter((c) => c.inCloud),
      (c) => c.cardName,
      (c) => c.cardId,
      int(params.orderBy),
    );
    const result = page(items, params, 200);
    return {
      ...result,
      list: result.list.map((c) => ({
        cardId: c.cardId,
        lockId: lock.lockId,
        cardNumber: c.cardNumber,
        cardName: c.cardName,
        startDate: c.startDate,
        endDate: c.endDate,
        createDate: c.createdAt,
        senderUsername: c.senderUsername,
        cardType: 1,
      })),
    };
  }
}
