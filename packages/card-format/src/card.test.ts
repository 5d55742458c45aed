import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCard, encodeCard } from './card';
import { normalizeRooms, roomsFitOnCard, uidCheck } from './card-fields';
import { type CardDump, DECODE_REFUSALS, type EncodeCardInput, type EncodedCard, MAX_LISTED_ROOMS, ROOM_WINDOW_SIZE } from './card-layout';
import { CardFormatError } from './errors';
import { type CardKeyEntry, generateHotelCardKeys, type HotelCardKeys } from './keys';
import { arbCardInput, arbKeys, arbUid } from './test-arbitraries';

const MINUTE = 60_000;
const RUNS = { numRuns: 300 };

/** What a reader gets from a card written with `encoded` on a card with this UID. */
function dumpOf(encoded: EncodedCard, uid: string): CardDump {
  return { uid, sector: encoded.sector, keyA: encoded.sectorKeyA, blocks: encoded.blocks };
}

function entry(keys: HotelCardKeys, id = 'k1', validUntil: Date | null = null): CardKeyEntry {
  return { id, keys, validUntil };
}

/** The 48 data bytes of an encoded card, and back. */
const bytesOf = (encoded: EncodedCard) => Buffer.from(encoded.blocks.map((b) => b.data).join(''), 'hex');
const withBytes = (encoded: EncodedCard, bytes: Buffer): EncodedCard => ({
  ...encoded,
  blocks: encoded.blocks.map((b, i) => ({
    block: b.block,
    data: bytes
      .subarray(i * 16, i * 16 + 16)
      .toString('hex')
      .toUpperCase(),
  })),
});

/** The decoded card an input should give (rooms normalised, dates to the minute). */
function expected(input: EncodeCardInput) {
  const floor = (d: Date) => new Date(Math.floor(d.getTime() / MINUTE) * MINUTE);
  const ceil = (d: Date) => new Date(Math.ceil(d.getTime() / MINUTE) * MINUTE);
  const doors = input.kind === 'guest' ? [...new Set(input.doors ?? [])].sort((a, b) => a - b) : [];
  return {
    version: doors.length > 0 ? 2 : 1,
    keyId: 'k1',
    sector: input.keys.sector,
    uid: input.uid.toUpperCase(),
    cardId: input.cardId ?? 0,
    hotelTag: input.hotelTag,
    kind: input.kind,
    duplicate: input.kind === 'guest' ? input.duplicate === true : false,
    rooms: input.kind === 'guest' ? [input.lockNumber] : normalizeRooms(input.rooms),
    doors,
    validFrom: floor(input.validFrom),
    validUntil: input.validUntil === null ? null : ceil(input.validUntil),
    generation: input.kind === 'guest' ? input.generation : 0,
    cancelsCardId: input.kind === 'cancel' ? input.cancelsCardId : null,
  };
}

const keys = generateHotelCardKeys({ sector: 3 });
const guest = (patch: Partial<EncodeCardInput> = {}): EncodeCardInput =>
  ({
    keys,
    hotelTag: 42,
    uid: '04A1B2C3',
    kind: 'guest',
    lockNumber: 1203,
    generation: 7,
    validFrom: new Date('2026-11-22T14:00:00Z'),
    validUntil: new Date('2026-11-24T12:00:00Z'),
    cardId: 9001,
    ...patch,
  }) as EncodeCardInput;

