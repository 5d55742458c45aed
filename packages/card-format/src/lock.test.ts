import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCard, encodeCard } from './card';
import type { CardDump, DecodedCard, EncodeCardInput } from './card-layout';
import { type CardKeyEntry, generateHotelCardKeys } from './keys';
import { checkCardAtLock, type LockCardConfig, type LockCardState, presentCard } from './lock';

const MINUTE = 60_000;
const keys = generateHotelCardKeys();
const keyList: CardKeyEntry[] = [{ id: 'k1', keys }];
const FROM = new Date('2026-11-22T14:00:00Z');
const UNTIL = new Date('2026-11-24T12:00:00Z');

type CardPatch = Partial<Omit<EncodeCardInput, 'kind'>> & Record<string, unknown>;

function card(patch: CardPatch & { kind?: EncodeCardInput['kind'] } = {}, uid = '04A1B2C3'): { dump: CardDump; card: DecodedCard } {
  const input = {
    keys,
    hotelTag: 42,
    uid,
    kind: 'guest',
    lockNumber: 101,
    generation: 1,
    validFrom: FROM,
    validUntil: UNTIL,
    cardId: 500,
    ...patch,
  } as EncodeCardInput;
  const encoded = encodeCard(input);
  const dump: CardDump = { uid, sector: encoded.sector, keyA: encoded.sectorKeyA, blocks: encoded.blocks };
  const read = decodeCard(dump, keyList, FROM);
  if (!read.ok) throw new Error(`test card not readable: ${read.reason}`);
  return { dump, card: read.card };
}

const lock = (patch: Partial<LockCardState> = {}): LockCardState => ({ hotelTag: 42, lockNumber: 101, newestGeneration: 0, ...patch });
const during = new Date('2026-11-23T09:00:00Z');

