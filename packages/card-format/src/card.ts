import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { desCbcDecrypt, desCbcEncrypt } from './des';
import { CardFormatError } from './errors';
import { type CardKeyEntry, type HotelCardKeys, MAX_CARD_SECTOR, MIN_CARD_SECTOR } from './keys';

/*
 * The room-card format, versions 1 and 2 (docs/card-format.md is the full description; keep both in step).
 *
 * The three data blocks of the hotel's sector hold 48 bytes:
 *
 *   0      1   marker 0x48 ("H")
 *   1      1   format version (1; 2: a guest card that also names shared doors)
 *   2..41  40  payload, DES-CBC under the hotel's desKey / desIv (5 DES blocks)
 *   42..47 6   MAC: HMAC-SHA-256(macKey, "HCARD1" || sector || bytes 0..41), first 6 bytes
 *
 * The payload (before encryption):
 *
 *   0  4  UID check: the card's 4-byte UID, or the first 4 bytes of SHA-256 of a 7-byte UID
 *   4  4  card id (the issuer's serial of this card; 0: none)
 *   8  4  hotel tag
 *   12 1  kind: 1 guest, 2 master, 3 staff, 4 cancel
 *   13 1  flags: bit 0 duplicate; bits 1-2 rooms mode (0 list, 1 window, 2 all); bits 3-7 zero
 *   14 4  generation (guest), the card id it cancels (cancel), else 0
 *   18 4  valid from, minutes since 1970-01-01T00:00Z
 *   22 4  valid until (exclusive), minutes since 1970-01-01T00:00Z; 0xFFFFFFFF: no end
 *   26 14 rooms: list: 7 lock numbers (uint16, ascending, then zeros); window: first lock number
 *         (uint16) and a 96-bit map of it and the 95 after it; all: zeros. Version 2 (guest
 *         cards only): the room's lock number, then 1 to 6 door numbers (uint16, ascending), zeros
 *
 * Numbers are big-endian.
 */

export const CARD_FORMAT_VERSION = 1;
/** The version of a guest card that also names the shared doors its room is served by. */
export const CARD_FORMAT_VERSION_DOORS = 2;
/** Shared doors a guest card can name beside its room (the 6 free uint16 of the rooms field). */
export const MAX_CARD_DOORS = 6;
export const MAX_DOOR_NUMBER = 0xffff;
/** First byte of every card of this format. */
export const CARD_MARKER = 0x48;
export const CARD_KINDS = ['guest', 'master', 'staff', 'cancel'] as const;
export type CardKind = (typeof CARD_KINDS)[number];
/** Rooms a master, staff or cancel card can list one by one. */
export const MAX_LISTED_ROOMS = 7;
/** More rooms fit when they lie within this many consecutive lock numbers (a floor, a wing). */
export const ROOM_WINDOW_SIZE = 96;
export const MAX_LOCK_NUMBER = 0xffff;
export const MAX_HOTEL_TAG = 0xffffffff;
export const MAX_GENERATION = 0xffffffff;
export const MAX_CARD_ID = 0xffffffff;
/** MIFARE access bits and general-purpose byte of the trailer ("FF0780" + "69", the transport setting). */
export const TRAILER_ACCESS_BITS = 'FF078069';

const KIND_CODES: Record<CardKind, number> = { guest: 1, master: 2, staff: 3, cancel: 4 };
const KIND_OF_CODE = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as CardKind]));
const MODE = { list: 0, window: 1, all: 2 } as const;
const NO_END = 0xffffffff;
const MINUTE = 60_000;
const HEADER_BYTES = 2;
const PAYLOAD_BYTES = 40;
const MAC_BYTES = 6;
const DATA_BYTES = HEADER_BYTES + PAYLOAD_BYTES + MAC_BYTES;
const MAC_LABEL = Buffer.from('HCARD1', 'ascii');
const ROOMS_OFFSET = 26;
const ROOMS_BYTES = 14;

