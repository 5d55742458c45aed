import { BLOCKS_PER_SECTOR, CARD_BLOCKS, READER_BLOCK_DATA_LENGTH, READER_KEY_LENGTH } from './constants';
import { ReaderError } from './errors';

/**
 * The checks of spec §5 made before anything is sent to a reader: block number, key and device
 * number required; a key of 12 hex characters; block data of 32. Each answers the value in the
 * form the drivers send (upper-case hex) or throws a ReaderError with the step `validate`.
 */

const KEY = new RegExp(`^[0-9A-Fa-f]{${READER_KEY_LENGTH}}$`);
const DATA = new RegExp(`^[0-9A-Fa-f]{${READER_BLOCK_DATA_LENGTH}}$`);

const invalid = (kind: ConstructorParameters<typeof ReaderError>[0]) => new ReaderError(kind, { step: 'validate' });

export function checkKey(key: unknown): string {
  if (key === undefined || key === null || key === '') throw invalid('keyRequired');
  if (typeof key !== 'string' || !KEY.test(key)) throw invalid('keyLength');
  return key.toUpperCase();
}

export function checkBlockData(data: unknown): string {
  if (typeof data !== 'string' || !DATA.test(data)) throw invalid('dataLength');
  return data.toUpperCase();
}

export function checkBlock(block: unknown): number {
  if (block === undefined || block === null || block === '' || (typeof block === 'number' && Number.isNaN(block))) throw invalid('blockRequired');
  const n = typeof block === 'string' && /^\d+$/.test(block.trim()) ? Number(block) : block;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= CARD_BLOCKS) throw invalid('blockInvalid');
  return n;
}

export function checkDevice(deviceId: unknown): string {
  if (typeof deviceId !== 'string' || deviceId.trim() === '') throw invalid('deviceRequired');
  return deviceId;
}

export const sectorOf = (block: number) => Math.floor(block / BLOCKS_PER_SECTOR);
export const isTrailer = (block: number) => block % BLOCKS_PER_SECTOR === BLOCKS_PER_SECTOR - 1;

const UID = /^([0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/;
/** A card number as a reader reported it, upper-case hex, or null when it is not one. */
export function normaliseUid(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const uid = value.trim().toUpperCase();
  return UID.test(uid) ? uid : null;
}
