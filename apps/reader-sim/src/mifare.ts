/**
 * A MIFARE Classic 1K card as a desk encoder sees it: 16 sectors of 4 blocks of 16 bytes. Block 3
 * of each sector is its trailer (key A, access bits, key B); block 0 holds the UID and is read-only.
 * Access to a sector needs an authentication with key A or B; what each key may then read or
 * write is decided by the access bits, as NXP's datasheet (MF1S50yyX, section 8.7) describes.
 *
 * Pure functions over a card's 64 blocks: no I/O, no clock. The device (device.ts) keeps which card
 * is in the field and which sector is authenticated.
 */

export const SECTORS = 16;
export const BLOCKS_PER_SECTOR = 4;
export const BLOCKS = SECTORS * BLOCKS_PER_SECTOR;
export const BLOCK_BYTES = 16;
/** The key of every sector of a blank card. */
export const FACTORY_KEY = 'FFFFFFFFFFFF';
/** Access bits of a blank card ("transport configuration"): FF 07 80, general purpose byte 69. */
export const TRANSPORT_ACCESS_BITS = 'FF078069';
/** What a blank card's trailers hold: key A, access bits, key B. */
export const BLANK_TRAILER = `${FACTORY_KEY}${TRANSPORT_ACCESS_BITS}${FACTORY_KEY}`;

export type KeyType = 'A' | 'B';

export const sectorOf = (block: number) => Math.floor(block / BLOCKS_PER_SECTOR);
export const isTrailer = (block: number) => block % BLOCKS_PER_SECTOR === BLOCKS_PER_SECTOR - 1;
export const trailerOf = (sector: number) => sector * BLOCKS_PER_SECTOR + BLOCKS_PER_SECTOR - 1;
export const isBlockNumber = (block: unknown): block is number => Number.isInteger(block) && (block as number) >= 0 && (block as number) < BLOCKS;

export const HEX_KEY = /^[0-9A-Fa-f]{12}$/;
export const HEX_BLOCK = /^[0-9A-Fa-f]{32}$/;
/** A 4-byte (single size) or 7-byte (double size) UID, in hex. */
export const HEX_UID = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{14})$/;

/** The access condition bits (C1, C2, C3) of one block of a sector, as a string "c1c2c3". */
export type Condition = '000' | '001' | '010' | '011' | '100' | '101' | '110' | '111';

/**
 * The conditions of blocks 0-3 of a sector from trailer bytes 6-8, or null when the inverted
 * copies do not match (a real card then blocks the sector for ever).
 */
export function decodeAccessBits(trailer: Buffer): Condition[] | null {
  const b6 = trailer[6]!;
  const b7 = trailer[7]!;
  const b8 = trailer[8]!;
  const c1 = b7 >> 4;
  const c2 = b8 & 0x0f;
  const c3 = b8 >> 4;
  if ((b6 & 0x0f) !== (~c1 & 0x0f) || b6 >> 4 !== (~c2 & 0x0f) || (b7 & 0x0f) !== (~c3 & 0x0f)) return null;
  return [0, 1, 2, 3].map((i) => `${(c1 >> i) & 1}${(c2 >> i) & 1}${(c3 >> i) & 1}` as Condition);
}

/** Trailer bytes 6-8 for the conditions of blocks 0-3 (inverse of decodeAccessBits). */
export function encodeAccessBits(conditions: readonly Condition[]): Buffer {
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  conditions.forEach((c, i) => {
    c1 |= Number(c[0]) << i;
    c2 |= Number(c[1]) << i;
    c3 |= Number(c[2]) << i;
  });
  return Buffer.from([((~c2 & 0x0f) << 4) | (~c1 & 0x0f), (c1 << 4) | (~c3 & 0x0f), (c3 << 4) | c2]);
}

type Keys = readonly KeyType[];
const A: Keys = ['A'];
const B: Keys = ['B'];
const AB: Keys = ['A', 'B'];
const NEVER: Keys = [];