/** The rooms a card opens: lock numbers, or every lock of the hotel. */
export type CardRooms = readonly number[] | 'all';

interface CommonInput {
  keys: HotelCardKeys;
  /** The hotel's tag (1 to 2^32-1), the same on its cards and its locks. */
  hotelTag: number;
  /** The card's UID as the reader reports it: 8 or 14 hexadecimal characters. */
  uid: string;
  /** Start of validity; kept to the minute, rounded down. */
  validFrom: Date;
  /** End of validity (exclusive); kept to the minute, rounded up; null: no end. */
  validUntil: Date | null;
  /** The issuer's serial of this card (1 to 2^32-1): records name it, a lock can denylist it. */
  cardId?: number;
}

/** A guest (room) card: one room; `generation` orders new cards of the room; a duplicate repeats it. */
export interface GuestCardInput extends CommonInput {
  kind: 'guest';
  lockNumber: number;
  generation: number;
  duplicate?: boolean;
  /**
   * The shared doors (entrance, lift, ...) the room is served by, by door number (1-65535, at
   * most MAX_CARD_DOORS): written as version 2. None or empty: version 1, as before.
   */
  doors?: readonly number[];
}

/** A master (universal) or staff (management) card: the rooms it opens. */
export interface RoomsCardInput extends CommonInput {
  kind: 'master' | 'staff';
  rooms: CardRooms;
}

/** A cancel card: presented at a lock of `rooms`, the lock denylists the card `cancelsCardId`. */
export interface CancelCardInput extends CommonInput {
  kind: 'cancel';
  rooms: CardRooms;
  cancelsCardId: number;
}

export type EncodeCardInput = GuestCardInput | RoomsCardInput | CancelCardInput;

export interface CardBlock {
  /** Absolute block number (sector x 4 + 0..3), as readers address blocks. */
  block: number;
  /** 32 hexadecimal characters, upper case. */
  data: string;
}

/** What to write on the card: the sector's three data blocks, then its trailer. */
export interface EncodedCard {
  sector: number;
  blocks: CardBlock[];
  /** The key A the trailer sets (12 hex): what a lock reads the sector with. */
  sectorKeyA: string;
  /** Absolute number of the sector's trailer block (sector x 4 + 3). */
  trailerBlock: number;
  /** The trailer's 32 hex: key A, access bits FF0780, byte 69, key B. */
  trailer: string;
}

/** What a reader gets from a card: its UID, the sector's data blocks, and the key A its trailer has. */
export interface CardDump {
  uid: string;
  sector: number;
  /** The key A of the sector's trailer (12 hex): the key that opens the sector. */
  keyA: string;
  /** At least the sector's three data blocks; others are ignored. */
  blocks: readonly CardBlock[];
}

export interface DecodedCard {
  version: number;
  /** The id of the key set (CardKeyEntry.id) that read and verified it. */
  keyId: string;
  sector: number;
  /** The UID of the card it was read from (upper case). */
  uid: string;
  /** 0: none. */
  cardId: number;
  hotelTag: number;
  kind: CardKind;
  duplicate: boolean;
  /** Guest cards: their one room. */
  rooms: CardRooms;
  /** Guest cards of version 2: the shared doors they open (door numbers, ascending); else empty. */
  doors: number[];
  validFrom: Date;
  /** Exclusive; null: no end. */
  validUntil: Date | null;
  /** Guest cards; 0 for the other kinds. */
  generation: number;
  /** Cancel cards: the card id they cancel; null for the other kinds. */
  cancelsCardId: number | null;
}

/**
 * Why a card could not be read as one of ours:
 * - `unreadable`: no key set of the list opens its sector (another hotel's card, a blank card with
 *   the factory key, or a card under a key set the lock no longer holds);
 * - `blank`: the sector opens but holds zeros (a card cleared at the desk);
 * - `not_a_room_card`: the sector holds something else;
 * - `unsupported_version`: a later version of this format;
 * - `tampered`: the integrity check fails (changed or forged data, or data written under keys with
 *   this sector key but another MAC key);
 * - `malformed`: verified, yet not a valid payload (an encoder bug; never written by ours);
 * - `uid_mismatch`: genuine data on another card than it was written for (a copy).
 */