describe('encodeCard', () => {
  it('writes the three data blocks of the hotel sector and a trailer with its keys', () => {
    const encoded = encodeCard(guest());
    expect(encoded.sector).toBe(3);
    expect(encoded.blocks.map((b) => b.block)).toEqual([12, 13, 14]);
    for (const b of encoded.blocks) expect(b.data).toMatch(/^[0-9A-F]{32}$/);
    expect(encoded.sectorKeyA).toBe(keys.sectorKeyA);
    expect(encoded.trailerBlock).toBe(15);
    expect(encoded.trailer).toBe(`${keys.sectorKeyA}FF078069${keys.sectorKeyB}`);
    // The marker and the version are the only bytes in clear.
    expect(encoded.blocks[0]!.data.slice(0, 4)).toBe('4801');
  });

  it('is deterministic, and two cards of one room differ in every block', () => {
    expect(encodeCard(guest())).toEqual(encodeCard(guest()));
    const a = encodeCard(guest());
    const b = encodeCard(guest({ uid: '04A1B2C4', duplicate: true } as Partial<EncodeCardInput>));
    for (let i = 0; i < 3; i += 1) expect(a.blocks[i]!.data.slice(i === 0 ? 4 : 0)).not.toBe(b.blocks[i]!.data.slice(i === 0 ? 4 : 0));
  });

  it('keeps validity to the minute: the start rounded down, the end up', () => {
    const encoded = encodeCard(guest({ validFrom: new Date('2026-11-22T14:00:59.999Z'), validUntil: new Date('2026-11-24T12:00:00.001Z') }));
    const read = decodeCard(dumpOf(encoded, '04A1B2C3'), [entry(keys)]);
    expect(read.ok && read.card.validFrom.toISOString()).toBe('2026-11-22T14:00:00.000Z');
    expect(read.ok && read.card.validUntil?.toISOString()).toBe('2026-11-24T12:01:00.000Z');
  });

  it('refuses input out of range', () => {
    const bad: Partial<EncodeCardInput>[] = [
      { hotelTag: 0 },
      { hotelTag: 2 ** 32 },
      { hotelTag: 1.5 },
      { lockNumber: 0 } as Partial<EncodeCardInput>,
      { lockNumber: 65_536 } as Partial<EncodeCardInput>,
      { generation: 0 } as Partial<EncodeCardInput>,
      { cardId: 0 },
      { validFrom: new Date('2026-11-24T12:00:00Z') },
      { validUntil: new Date('2026-11-22T14:00:00Z') },
      { validFrom: new Date(Number.NaN) },
      { validFrom: new Date(-MINUTE) },
    ];
    for (const patch of bad) expect(() => encodeCard(guest(patch)), JSON.stringify(patch)).toThrow(CardFormatError);
    expect(() => encodeCard(guest({ uid: '04A1B2' }))).toThrow(/uid/);
    expect(() => encodeCard(guest({ keys: { ...keys, sector: 0 } }))).toThrow(/sector/);
    expect(() => encodeCard({ ...guest(), kind: 'master', rooms: [] } as EncodeCardInput)).toThrow(/rooms/);
    expect(() => encodeCard({ ...guest(), kind: 'cancel', rooms: 'all' } as EncodeCardInput)).toThrow(/cancelsCardId/);
  });

  it('fits up to 7 rooms anywhere, or any number within 96 consecutive lock numbers, or all', () => {
    const master = (rooms: number[] | 'all') => encodeCard({ ...guest(), kind: 'master', rooms } as EncodeCardInput);
    const seven = [5, 900, 12, 40_000, 65_535, 1, 300];
    expect(roomsFitOnCard(seven)).toBe(true);
    expect(() => master(seven)).not.toThrow();
    const floor = Array.from({ length: ROOM_WINDOW_SIZE }, (_, i) => 801 + i);
    expect(roomsFitOnCard(floor)).toBe(true);
    expect(() => master(floor)).not.toThrow();
    const tooWide = [...seven.slice(0, MAX_LISTED_ROOMS), 2];
    expect(roomsFitOnCard(tooWide)).toBe(false);
    expect(() => master(tooWide)).toThrow(expect.objectContaining({ code: 'too_many_rooms' }));
    expect(roomsFitOnCard([...floor, 801 + ROOM_WINDOW_SIZE])).toBe(false);
    expect(() => master('all')).not.toThrow();
  });
});