/** Data blocks: who may read and write, by condition (datasheet table 8; increment etc. left out). */
const DATA_ACCESS: Record<Condition, { read: Keys; write: Keys }> = {
  '000': { read: AB, write: AB },
  '010': { read: AB, write: NEVER },
  '100': { read: AB, write: B },
  '110': { read: AB, write: B },
  '001': { read: AB, write: NEVER },
  '011': { read: B, write: B },
  '101': { read: B, write: NEVER },
  '111': { read: NEVER, write: NEVER },
};

/** Sector trailers: who may write key A, read and write the access bits, read and write key B (table 7). */
const TRAILER_ACCESS: Record<Condition, { keyAWrite: Keys; accessRead: Keys; accessWrite: Keys; keyBRead: Keys; keyBWrite: Keys }> = {
  '000': { keyAWrite: A, accessRead: A, accessWrite: NEVER, keyBRead: A, keyBWrite: A },
  '010': { keyAWrite: NEVER, accessRead: A, accessWrite: NEVER, keyBRead: A, keyBWrite: NEVER },
  '100': { keyAWrite: B, accessRead: AB, accessWrite: NEVER, keyBRead: NEVER, keyBWrite: B },
  '110': { keyAWrite: NEVER, accessRead: AB, accessWrite: NEVER, keyBRead: NEVER, keyBWrite: NEVER },
  '001': { keyAWrite: A, accessRead: A, accessWrite: A, keyBRead: A, keyBWrite: A },
  '011': { keyAWrite: B, accessRead: AB, accessWrite: B, keyBRead: NEVER, keyBWrite: B },
  '101': { keyAWrite: NEVER, accessRead: AB, accessWrite: B, keyBRead: NEVER, keyBWrite: NEVER },
  '111': { keyAWrite: NEVER, accessRead: AB, accessWrite: NEVER, keyBRead: NEVER, keyBWrite: NEVER },
};

/** Why a card refused a command (mapped to each protocol's own codes). */
export type CardRefusal = 'auth_failed' | 'access_denied' | 'bad_access_bits';