export const DECODE_REFUSALS = ['unreadable', 'blank', 'not_a_room_card', 'unsupported_version', 'tampered', 'malformed', 'uid_mismatch'] as const;
export type DecodeRefusal = (typeof DECODE_REFUSALS)[number];

export type DecodeResult = { ok: true; card: DecodedCard } | { ok: false; reason: DecodeRefusal };

// -----------------------------------------------------------------------------------------------
// Checks of the input

function fail(message: string): never {
  throw new CardFormatError('invalid_input', message);
}

function checkUint(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(`${name}: a whole number from ${min} to ${max}`);
  return value;
}

/** A UID in upper case: 4 or 7 bytes (8 or 14 hexadecimal characters). */
export function normalizeUid(uid: string): string {
  const text = typeof uid === 'string' ? uid.toUpperCase() : '';
  if (!/^([0-9A-F]{8}|[0-9A-F]{14})$/.test(text)) throw new CardFormatError('invalid_dump', 'uid: 8 or 14 hexadecimal characters (a 4- or 7-byte UID)');
  return text;
}

/** The 4 bytes a card carries to bind it to its UID: the UID itself, or a hash of a 7-byte UID. */
export function uidCheck(uid: string): Buffer {
  const bytes = Buffer.from(normalizeUid(uid), 'hex');
  return bytes.length === 4 ? bytes : createHash('sha256').update(bytes).digest().subarray(0, 4);
}

/** Lock numbers sorted, each once; throws on anything that is not a lock number, or on none. */
export function normalizeRooms(rooms: CardRooms): CardRooms {
  if (rooms === 'all') return 'all';
  if (!Array.isArray(rooms) || rooms.length === 0) fail('rooms: at least one lock number, or "all"');
  for (const n of rooms) checkUint(n, 'rooms: a lock number', 1, MAX_LOCK_NUMBER);
  return [...new Set(rooms)].sort((a, b) => a - b);
}

/**
 * Whether these rooms fit on one card: "all", up to MAX_LISTED_ROOMS rooms, or any number within
 * ROOM_WINDOW_SIZE consecutive lock numbers.
 */
export function roomsFitOnCard(rooms: CardRooms): boolean {
  const list = normalizeRooms(rooms);
  if (list === 'all' || list.length <= MAX_LISTED_ROOMS) return true;
  return list[list.length - 1]! - list[0]! < ROOM_WINDOW_SIZE;
}

/** Door numbers sorted, each once; throws on anything that is not a door number, or on too many. */
export function normalizeDoors(doors: readonly number[] | undefined): number[] {
  if (doors === undefined) return [];
  if (!Array.isArray(doors)) fail('doors: a list of door numbers');
  for (const n of doors) checkUint(n, 'doors: a door number', 1, MAX_DOOR_NUMBER);
  const list = [...new Set(doors)].sort((a, b) => a - b);
  if (list.length > MAX_CARD_DOORS) throw new CardFormatError('too_many_doors', `doors: at most ${MAX_CARD_DOORS} shared doors fit on a guest card`);
  return list;
}

/** A version 2 guest card's list: its room, then 1 to MAX_CARD_DOORS doors ascending, then zeros; null if not. */
function decodeRoomAndDoors(mode: number, bytes: Buffer): { room: number; doors: number[] } | null {
  if (mode !== MODE.list) return null;
  const room = bytes.readUInt16BE(0);
  if (room === 0) return null;
  const doors: number[] = [];
  let ended = false;
  for (let i = 1; i < MAX_LISTED_ROOMS; i += 1) {
    const n = bytes.readUInt16BE(i * 2);
    if (n === 0) {
      ended = true;
      continue;
    }
    if (ended || (doors.length > 0 && n <= doors[doors.length - 1]!)) return null;
    doors.push(n);
  }
  return doors.length > 0 ? { room, doors } : null;
}

