import fc from 'fast-check';
import type { CardRooms, EncodeCardInput } from './card-layout';
import { type HotelCardKeys, parseHotelCardKeys } from './keys';

/** Test helpers: random inputs of the card format (fast-check arbitraries). */

const hex = (length: number) => fc.uint8Array({ minLength: length, maxLength: length }).map((b) => Buffer.from(b).toString('hex').toUpperCase());

function safeKeys(k: HotelCardKeys): boolean {
  try {
    parseHotelCardKeys(k);
    return true;
  } catch {
    return false;
  }
}

export const arbKeys: fc.Arbitrary<HotelCardKeys> = fc
  .record({ sector: fc.integer({ min: 1, max: 15 }), sectorKeyA: hex(6), sectorKeyB: hex(6), desKey: hex(8), desIv: hex(8), macKey: hex(16) })
  .filter(safeKeys);

export const arbUid = fc.oneof(hex(4), hex(7));

const MINUTE = 60_000;
/** 2020-01-01 to 2100-01-01, in minutes. */
const FROM_MIN = Date.UTC(2020, 0, 1) / MINUTE;
const FROM_MAX = Date.UTC(2100, 0, 1) / MINUTE;

export const arbValidity = fc
  .tuple(fc.integer({ min: FROM_MIN, max: FROM_MAX }), fc.option(fc.integer({ min: 1, max: 10 * 366 * 24 * 60 }), { nil: null }))
  .map(([from, length]) => ({ validFrom: new Date(from * MINUTE), validUntil: length === null ? null : new Date((from + length) * MINUTE) }));

const arbLockNumber = fc.integer({ min: 1, max: 0xffff });

/** Rooms that fit on a card: "all", up to 7 anywhere, or up to 96 within a window of 96 lock numbers. */
export const arbRooms: fc.Arbitrary<CardRooms> = fc.oneof(
  fc.constant('all' as const),
  fc.uniqueArray(arbLockNumber, { minLength: 1, maxLength: 7 }),
  fc
    .tuple(fc.integer({ min: 1, max: 0xffff - 95 }), fc.uniqueArray(fc.integer({ min: 0, max: 95 }), { minLength: 1, maxLength: 96 }))
    .map(([base, offsets]) => offsets.map((o) => base + o)),
);

const arbCardId = fc.integer({ min: 1, max: 0xffffffff });

export const arbContent = fc.oneof(
  fc.record(
    {
      kind: fc.constant('guest' as const),
      lockNumber: arbLockNumber,
      generation: fc.integer({ min: 1, max: 0xffffffff }),
      duplicate: fc.boolean(),
      // Shared doors (version 2), or none (version 1).
      doors: fc.uniqueArray(fc.integer({ min: 1, max: 0xffff }), { maxLength: 6 }),
    },
    { requiredKeys: ['kind', 'lockNumber', 'generation', 'duplicate'] },
  ),
  fc.record({ kind: fc.constantFrom('master' as const, 'staff' as const), rooms: arbRooms }),
  fc.record({ kind: fc.constant('cancel' as const), rooms: arbRooms, cancelsCardId: arbCardId }),
);

export const arbCardInput: fc.Arbitrary<EncodeCardInput> = fc
  .record({
    keys: arbKeys,
    hotelTag: fc.integer({ min: 1, max: 0xffffffff }),
    uid: arbUid,
    validity: arbValidity,
    cardId: fc.option(arbCardId, { nil: undefined }),
    content: arbContent,
  })
  .map(({ validity, content, ...rest }) => ({ ...rest, ...validity, ...content }) as EncodeCardInput);
