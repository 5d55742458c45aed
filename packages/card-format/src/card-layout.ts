import type { HotelCardKeys } from './keys';

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

/** The layout's own codes and sizes (card-fields.ts, card.ts). */
export const KIND_CODES: Record<CardKind, number> = { guest: 1, master: 2, staff: 3, cancel: 4 };
export const KIND_OF_CODE = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as CardKind]));
export const MODE = { list: 0, window: 1, all: 2 } as const;
export const NO_END = 0xffffffff;
export const MINUTE = 60_000;
export const HEADER_BYTES = 2;
export const PAYLOAD_BYTES = 40;
export const MAC_BYTES = 6;
export const DATA_BYTES = HEADER_BYTES + PAYLOAD_BYTES + MAC_BYTES;
export const MAC_LABEL = Buffer.from('HCARD1', 'ascii');
export const ROOMS_OFFSET = 26;
export const ROOMS_BYTES = 14;

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