describe('checkCardAtLock', () => {
  it('opens the room of a guest card and remembers its generation', () => {
    expect(checkCardAtLock(card({ generation: 3 }).card, lock(), during)).toEqual({
      opened: true,
      outcome: 'opened',
      newestGeneration: 3,
      denylistCardId: null,
    });
  });

  it('refuses another room, another hotel', () => {
    expect(checkCardAtLock(card({ lockNumber: 102 }).card, lock(), during)).toMatchObject({ opened: false, outcome: 'wrong_room' });
    expect(checkCardAtLock(card().card, lock({ hotelTag: 43 }), during)).toMatchObject({ opened: false, outcome: 'wrong_hotel' });
  });

  it('validity to the minute: from its first minute, up to (not including) its end minute', () => {
    const c = card({ validFrom: new Date('2026-11-22T14:05:00Z'), validUntil: new Date('2026-11-22T18:30:00Z') }).card;
    const at = (iso: string) => checkCardAtLock(c, lock(), new Date(iso)).outcome;
    expect(at('2026-11-22T14:04:59.999Z')).toBe('not_yet_valid');
    expect(at('2026-11-22T14:05:00.000Z')).toBe('opened');
    expect(at('2026-11-22T18:29:59.999Z')).toBe('opened');
    expect(at('2026-11-22T18:30:00.000Z')).toBe('expired');
    const open = card({ kind: 'master', rooms: 'all', validUntil: null }).card;
    expect(checkCardAtLock(open, lock(), new Date('2090-01-01T00:00:00Z')).outcome).toBe('opened');
  });

  it('a newer guest card, once used, shuts out the older ones; a duplicate works beside its original', () => {
    const first = card({ generation: 4 }, '04000001').card;
    const copy = card({ generation: 4, duplicate: true }, '04000002').card;
    const next = card({ generation: 5 }, '04000003').card;
    let state = lock({ newestGeneration: 0 });
    const present = (c: DecodedCard) => {
      const d = checkCardAtLock(c, state, during);
      state = { ...state, newestGeneration: d.newestGeneration };
      return d.outcome;
    };
    expect(present(first)).toBe('opened');
    expect(present(copy)).toBe('opened');
    expect(present(first)).toBe('opened');
    // The older card keeps working until the new one is used at this lock...
    expect(state.newestGeneration).toBe(4);
    expect(present(next)).toBe('opened');
    expect(state.newestGeneration).toBe(5);
    // ...then it and its duplicate are refused.
    expect(present(first)).toBe('superseded');
    expect(present(copy)).toBe('superseded');
    expect(present(next)).toBe('opened');
  });

  it('a new card that is refused (not yet valid, denylisted, wrong room) does not shut out the older ones', () => {
    const early = card({ generation: 9, validFrom: new Date('2026-11-25T00:00:00Z'), validUntil: new Date('2026-11-26T00:00:00Z') }).card;
    expect(checkCardAtLock(early, lock({ newestGeneration: 2 }), during)).toMatchObject({ outcome: 'not_yet_valid', newestGeneration: 2 });
    const barred = card({ generation: 9, cardId: 77 }).card;
    expect(checkCardAtLock(barred, lock({ newestGeneration: 2, denylist: { cardIds: [77] } }), during)).toMatchObject({
      outcome: 'denylisted',
      newestGeneration: 2,
    });
  });

  it('generation rule over any sequence of cards (property): a card opens when it is at least the newest that opened before it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 30 }), (generations) => {
        const cards = new Map(generations.map((g) => [g, card({ generation: g }).card]));
        let state = lock();
        let newest = 0;
        for (const g of generations) {
          const d = checkCardAtLock(cards.get(g)!, state, during);
          expect(d.opened).toBe(g >= newest);
          if (d.opened) newest = Math.max(newest, g);
          else expect(d.outcome).toBe('superseded');
          state = { ...state, newestGeneration: d.newestGeneration };
          expect(state.newestGeneration).toBe(newest);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses denylisted cards by UID (any case) or card id, before anything else but the hotel', () => {
    const c = card({}, '04AABBCC').card;
    expect(checkCardAtLock(c, lock({ denylist: { uids: ['04aabbcc'] } }), during).outcome).toBe('denylisted');
    expect(checkCardAtLock(c, lock({ denylist: { cardIds: [500] } }), during).outcome).toBe('denylisted');
    expect(checkCardAtLock(c, lock({ denylist: { uids: ['04AABBCD'], cardIds: [501] } }), during).outcome).toBe('opened');
    const expiredAndBarred = card({ validUntil: new Date('2026-11-22T15:00:00Z') }, '04AABBCC').card;
    expect(checkCardAtLock(expiredAndBarred, lock({ denylist: { uids: ['04AABBCC'] } }), during).outcome).toBe('denylisted');
    // A card without a card id is never matched by id 0.
    const noId = card({ cardId: undefined }).card;
    expect(noId.cardId).toBe(0);
    expect(checkCardAtLock(noId, lock({ denylist: { cardIds: [0] } }), during).outcome).toBe('opened');
  });

  it('master and staff cards open exactly their rooms, with no generation rule', () => {
    const master = card({ kind: 'master', rooms: [101, 205, 206] }).card;
    for (const n of [101, 205, 206])
      expect(checkCardAtLock(master, lock({ lockNumber: n, newestGeneration: 99 }), during)).toMatchObject({ outcome: 'opened', newestGeneration: 99 });
    for (const n of [100, 102, 204, 207]) expect(checkCardAtLock(master, lock({ lockNumber: n }), during).outcome).toBe('wrong_room');
    const floor = card({ kind: 'staff', rooms: Array.from({ length: 30 }, (_, i) => 801 + i) }).card;
    expect(checkCardAtLock(floor, lock({ lockNumber: 830 }), during).outcome).toBe('opened');
    expect(checkCardAtLock(floor, lock({ lockNumber: 831 }), during).outcome).toBe('wrong_room');
    const all = card({ kind: 'master', rooms: 'all' }).card;
    expect(checkCardAtLock(all, lock({ lockNumber: 65_535 }), during).outcome).toBe('opened');
  });

  it('a cancel card does not open: it gives the lock a card id to denylist, at its rooms only', () => {
    const cancel = card({ kind: 'cancel', rooms: [101], cancelsCardId: 500 }).card;
    expect(checkCardAtLock(cancel, lock(), during)).toEqual({ opened: false, outcome: 'cancel_applied', newestGeneration: 0, denylistCardId: 500 });
    expect(checkCardAtLock(cancel, lock({ lockNumber: 102 }), during)).toMatchObject({ outcome: 'wrong_room', denylistCardId: null });
  });
});

