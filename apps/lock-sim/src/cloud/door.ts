import { type CardDump, type CardKeyEntry, presentCard as presentCardAtLock } from '@console/card-format';
import type { CardNumberOrder, SimLock, SimPasscode } from '../state';
import { CARD_DENYLIST_CAPACITY, DAY, RECORD, reverseCardNumber, roomCardTag, type UseOutcome } from './core';
import { RecordsCloud } from './records';

/** The number a lock reads off a card's 4-byte UID (8 hex, any case): big endian, or its bytes reversed for 'little'. */
export function cardNumberFromUid(uid: string, order: CardNumberOrder): number {
  if (!/^[0-9A-Fa-f]{8}$/.test(uid)) throw new Error('cardUid: 8 hexadecimal characters');
  const big = parseInt(uid, 16);
  return order === 'big' ? big : reverseCardNumber(big);
}

/** What the lock decides when a credential is presented at its door (a layer of LockCloud: see core.ts). */
export class DoorCloud extends RecordsCloud {
  private validity(lock: SimLock, c: { startDate: number; endDate: number }): UseOutcome | null {
    const now = this.lockNow(lock);
    if (now < c.startDate) return 'not_yet_valid';
    if (c.endDate !== 0 && now >= c.endDate) return 'expired';
    return null;
  }

  enterPasscode(lock: SimLock, code: string) {
    const now = this.lockNow(lock);
    const candidates = lock.passcodes.filter((p) => p.onLock && p.keyboardPwd === code);
    let refusal: { outcome: UseOutcome; passcode: SimPasscode } | null = null;
    for (const p of candidates) {
      let outcome = this.validity(lock, p);
      if (!outcome && !p.isCustom) {
        if (p.keyboardPwdType === 1 && p.used) outcome = 'used';
        // Random permanent and period codes must be used once within 24 hours of their start.
        else if (p.keyboardPwdType !== 1 && p.firstUsedAt === null && now >= p.startDate + DAY) outcome = 'suspended';
      }
      if (outcome) {
        refusal ??= { outcome, passcode: p };
        continue;
      }
      p.firstUsedAt ??= now;
      if (p.keyboardPwdType === 1 && !p.isCustom) p.used = true;
      const record = this.addRecord(lock, {
        recordType: RECORD.passcode.recordType,
        recordTypeFromLock: RECORD.passcode.opened,
        success: 1,
        username: p.keyboardPwdName,
        keyboardPwd: code,
      });
      return { opened: true, outcome: 'opened' as UseOutcome, record, credential: { keyboardPwdId: p.keyboardPwdId } };
    }
    const record = this.addRecord(lock, {
      recordType: RECORD.passcode.recordType,
      recordTypeFromLock: refusal ? RECORD.passcode.invalid : RECORD.passcode.unknown,
      success: 0,
      username: refusal?.passcode.keyboardPwdName ?? '',
      keyboardPwd: code,
    });
    return {
      opened: false,
      outcome: refusal?.outcome ?? ('unknown' as UseOutcome),
      record,
      credential: refusal ? { keyboardPwdId: refusal.passcode.keyboardPwdId } : null,
    };
  }

  presentCard(lock: SimLock, cardNumber: string) {
    const card = lock.cards.find((c) => c.onLock && c.cardNumber === cardNumber);
    const outcome: UseOutcome = card ? (this.validity(lock, card) ?? 'opened') : 'unknown';
    const opened = outcome === 'opened';
    const record = this.addRecord(lock, {
      recordType: RECORD.card.recordType,
      recordTypeFromLock: opened ? RECORD.card.opened : card ? RECORD.card.invalid : RECORD.card.unknown,
      success: opened ? 1 : 0,
      username: card?.cardName ?? '',
      keyboardPwd: cardNumber,
    });
    return { opened, outcome, record, credential: card ? { cardId: card.cardId } : null };
  }

