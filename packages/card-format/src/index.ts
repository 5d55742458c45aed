/**
 * `@console/card-format`: our room-card format for MIFARE Classic 1K (docs/card-format.md). The
 * server computes a card's block data with `encodeCard`; offline locks (and `apps/lock-sim`) read it
 * with `decodeCard` and decide with `checkCardAtLock` (or both at once, `presentCard`).
 * Node only: DES-CBC and HMAC-SHA-256 come from node:crypto.
 */
export { decodeCard, encodeCard } from './card';
export { normalizeDoors, normalizeRooms, normalizeUid, roomsFitOnCard, uidCheck } from './card-fields';
export {
  CARD_FORMAT_VERSION,
  CARD_FORMAT_VERSION_DOORS,
  MAX_CARD_DOORS,
  MAX_DOOR_NUMBER,
  CARD_MARKER,
  CARD_KINDS,
  DECODE_REFUSALS,
  MAX_CARD_ID,
  MAX_GENERATION,
  MAX_HOTEL_TAG,
  MAX_LISTED_ROOMS,
  MAX_LOCK_NUMBER,
  ROOM_WINDOW_SIZE,
  TRAILER_ACCESS_BITS,
  type CancelCardInput,
  type CardBlock,
  type CardDump,
  type CardKind,
  type CardRooms,
  type DecodedCard,
  type DecodeRefusal,
  type DecodeResult,
  type EncodeCardInput,
  type EncodedCard,
  type GuestCardInput,
  type RoomsCardInput,
} from './card-layout';
export { desImplementation } from './des';
export { CardFormatError, type CardFormatErrorCode } from './errors';
export {
  DEFAULT_CARD_SECTOR,
  FACTORY_KEY,
  MAX_CARD_SECTOR,
  MIN_CARD_SECTOR,
  generateHotelCardKeys,
  isWeakDesKey,
  isWeakSectorKey,
  parseHotelCardKeys,
  type CardKeyEntry,
  type HotelCardKeys,
} from './keys';
export {
  LOCK_REFUSALS,
  cardOpensDoor,
  cardOpensRoom,
  checkCardAtLock,
  presentCard,
  type LockCardConfig,
  type LockCardState,
  type LockDecision,
  type LockRefusal,
  type PresentedCard,
} from './lock';
