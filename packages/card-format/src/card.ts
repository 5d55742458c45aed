import { timingSafeEqual } from 'node:crypto';
import {
  CARD_FORMAT_VERSION,
  CARD_FORMAT_VERSION_DOORS,
  CARD_KINDS,
  CARD_MARKER,
  DATA_BYTES,
  HEADER_BYTES,
  KIND_CODES,
  KIND_OF_CODE,
  MAX_CARD_ID,
  MAX_GENERATION,
  MAX_HOTEL_TAG,
  MAX_LOCK_NUMBER,
  MINUTE,
  NO_END,
  PAYLOAD_BYTES,
  ROOMS_BYTES,
  ROOMS_OFFSET,
  TRAILER_ACCESS_BITS,
  type CardDump,
  type CardRooms,
  type DecodeResult,
  type EncodeCardInput,
  type EncodedCard,
} from './card-layout';
import { checkUint, decodeRoomAndDoors, decodeRooms, encodeRooms, fail, hexBytes, mac, minutesOf, normalizeDoors, normalizeUid, uidCheck } from './card-fields';
import { desCbcDecrypt, desCbcEncrypt } from './des';
import { CardFormatError } from './errors';
import { type CardKeyEntry, MAX_CARD_SECTOR, MIN_CARD_SECTOR } from './keys';

/** Encoding a card's block data, and decoding it as a lock does (docs/card-format.md; the layout is card-layout.ts). */

// -----------------------------------------------------------------------------------------------
// Encode

/**
 * The block data of a card: the sector's three data blocks and the trailer that sets the hotel's
 * keys. Pure (no randomness): the same input gives the same blocks. Throws CardFormatError on
 * input out of range (`invalid_input`, `invalid_keys`, `invalid_dump` for the UID) and on master
 * rooms that do not fit (`too_many_rooms`).
 */
export function encodeCard(input: EncodeCardInput): EncodedCard {
  const { keys } = input;
  const sector = checkUint(keys?.sector, 'keys.sector', MIN_CARD_SECTOR, MAX_CARD_SECTOR);
  const hotelTag = checkUint(input.hotelTag, 'hotelTag', 1, MAX_HOTEL_TAG);
  const cardId = input.cardId === undefined ? 0 : checkUint(input.cardId, 'cardId', 1, MAX_CARD_ID);
  const validFrom = minutesOf(input.validFrom, 'validFrom', 'down');
  const validUntil = input.validUntil === null ? NO_END : minutesOf(input.validUntil, 'validUntil', 'up');
  if (validUntil <= validFrom) fail('validUntil: after validFrom (to the minute)');

  let rooms: CardRooms;
  let generation = 0;
  let duplicate = false;
  let doors: number[] = [];
  switch (input.kind) {
    case 'guest':
      rooms = [checkUint(input.lockNumber, 'lockNumber', 1, MAX_LOCK_NUMBER)];
      generation = checkUint(input.generation, 'generation', 1, MAX_GENERATION);
      duplicate = input.duplicate === true;
      doors = normalizeDoors(input.doors);
      break;
    case 'master':
    case 'staff':
      rooms = input.rooms;
      break;
    case 'cancel':
      rooms = input.rooms;
      generation = checkUint(input.cancelsCardId, 'cancelsCardId', 1, MAX_CARD_ID);
      break;
    default:
      fail(`kind: one of ${CARD_KINDS.join(', ')}`);
  }
  const encodedRooms = encodeRooms(rooms);
  // Version 2: the doors follow the room in the list (the room's lock number first).
  doors.forEach((n, i) => encodedRooms.bytes.writeUInt16BE(n, 2 + i * 2));
  const version = doors.length > 0 ? CARD_FORMAT_VERSION_DOORS : CARD_FORMAT_VERSION;

  const payload = Buffer.alloc(PAYLOAD_BYTES);
  uidCheck(input.uid).copy(payload, 0);
  payload.writeUInt32BE(cardId, 4);
  payload.writeUInt32BE(hotelTag, 8);
  payload[12] = KIND_CODES[input.kind];
  payload[13] = (duplicate ? 1 : 0) | (encodedRooms.mode << 1);
  payload.writeUInt32BE(generation, 14);
  payload.writeUInt32BE(validFrom, 18);
  payload.writeUInt32BE(validUntil, 22);
  encodedRooms.bytes.copy(payload, ROOMS_OFFSET);

  const cipher = desCbcEncrypt(hexBytes(keys.desKey, 8, 'desKey'), hexBytes(keys.desIv, 8, 'desIv'), payload);
  const headerAndCipher = Buffer.concat([Buffer.from([CARD_MARKER, version]), cipher]);
  const data = Buffer.concat([headerAndCipher, mac(keys, sector, headerAndCipher)]);

  const sectorKeyA = hexBytes(keys.sectorKeyA, 6, 'sectorKeyA').toString('hex').toUpperCase();
  const sectorKeyB = hexBytes(keys.sectorKeyB, 6, 'sectorKeyB').toString('hex').toUpperCase();
  return {
    sector,
    blocks: [0, 1, 2].map((i) => ({
      block: sector * 4 + i,
      data: data
        .subarray(i * 16, i * 16 + 16)
        .toString('hex')
        .toUpperCase(),
    })),
    sectorKeyA,
    trailerBlock: sector * 4 + 3,
    trailer: `${sectorKeyA}${TRAILER_ACCESS_BITS}${sectorKeyB}`,
  };
}

// -----------------------------------------------------------------------------------------------
// Decode