  /**
   * An IC card held to the lock by its UID (8 hex): the lock reads the number by its own
   * `cardNumberOrder` (big endian, or the bytes reversed) and opens only if it holds that number.
   */
  presentCardUid(lock: SimLock, uid: string) {
    const cardNumber = String(cardNumberFromUid(uid, lock.cardNumberOrder ?? 'big'));
    return { ...this.presentCard(lock, cardNumber), cardNumber };
  }

  /**
   * A room card held to the lock: the lock reads its sector with the key sets it holds, decodes
   * and checks it (docs/card-format.md), remembers a newer generation and applies a cancel card.
   * A shared door (its keys set with a door number) opens for guest cards that name it, within
   * their validity and off its denylist, and keeps no generation.
   * With `cardNumber` (the number a desk reader reports), a card the lock holds by number
   * (identityCard/add) and that is valid opens by number first, as before. The record is an IC-card
   * record (type 7) with `username` the card's tag (`#C<cardId>`), `keyboardPwd` the card number
   * (or its UID), and `reason` when refused.
   */
  presentRoomCard(lock: SimLock, dump: CardDump, cardNumber?: string) {
    if (cardNumber !== undefined) {
      const byNumber = lock.cards.find((c) => c.onLock && c.cardNumber === cardNumber);
      if (byNumber && this.validity(lock, byNumber) === null) return { ...this.presentCard(lock, cardNumber), by: 'number' as const, card: null };
    }
    const now = this.lockNow(lock);
    const config = lock.hotelCard;
    const generations = (lock.cardGenerations ??= {});
    const denylist = (lock.cardDenylist ??= { uids: [], cardIds: [] });
    const keys: CardKeyEntry[] = (config?.keys ?? []).map((k) => ({
      id: k.keyId,
      keys: k.keys,
      validUntil: k.validUntil === null ? null : new Date(k.validUntil),
    }));
    const lockNumber = config?.lockNumber ?? 0;
    const result = presentCardAtLock(
      dump,
      {
        hotelTag: config?.hotelTag ?? 0,
        lockNumber,
        doorNumber: config?.doorNumber ?? 0,
        newestGeneration: generations[String(lockNumber)] ?? 0,
        denylist,
        keys,
      },
      new Date(now),
    );
    if (config && result.newestGeneration > (generations[String(lockNumber)] ?? 0)) generations[String(lockNumber)] = result.newestGeneration;
    if (
      result.denylistCardId !== null &&
      !denylist.cardIds.includes(result.denylistCardId) &&
      denylist.uids.length + denylist.cardIds.length < CARD_DENYLIST_CAPACITY
    )
      denylist.cardIds.push(result.denylistCardId);
    const unreadable = result.card === null && ['unreadable', 'blank', 'not_a_room_card', 'unsupported_version'].includes(result.outcome);
    const record = this.addRecord(lock, {
      recordType: RECORD.card.recordType,
      recordTypeFromLock: result.opened ? RECORD.card.opened : unreadable ? RECORD.card.unknown : RECORD.card.invalid,
      success: result.opened ? 1 : 0,
      username: roomCardTag(result.card?.cardId ?? 0),
      keyboardPwd: cardNumber ?? dump.uid.toUpperCase(),
      ...(result.opened ? {} : { reason: result.outcome }),
    });
    return { opened: result.opened, outcome: result.outcome, record, by: 'data' as const, card: result.card };
  }

  showFace(lock: SimLock, face: { faceId?: number; faceNumber?: string }) {
    const found = lock.faces.find((f) => f.onLock && (f.faceId === face.faceId || (face.faceNumber !== undefined && f.faceNumber === face.faceNumber)));
    const outcome: UseOutcome = found ? (this.validity(lock, found) ?? 'opened') : 'unknown';
    const opened = outcome === 'opened';
    const record = this.addRecord(lock, {
      recordType: RECORD.face.recordType,
      recordTypeFromLock: opened ? RECORD.face.opened : RECORD.face.invalid,
      success: opened ? 1 : 0,
      username: found?.name ?? '',
      keyboardPwd: found?.faceNumber ?? face.faceNumber ?? '',
    });
    return { opened, outcome, record, credential: found ? { faceId: found.faceId } : null };
  }
}