describe('decodeCard', () => {
  it('round trip: what is encoded is what a lock of the hotel reads (property)', () => {
    fc.assert(
      fc.property(arbCardInput, (input) => {
        const read = decodeCard(dumpOf(encodeCard(input), input.uid), [entry(input.keys)]);
        expect(read).toEqual({ ok: true, card: expected(input) });
      }),
      RUNS,
    );
  });

  it('a card of hotel A never reads under hotel B keys, even with the same sector key (property)', () => {
    fc.assert(
      fc.property(arbCardInput, arbKeys, (input, other) => {
        const dump = dumpOf(encodeCard(input), input.uid);
        const underB = decodeCard(dump, [entry(other)]);
        expect(underB.ok).toBe(false);
        // Hotel B somehow holding A's sector key still cannot verify or decrypt A's data.
        const sameSectorKey = decodeCard(dump, [entry({ ...other, sector: input.keys.sector, sectorKeyA: input.keys.sectorKeyA })]);
        expect(sameSectorKey).toEqual({ ok: false, reason: 'tampered' });
      }),
      RUNS,
    );
  });

  it('any single flipped bit is refused, never read as another card (property)', () => {
    fc.assert(
      fc.property(arbCardInput, fc.integer({ min: 0, max: 48 * 8 - 1 }), (input, bit) => {
        const encoded = encodeCard(input);
        const bytes = bytesOf(encoded);
        bytes[bit >> 3]! ^= 0x80 >> (bit & 7);
        const read = decodeCard(dumpOf(withBytes(encoded, bytes), input.uid), [entry(input.keys)]);
        expect(read.ok).toBe(false);
        if (!read.ok) expect(['tampered', 'unsupported_version', 'not_a_room_card']).toContain(read.reason);
      }),
      RUNS,
    );
  });

  it('any single changed byte is refused (property)', () => {
    fc.assert(
      fc.property(arbCardInput, fc.integer({ min: 0, max: 47 }), fc.integer({ min: 1, max: 255 }), (input, at, xor) => {
        const encoded = encodeCard(input);
        const bytes = bytesOf(encoded);
        bytes[at]! ^= xor;
        const read = decodeCard(dumpOf(withBytes(encoded, bytes), input.uid), [entry(input.keys)]);
        expect(read.ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('blocks swapped, taken from another card or moved to another sector are refused', () => {
    const a = encodeCard(guest());
    const b = encodeCard(guest({ lockNumber: 1204, cardId: 9002 } as Partial<EncodeCardInput>));
    const swapped = { ...a, blocks: [a.blocks[1]!, a.blocks[0]!, a.blocks[2]!].map((x, i) => ({ ...x, block: a.blocks[i]!.block })) };
    expect(decodeCard(dumpOf(swapped, '04A1B2C3'), [entry(keys)])).toMatchObject({ ok: false });
    const mixed = { ...a, blocks: [a.blocks[0]!, b.blocks[1]!, a.blocks[2]!] };
    expect(decodeCard(dumpOf(mixed, '04A1B2C3'), [entry(keys)])).toEqual({ ok: false, reason: 'tampered' });
    // The same blocks in another sector (read with the same keys moved there) are refused: the MAC covers the sector.
    const moved = { ...a, sector: 5, blocks: a.blocks.map((x, i) => ({ ...x, block: 20 + i })) };
    expect(decodeCard(dumpOf(moved, '04A1B2C3'), [entry({ ...keys, sector: 5 })])).toEqual({ ok: false, reason: 'tampered' });
  });

  it('data copied onto another card (another UID) is refused (property)', () => {
    fc.assert(
      fc.property(arbCardInput, arbUid, (input, otherUid) => {
        fc.pre(!uidCheck(otherUid).equals(uidCheck(input.uid)));
        const read = decodeCard(dumpOf(encodeCard(input), otherUid), [entry(input.keys)]);
        expect(read).toEqual({ ok: false, reason: 'uid_mismatch' });
      }),
      RUNS,
    );
  });

  it('reads with any key set of the list whose sector key opens the card, while that set is valid (rotation)', () => {
    const old = generateHotelCardKeys({ sector: 3 });
    const current = generateHotelCardKeys({ sector: 3 });
    const oldCard = encodeCard(guest({ keys: old }));
    const newCard = encodeCard(guest({ keys: current }));
    const until = new Date('2026-12-01T00:00:00Z');
    const list = [entry(current, 'current'), entry(old, 'old', until)];
    const now = new Date('2026-11-23T00:00:00Z');
    expect(decodeCard(dumpOf(oldCard, '04A1B2C3'), list, now)).toMatchObject({ ok: true, card: { keyId: 'old' } });
    expect(decodeCard(dumpOf(newCard, '04A1B2C3'), list, now)).toMatchObject({ ok: true, card: { keyId: 'current' } });
    // Past its validity the lock no longer tries the old set: its cards cannot be read.
    expect(decodeCard(dumpOf(oldCard, '04A1B2C3'), list, until)).toEqual({ ok: false, reason: 'unreadable' });
    // Two sets sharing a sector key: the lock tries both and keeps the one whose MAC verifies.
    const sharing = { ...generateHotelCardKeys({ sector: 3 }), sectorKeyA: old.sectorKeyA };
    expect(decodeCard(dumpOf(oldCard, '04A1B2C3'), [entry(sharing, 'sharing'), entry(old, 'old')], now)).toMatchObject({ ok: true, card: { keyId: 'old' } });
  });

  it('tells a factory, blank or foreign card apart, and a later version', () => {
    const encoded = encodeCard(guest());
    expect(decodeCard({ ...dumpOf(encoded, '04A1B2C3'), keyA: 'FFFFFFFFFFFF' }, [entry(keys)])).toEqual({ ok: false, reason: 'unreadable' });
    expect(decodeCard({ ...dumpOf(encoded, '04A1B2C3'), sector: 4, blocks: encoded.blocks.map((b) => ({ ...b, block: b.block + 4 })) }, [entry(keys)])).toEqual(
      { ok: false, reason: 'unreadable' },
    );
    const zeros = withBytes(encoded, Buffer.alloc(48));
    expect(decodeCard(dumpOf(zeros, '04A1B2C3'), [entry(keys)])).toEqual({ ok: false, reason: 'blank' });
    const foreign = bytesOf(encoded);
    foreign[0] = 0x00;
    expect(decodeCard(dumpOf(withBytes(encoded, foreign), '04A1B2C3'), [entry(keys)])).toEqual({ ok: false, reason: 'not_a_room_card' });
    const later = bytesOf(encoded);
    later[1] = 3;
    expect(decodeCard(dumpOf(withBytes(encoded, later), '04A1B2C3'), [entry(keys)])).toEqual({ ok: false, reason: 'unsupported_version' });
    expect(DECODE_REFUSALS).toContain('uid_mismatch');
  });

  it('writes the shared doors of a guest card as version 2, and still reads version 1 cards', () => {
    // A card written before doors existed: version 1, the same bytes as ever (no doors given).
    const old = encodeCard(guest());
    expect(old.blocks[0]!.data.slice(0, 4)).toBe('4801');
    expect(encodeCard(guest({ doors: [] } as Partial<EncodeCardInput>))).toEqual(old);
    expect(decodeCard(dumpOf(old, '04A1B2C3'), [entry(keys)])).toMatchObject({ ok: true, card: { version: 1, rooms: [1203], doors: [] } });
    // With doors: version 2, the doors sorted and each once, the room still the card's one room.
    const withDoors = encodeCard(guest({ doors: [70, 3, 70, 65535] } as Partial<EncodeCardInput>));
    expect(withDoors.blocks[0]!.data.slice(0, 4)).toBe('4802');
    expect(decodeCard(dumpOf(withDoors, '04A1B2C3'), [entry(keys)])).toMatchObject({
      ok: true,
      card: { version: 2, kind: 'guest', rooms: [1203], doors: [3, 70, 65535], generation: 7 },
    });
    // Six doors fit beside the room; a seventh does not; a door number out of range is refused.
    expect(decodeCard(dumpOf(encodeCard(guest({ doors: [1, 2, 3, 4, 5, 6] } as Partial<EncodeCardInput>)), '04A1B2C3'), [entry(keys)])).toMatchObject({
      ok: true,
      card: { doors: [1, 2, 3, 4, 5, 6] },
    });
    expect(() => encodeCard(guest({ doors: [1, 2, 3, 4, 5, 6, 7] } as Partial<EncodeCardInput>))).toThrow(expect.objectContaining({ code: 'too_many_doors' }));
    for (const door of [0, 65536, 1.5, Number.NaN, 1e308])
      expect(() => encodeCard(guest({ doors: [door] } as Partial<EncodeCardInput>))).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    // The version byte is under the MAC: a version 2 card turned into version 1 (or back) is tampered.
    const downgraded = bytesOf(withDoors);
    downgraded[1] = 1;
    expect(decodeCard(dumpOf(withBytes(withDoors, downgraded), '04A1B2C3'), [entry(keys)])).toEqual({ ok: false, reason: 'tampered' });
    const upgraded = bytesOf(old);
    upgraded[1] = 2;
    expect(decodeCard(dumpOf(withBytes(old, upgraded), '04A1B2C3'), [entry(keys)])).toEqual({ ok: false, reason: 'tampered' });
  });

  it('reads the key A and the hex in any letter case, and ignores other blocks of the dump', () => {
    const encoded = encodeCard(guest());
    const dump: CardDump = {
      uid: '04a1b2c3',
      sector: 3,
      keyA: keys.sectorKeyA.toLowerCase(),
      blocks: [...encoded.blocks.map((b) => ({ ...b, data: b.data.toLowerCase() })), { block: 15, data: '0'.repeat(32) }],
    };
    expect(decodeCard(dump, [entry(keys)])).toMatchObject({ ok: true, card: { uid: '04A1B2C3', rooms: [1203] } });
  });

  it('throws on a dump that is not one', () => {
    const encoded = encodeCard(guest());
    const dump = dumpOf(encoded, '04A1B2C3');
    expect(() => decodeCard({ ...dump, blocks: encoded.blocks.slice(0, 2) }, [entry(keys)])).toThrow(expect.objectContaining({ code: 'invalid_dump' }));
    expect(() => decodeCard({ ...dump, uid: 'xyz' }, [entry(keys)])).toThrow(expect.objectContaining({ code: 'invalid_dump' }));
    expect(() => decodeCard({ ...dump, keyA: '12' }, [entry(keys)])).toThrow(expect.objectContaining({ code: 'invalid_dump' }));
    expect(() => decodeCard({ ...dump, blocks: [{ block: 12, data: 'zz' }] }, [entry(keys)])).toThrow(expect.objectContaining({ code: 'invalid_dump' }));
  });
});