export class CardError extends Error {
  constructor(
    readonly refusal: CardRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** 64 blocks of 16 bytes. */
export type CardMemory = Buffer[];

/** Block 0 of a card with this UID: UID, BCC (4-byte UIDs), SAK 08, ATQA, and "SIM" manufacturer bytes. */
export function manufacturerBlock(uid: Buffer): Buffer {
  const filler = Buffer.from('SIM-CARD', 'ascii');
  if (uid.length === 4) {
    const bcc = uid[0]! ^ uid[1]! ^ uid[2]! ^ uid[3]!;
    return Buffer.concat([uid, Buffer.from([bcc, 0x08, 0x04, 0x00]), filler]);
  }
  return Buffer.concat([uid, Buffer.from([0x08, 0x44, 0x00]), filler.subarray(0, 6)]);
}

/** A blank card as it leaves the factory: zeros, factory keys, transport access bits. */
export function blankMemory(uid: Buffer): CardMemory {
  return Array.from({ length: BLOCKS }, (_, block) => {
    if (block === 0) return manufacturerBlock(uid);
    if (isTrailer(block)) return Buffer.from(BLANK_TRAILER, 'hex');
    return Buffer.alloc(BLOCK_BYTES);
  });
}

function conditionsOf(memory: CardMemory, sector: number): Condition[] {
  // A stored trailer always has consistent bits: writeBlock refuses any other.
  return decodeAccessBits(memory[trailerOf(sector)]!) ?? ['111', '111', '111', '111'];
}

/**
 * Authentication of `sector` with a key: true when it matches the trailer's key of that type.
 * A key B that the access bits let anyone read is not a key (datasheet 8.7.3): the authentication
 * itself succeeds, but every access after it is refused (see `canUse`).
 */
export function keyMatches(memory: CardMemory, sector: number, keyType: KeyType, key: Buffer): boolean {
  const trailer = memory[trailerOf(sector)]!;
  const stored = keyType === 'A' ? trailer.subarray(0, 6) : trailer.subarray(10, 16);
  return stored.equals(key);
}

/** Whether an authentication with key B is usable at all in this sector (key B not readable). */
function canUse(memory: CardMemory, sector: number, keyType: KeyType): boolean {
  if (keyType === 'A') return true;
  return TRAILER_ACCESS[conditionsOf(memory, sector)[3]!].keyBRead.length === 0;
}

/** Reads a block with the sector authenticated by `keyType`. A trailer reads with key A as zeros. */
export function readBlock(memory: CardMemory, block: number, keyType: KeyType): Buffer {
  const sector = sectorOf(block);
  if (!canUse(memory, sector, keyType)) throw new CardError('access_denied', `key B of sector ${sector} is readable, so it cannot be used`);
  const conditions = conditionsOf(memory, sector);
  const stored = memory[block]!;
  if (!isTrailer(block)) {
    if (!DATA_ACCESS[conditions[block % 4]!].read.includes(keyType)) throw new CardError('access_denied', `block ${block} may not be read with key ${keyType}`);
    return Buffer.from(stored);
  }
  const rules = TRAILER_ACCESS[conditions[3]!];
  const out = Buffer.alloc(BLOCK_BYTES);
  if (rules.accessRead.includes(keyType)) stored.copy(out, 6, 6, 10);
  if (rules.keyBRead.includes(keyType)) stored.copy(out, 10, 10, 16);
  return out;
}

/**
 * Writes a block with the sector authenticated by `keyType`, as the card allows: block 0 never;
 * a data block by its access condition; a trailer part by part (key A, access bits, key B), refused
 * whole when a part that may not be written would change, or when the new access bits are
 * inconsistent (a real card would then lock the sector for good: the simulator refuses instead).
 */
export function writeBlock(memory: CardMemory, block: number, keyType: KeyType, data: Buffer): void {
  const sector = sectorOf(block);
  if (block === 0) throw new CardError('access_denied', 'block 0 (UID and manufacturer data) is read-only');
  if (!canUse(memory, sector, keyType)) throw new CardError('access_denied', `key B of sector ${sector} is readable, so it cannot be used`);
  const conditions = conditionsOf(memory, sector);
  if (!isTrailer(block)) {
    if (!DATA_ACCESS[conditions[block % 4]!].write.includes(keyType))
      throw new CardError('access_denied', `block ${block} may not be written with key ${keyType}`);
    memory[block] = Buffer.from(data);
    return;
  }
  if (!decodeAccessBits(data))
    throw new CardError('bad_access_bits', `the access bits of sector ${sector} are inconsistent (their inverted copies do not match)`);
  const rules = TRAILER_ACCESS[conditions[3]!];
  const stored = memory[block]!;
  const parts = [
    { from: 0, to: 6, who: rules.keyAWrite, what: 'key A' },
    { from: 6, to: 10, who: rules.accessWrite, what: 'the access bits' },
    { from: 10, to: 16, who: rules.keyBWrite, what: 'key B' },
  ];
  for (const part of parts) {
    const changes = !data.subarray(part.from, part.to).equals(stored.subarray(part.from, part.to));
    if (changes && !part.who.includes(keyType)) throw new CardError('access_denied', `${part.what} of sector ${sector} may not be changed with key ${keyType}`);
  }
  memory[block] = Buffer.from(data);
}

/** One sector as the control API shows it (everything, keys included: this is a simulator). */
export function sectorDump(memory: CardMemory, sector: number) {
  const trailer = memory[trailerOf(sector)]!;
  const conditions = decodeAccessBits(trailer);
  return {
    sector,
    keyA: trailer.subarray(0, 6).toString('hex').toUpperCase(),
    accessBits: trailer.subarray(6, 10).toString('hex').toUpperCase(),
    keyB: trailer.subarray(10, 16).toString('hex').toUpperCase(),
    conditions,
    blocks: [0, 1, 2, 3].map((i) => memory[sector * 4 + i]!.toString('hex').toUpperCase()),
  };
}
