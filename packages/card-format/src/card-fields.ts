import { createHash, createHmac } from 'node:crypto';
import {
  MAC_BYTES,
  MAC_LABEL,
  MAX_CARD_DOORS,
  MAX_DOOR_NUMBER,
  MAX_LISTED_ROOMS,
  MAX_LOCK_NUMBER,
  MINUTE,
  MODE,
  NO_END,
  ROOM_WINDOW_SIZE,
  ROOMS_BYTES,
  type CardRooms,
} from './card-layout';
import { CardFormatError } from './errors';
import type { HotelCardKeys } from './keys';

/**
 * A card's fields checked and written into its bytes, or read back from them (the layout is card-layout.ts):
 * the UID and its check, the rooms and doors, the times to the minute, the keys' hex, the MAC.
 */

export function fail(message: string): never {
  throw new CardFormatError('invalid_input', message);
}

export function checkUint(value: unknown, name: string, min: number, max: number): number {
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
export function decodeRoomAndDoors(mode: number, bytes: Buffer): { room: number; doors: number[] } | null {
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

export function encodeRooms(rooms: CardRooms): { mode: number; bytes: Buffer } {
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
export function decodeRooms(mode: number, bytes: Buffer): CardRooms | null {
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

export function minutesOf(date: Date, name: string, round: 'down' | 'up'): number {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) fail(`${name}: a date`);
  const ms = date.getTime();
  const minutes = round === 'down' ? Math.floor(ms / MINUTE) : Math.ceil(ms / MINUTE);
  if (minutes < 0 || minutes >= NO_END) fail(`${name}: between 1970 and the year 10000`);
  return minutes;
}

const HEX_OF_LENGTH = new Map([6, 8, 16].map((bytes) => [bytes, new RegExp(`^[0-9A-Fa-f]{${bytes * 2}}$`)]));

export function hexBytes(hex: string, bytes: 6 | 8 | 16, name: string): Buffer {
  if (typeof hex !== 'string' || !HEX_OF_LENGTH.get(bytes)!.test(hex))
    throw new CardFormatError('invalid_keys', `${name}: ${bytes * 2} hexadecimal characters`);
  return Buffer.from(hex, 'hex');
}

export function mac(keys: HotelCardKeys, sector: number, headerAndCipher: Buffer): Buffer {
  return createHmac('sha256', hexBytes(keys.macKey, 16, 'macKey'))
    .update(MAC_LABEL)
    .update(Buffer.from([sector]))
    .update(headerAndCipher)
    .digest()
    .subarray(0, MAC_BYTES);
}
