/**
 * Desk card readers in the browser: one interface (`CardReader`), one driver per reader type of
 * spec §7 (type 1 HTTP 13570, type 2 USB bridge 8765, type 3 WebSocket 39002), chosen by
 * localStorage `cardSenderType`. Screens import this folder lazily (`await import('@/readers')`)
 * and never know which reader is attached. Protocols, and how to put a vendor's real service
 * behind a driver: docs/readers.md.
 */
import { READER_TYPE_STORAGE_KEY } from './constants';
import { Type1Reader } from './type1';
import { Type2Reader } from './type2';
import { Type3Reader } from './type3';
import { READER_TYPES, type CardReader, type ReaderOptions, type ReaderType } from './types';

export * from './types';
export * from './errors';
export * from './constants';
export { checkBlock, checkBlockData, checkDevice, checkKey, normaliseUid } from './validate';
export { writeAndVerify, trailerMatches, type BlockWrite, type WriteAndVerifyOptions } from './write-verify';
export { ReadLockout, type ReadOutcome, type ReadStart } from './read-lockout';
export { Type1Reader, Type2Reader, Type3Reader };

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The reader type chosen on this machine (localStorage `cardSenderType`: 1, 2 or 3; default 1). */
export function getReaderType(): ReaderType {
  const value = Number(storage()?.getItem(READER_TYPE_STORAGE_KEY));
  return READER_TYPES.includes(value as ReaderType) ? (value as ReaderType) : 1;
}

export function setReaderType(type: ReaderType): void {
  if (!READER_TYPES.includes(type)) throw new RangeError(`reader type ${String(type)}: 1, 2 or 3`);
  storage()?.setItem(READER_TYPE_STORAGE_KEY, String(type));
}

/** A driver for a reader type (default: the chosen one). */
export function createReader(type: ReaderType = getReaderType(), options: ReaderOptions = {}): CardReader {
  switch (type) {
    case 1:
      return new Type1Reader(options);
    case 2:
      return new Type2Reader(options);
    case 3:
      return new Type3Reader(options);
    default:
      throw new RangeError(`reader type ${String(type)}: 1, 2 or 3`);
  }
}