function dumpData(dump: CardDump): { uid: string; sector: number; keyA: string; data: Buffer } {
  if (!dump || typeof dump !== 'object') throw new CardFormatError('invalid_dump', 'card dump: an object');
  const uid = normalizeUid(dump.uid);
  const sector = dump.sector;
  if (typeof sector !== 'number' || !Number.isInteger(sector) || sector < 0 || sector > 15) throw new CardFormatError('invalid_dump', 'sector: 0 to 15');
  const keyA = typeof dump.keyA === 'string' ? dump.keyA.toUpperCase() : '';
  if (!/^[0-9A-F]{12}$/.test(keyA)) throw new CardFormatError('invalid_dump', 'keyA: 12 hexadecimal characters');
  if (!Array.isArray(dump.blocks)) throw new CardFormatError('invalid_dump', 'blocks: a list of { block, data }');
  const parts: Buffer[] = [];
  for (let i = 0; i < 3; i += 1) {
    const number = sector * 4 + i;
    const block = dump.blocks.find((b) => b && b.block === number);
    if (!block || typeof block.data !== 'string' || !/^[0-9A-Fa-f]{32}$/.test(block.data))
      throw new CardFormatError('invalid_dump', `blocks: block ${number} with 32 hexadecimal characters`);
    parts.push(Buffer.from(block.data, 'hex'));
  }
  return { uid, sector, keyA, data: Buffer.concat(parts) };
}

function usable(entry: CardKeyEntry, now: Date): boolean {
  return entry.validUntil === undefined || entry.validUntil === null || now.getTime() < entry.validUntil.getTime();
}

/**
 * Reads a card as a lock of the hotel does: opens the sector with the key A of one of `keys` (the
 * lock's list: current and earlier key sets, each until its `validUntil` at `now`), checks the
 * marker, the version and the MAC with each key set that opens it, decrypts, and checks that the
 * data belongs to this card's UID. Answers the card, or why not. Throws CardFormatError
 * (`invalid_dump`) only for a dump that is not one (bad hex, missing blocks).
 */
export function decodeCard(dump: CardDump, keys: readonly CardKeyEntry[], now: Date = new Date()): DecodeResult {
  const { uid, sector, keyA, data } = dumpData(dump);
  const openers = keys.filter((entry) => usable(entry, now) && entry.keys.sector === sector && entry.keys.sectorKeyA.toUpperCase() === keyA);
  if (openers.length === 0) return { ok: false, reason: 'unreadable' };
  if (data.every((b) => b === 0)) return { ok: false, reason: 'blank' };
  if (data[0] !== CARD_MARKER) return { ok: false, reason: 'not_a_room_card' };
  const version = data[1]!;
  if (version !== CARD_FORMAT_VERSION && version !== CARD_FORMAT_VERSION_DOORS) return { ok: false, reason: 'unsupported_version' };

  const headerAndCipher = data.subarray(0, HEADER_BYTES + PAYLOAD_BYTES);
  const onCard = data.subarray(HEADER_BYTES + PAYLOAD_BYTES, DATA_BYTES);
  const entry = openers.find((e) => timingSafeEqual(mac(e.keys, sector, headerAndCipher), onCard));
  if (!entry) return { ok: false, reason: 'tampered' };

  const payload = desCbcDecrypt(
    hexBytes(entry.keys.desKey, 8, 'desKey'),
    hexBytes(entry.keys.desIv, 8, 'desIv'),
    data.subarray(HEADER_BYTES, HEADER_BYTES + PAYLOAD_BYTES),
  );
  const kind = KIND_OF_CODE.get(payload[12]!);
  const flags = payload[13]!;
  const duplicate = (flags & 1) === 1;
  const roomBytes = payload.subarray(ROOMS_OFFSET, ROOMS_OFFSET + ROOMS_BYTES);
  // Version 2 is a guest card only: its room, then the shared doors.
  const withDoors = version === CARD_FORMAT_VERSION_DOORS ? (kind === 'guest' ? decodeRoomAndDoors((flags >> 1) & 3, roomBytes) : null) : undefined;
  const rooms = withDoors === undefined ? decodeRooms((flags >> 1) & 3, roomBytes) : withDoors && [withDoors.room];
  const cardId = payload.readUInt32BE(4);
  const hotelTag = payload.readUInt32BE(8);
  const generation = payload.readUInt32BE(14);
  const validFrom = payload.readUInt32BE(18);
  const validUntil = payload.readUInt32BE(22);
  const valid =
    kind !== undefined &&
    (flags & 0xf8) === 0 &&
    rooms !== null &&
    hotelTag !== 0 &&
    validUntil > validFrom &&
    (kind === 'guest' ? Array.isArray(rooms) && rooms.length === 1 && generation > 0 : !duplicate && (kind === 'cancel' ? generation > 0 : generation === 0));
  if (!valid) return { ok: false, reason: 'malformed' };
  if (!timingSafeEqual(payload.subarray(0, 4), uidCheck(uid))) return { ok: false, reason: 'uid_mismatch' };

  return {
    ok: true,
    card: {
      version,
      keyId: entry.id,
      sector,
      uid,
      cardId,
      hotelTag,
      kind,
      duplicate,
      rooms,
      doors: withDoors ? withDoors.doors : [],
      validFrom: new Date(validFrom * MINUTE),
      validUntil: validUntil === NO_END ? null : new Date(validUntil * MINUTE),
      generation: kind === 'guest' ? generation : 0,
      cancelsCardId: kind === 'cancel' ? generation : null,
    },
  };
}