function encodeRooms(rooms: CardRooms): { mode: number; bytes: Buffer } {
  const list = normalizeRooms(rooms);
  const bytes = Buffer.alloc(ROOMS_BYTES);
  if (list === 'all') return { mode: MODE.all, bytes };
  if (list.length <= MAX_LISTED_ROOMS) {
    list.forEach((n, i) => bytes.writeUInt16BE(n, i * 2));
    return { mode: MODE.list, bytes };
  }
  const base = list[0]!;
  if (list[list.length - 1]! - base >= ROOM_WINDOW_SIZE)
    throw new CardFormatError(
      'too_many_rooms',
      `rooms: more than ${MAX_LISTED_ROOMS} rooms fit on a card only within ${ROOM_WINDOW_SIZE} consecutive lock numbers; use "all" or several cards`,
    );
  bytes.writeUInt16BE(base, 0);
  for (const n of list) {
    const bit = n - base;
    bytes[2 + (bit >> 3)]! |= 0x80 >> (bit & 7);
  }
  return { mode: MODE.window, bytes };
}

/** The rooms of a payload, or null when they are not a valid encoding of `mode`. */
function decodeRooms(mode: number, bytes: Buffer): CardRooms | null {
  if (mode === MODE.all) return bytes.every((b) => b === 0) ? 'all' : null;
  if (mode === MODE.list) {
    const rooms: number[] = [];
    let ended = false;
    for (let i = 0; i < MAX_LISTED_ROOMS; i += 1) {
      const n = bytes.readUInt16BE(i * 2);
      if (n === 0) {
        ended = true;
        continue;
      }
      if (ended || (rooms.length > 0 && n <= rooms[rooms.length - 1]!)) return null;
      rooms.push(n);
    }
    return rooms.length > 0 ? rooms : null;
  }
  if (mode === MODE.window) {
    const base = bytes.readUInt16BE(0);
    if (base === 0) return null;
    const rooms: number[] = [];
    for (let bit = 0; bit < ROOM_WINDOW_SIZE; bit += 1) {
      if (bytes[2 + (bit >> 3)]! & (0x80 >> (bit & 7))) {
        if (base + bit > MAX_LOCK_NUMBER) return null;
        rooms.push(base + bit);
      }
    }
    return rooms[0] === base ? rooms : null;
  }
  return null;
}

function minutesOf(date: Date, name: string, round: 'down' | 'up'): number {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) fail(`${name}: a date`);
  const ms = date.getTime();
  const minutes = round === 'down' ? Math.floor(ms / MINUTE) : Math.ceil(ms / MINUTE);
  if (minutes < 0 || minutes >= NO_END) fail(`${name}: between 1970 and the year 10000`);
  return minutes;
}

const HEX_OF_LENGTH = new Map([6, 8, 16].map((bytes) => [bytes, new RegExp(`^[0-9A-Fa-f]{${bytes * 2}}$`)]));

function hexBytes(hex: string, bytes: 6 | 8 | 16, name: string): Buffer {
  if (typeof hex !== 'string' || !HEX_OF_LENGTH.get(bytes)!.test(hex))
    throw new CardFormatError('invalid_keys', `${name}: ${bytes * 2} hexadecimal characters`);
  return Buffer.from(hex, 'hex');
}

function mac(keys: HotelCardKeys, sector: number, headerAndCipher: Buffer): Buffer {
  return createHmac('sha256', hexBytes(keys.macKey, 16, 'macKey'))
    .update(MAC_LABEL)
    .update(Buffer.from([sector]))
    .update(headerAndCipher)
    .digest()
    .subarray(0, MAC_BYTES);
}

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