describe('checkCardAtLock at a shared door', () => {
  const door = (patch: Partial<LockCardState> = {}) => lock({ lockNumber: 0, doorNumber: 7, newestGeneration: 0, ...patch });

  it('opens for a guest card that names the door, within its validity, and keeps no generation', () => {
    const named = card({ doors: [3, 7], generation: 9 }).card;
    expect(checkCardAtLock(named, door(), during)).toEqual({ opened: true, outcome: 'opened', newestGeneration: 0, denylistCardId: null });
    // An older card of the room still opens the door (no generation there): the denylist stops it.
    expect(checkCardAtLock(card({ doors: [7], generation: 1 }).card, door({ newestGeneration: 5 }), during).opened).toBe(true);
    expect(checkCardAtLock(named, door(), new Date(FROM.getTime() - 1)).outcome).toBe('not_yet_valid');
    expect(checkCardAtLock(named, door(), UNTIL).outcome).toBe('expired');
  });

  it('refuses a card that does not name it, a version 1 card, another hotel, and a denylisted card', () => {
    expect(checkCardAtLock(card({ doors: [3, 8] }).card, door(), during).outcome).toBe('wrong_room');
    // A card written before the door served the room names no door (version 1): it must be written again.
    expect(checkCardAtLock(card().card, door(), during).outcome).toBe('wrong_room');
    // The door's number is no room's number: a guest card of "room 7" does not open door 7.
    expect(checkCardAtLock(card({ lockNumber: 7 }).card, door(), during).outcome).toBe('wrong_room');
    expect(checkCardAtLock(card({ doors: [7] }).card, door({ hotelTag: 43 }), during).outcome).toBe('wrong_hotel');
    expect(checkCardAtLock(card({ doors: [7] }).card, door({ denylist: { cardIds: [500] } }), during).outcome).toBe('denylisted');
  });

  it('opens for an "all rooms" master card only; cancel cards act at room locks', () => {
    expect(checkCardAtLock(card({ kind: 'master', rooms: 'all' }).card, door(), during).opened).toBe(true);
    expect(checkCardAtLock(card({ kind: 'staff', rooms: [7] }).card, door(), during).outcome).toBe('wrong_room');
    expect(checkCardAtLock(card({ kind: 'cancel', rooms: 'all', cancelsCardId: 12 }).card, door(), during)).toMatchObject({
      opened: false,
      denylistCardId: null,
    });
  });

  it('a room lock ignores the doors a card names', () => {
    expect(checkCardAtLock(card({ doors: [101], lockNumber: 5 }).card, lock(), during).outcome).toBe('wrong_room');
    expect(checkCardAtLock(card({ doors: [7] }).card, lock(), during)).toMatchObject({ opened: true, newestGeneration: 1 });
  });
});

describe('presentCard', () => {
  const config = (patch: Partial<LockCardConfig> = {}): LockCardConfig => ({ ...lock(), keys: keyList, ...patch });

  it('reads then checks: refusals of either step come back as the outcome', () => {
    const { dump } = card({ generation: 2 });
    expect(presentCard(dump, config(), during)).toMatchObject({ opened: true, outcome: 'opened', newestGeneration: 2, card: { cardId: 500, kind: 'guest' } });
    expect(presentCard(dump, config({ keys: [{ id: 'other', keys: generateHotelCardKeys() }] }), during)).toEqual({
      opened: false,
      outcome: 'unreadable',
      card: null,
      newestGeneration: 0,
      denylistCardId: null,
    });
    expect(presentCard({ ...dump, uid: '04A1B2C4' }, config(), during)).toMatchObject({ opened: false, outcome: 'uid_mismatch' });
    expect(presentCard(dump, config({ newestGeneration: 3 }), during)).toMatchObject({ opened: false, outcome: 'superseded', card: { generation: 2 } });
    expect(presentCard(dump, config(), new Date(UNTIL.getTime() + MINUTE))).toMatchObject({ opened: false, outcome: 'expired' });
  });
});
