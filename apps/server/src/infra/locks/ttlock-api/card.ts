import { LockProviderError, type CardDenylistEntry, type CardKeysTarget, type CardOnLock, type LockCardSettings, type Validity } from '../provider';
import { num, PAGE, required, str, validityOf, type Answer, type Fields } from './http';
import type { TtlockSession } from './oauth';

/** Cards: TTLock's identity cards by number, and the simulator's room-card keys and denylist. */

export async function addCard(
  s: TtlockSession,
  lockId: string,
  input: { cardNumber: string; name: string; reversed: boolean } & Validity,
): Promise<{ ref: string }> {
  const answer = await s.call(
    input.reversed ? 'identityCard/addForReversedCardNumber' : 'identityCard/add',
    {
      lockId,
      cardNumber: input.cardNumber,
      cardName: input.name,
      startDate: input.startAt.getTime(),
      endDate: input.endAt ? input.endAt.getTime() : 0,
      addType: 2,
    },
    'POST',
  );
  return { ref: required(answer, 'cardId', 'identityCard/add') };
}

export async function deleteCard(s: TtlockSession, lockId: string, ref: string): Promise<void> {
  await s.call('identityCard/delete', { lockId, cardId: ref, deleteType: 2 }, 'POST');
}

export async function listCards(s: TtlockSession, lockId: string): Promise<CardOnLock[]> {
  const items = await s.all('identityCard/list', { lockId, orderBy: 1 }, PAGE.cards, (i) => i.cardId);
  return items.map((i) => ({ ref: str(i.cardId), cardNumber: str(i.cardNumber), name: str(i.cardName), ...validityOf(i) }));
}

// Room cards (docs/card-format.md): the lock simulator's own calls, not TTLock's.

/**
 * A call of the simulator's room-card extension. TTLock's cloud has no such call: when this
 * adapter is not pointed at the simulator it is `not_supported` at once (hotel card keys are never
 * sent to a vendor's cloud); a cloud that answers HTTP 404 or -4043 is `not_supported` too.
 */
async function cardCall(s: TtlockSession, op: string, fields: Fields, method: 'GET' | 'POST'): Promise<Answer> {
  if (!s.simulated)
    throw new LockProviderError(
      'not_supported',
      undefined,
      `${op}: room-card keys and denylists are a lock simulator extension, not part of TTLock's Open API`,
    );
  try {
    return await s.call(op, fields, method);
  } catch (error) {
    if (error instanceof LockProviderError && error.code === 'network' && error.vendorCode === 404)
      throw new LockProviderError('not_supported', 404, error.vendorMessage);
    throw error;
  }
}

export async function setCardKeys(s: TtlockSession, lockId: string, input: CardKeysTarget): Promise<void> {
  const cardKeys = input.keys.map((k) => ({ keyId: k.id, validUntil: k.validUntil ? k.validUntil.getTime() : 0, ...k.keys }));
  await cardCall(
    s,
    'lock/setHotelCardKeys',
    {
      lockId,
      hotelTag: input.hotelTag,
      ...('doorNumber' in input ? { doorNumber: input.doorNumber } : { lockNumber: input.lockNumber }),
      cardKeys: JSON.stringify(cardKeys),
    },
    'POST',
  );
}

export async function denylistCard(s: TtlockSession, lockId: string, card: CardDenylistEntry): Promise<void> {
  await cardCall(s, 'lock/addHotelCardDenylist', { lockId, ...denylistParams(card) }, 'POST');
}

export async function undenylistCard(s: TtlockSession, lockId: string, card: CardDenylistEntry): Promise<void> {
  await cardCall(s, 'lock/deleteHotelCardDenylist', { lockId, ...denylistParams(card) }, 'POST');
}

export async function cardSettings(s: TtlockSession, lockId: string): Promise<LockCardSettings> {
  const answer = await cardCall(s, 'lock/getHotelCardSettings', { lockId }, 'GET');
  const denylist = (answer.denylist && typeof answer.denylist === 'object' ? answer.denylist : {}) as Answer;
  const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  return {
    hotelTag: num(answer.hotelTag) ?? 0,
    lockNumber: num(answer.lockNumber) ?? 0,
    keys: array(answer.keys)
      .filter((k): k is Answer => !!k && typeof k === 'object')
      .map((k) => {
        const until = num(k.validUntil) ?? 0;
        return { id: str(k.keyId), validUntil: until === 0 ? null : new Date(until), sector: num(k.sector) ?? 0 };
      }),
    denylist: {
      uids: array(denylist.cardUids)
        .map(str)
        .filter((u) => u !== ''),
      cardIds: array(denylist.cardIds)
        .map(num)
        .filter((n): n is number => n !== null),
    },
  };
}

/** The simulator's parameters of a denylist entry: `cardUid` or `cardId`. */
function denylistParams(card: CardDenylistEntry): { cardUid: string } | { cardId: number } {
  return 'uid' in card ? { cardUid: card.uid } : { cardId: card.cardId };
}
