import { ReaderError } from './errors';
import type { CardReader, KeyType } from './types';
import { checkBlock, checkBlockData, checkKey, isTrailer, sectorOf } from './validate';

export interface BlockWrite {
  block: number;
  /** 32 hex characters. */
  data: string;
}

export interface WriteAndVerifyOptions {
  keyType?: KeyType;
  /** The card must be this one (the UID the card data was made for): checked before writing. */
  expectedUid?: string;
}

/** Trailer bytes 6-9 (access bits and general purpose byte) as hex positions. */
const ACCESS = [12, 20] as const;
const KEY_B = [20, 32] as const;
const ZERO_KEY = '000000000000';

/**
 * Whether a trailer read back matches the one written. Key A always reads as zeros; key B reads
 * as zeros when the access bits keep it secret; the access bits always read back. That key A
 * works is shown by the read itself, made with it.
 */
export function trailerMatches(written: string, readBack: string): boolean {
  const w = written.toUpperCase();
  const r = readBack.toUpperCase();
  if (w.slice(...ACCESS) !== r.slice(...ACCESS)) return false;
  const keyB = r.slice(...KEY_B);
  return keyB === ZERO_KEY || keyB === w.slice(...KEY_B);
}

/**
 * Writes blocks to the card on the reader, then reads every one back and compares: a card counts
 * as written only when this resolves. Everything is checked (spec §5) before the card is touched.
 * Blocks are written in the order given with `key` (key A unless `keyType`), except that once a
 * sector's trailer is written, that sector's later blocks and its read-back use the trailer's new
 * key A. A block that reads back different, or cannot be read back, fails the whole write with
 * `writeVerifyFailed` (its `blocks` parameter lists them); any failure of the writes themselves is
 * passed on as the driver reported it.
 */
export async function writeAndVerify(
  reader: CardReader,
  blocks: readonly BlockWrite[],
  key: string,
  options: WriteAndVerifyOptions = {},
): Promise<{ uid: string | null }> {
  const keyType = options.keyType ?? 'A';
  const startKey = checkKey(key);
  const writes = blocks.map((b) => ({ block: checkBlock(b.block), data: checkBlockData(b.data) }));
  const sectorKeys = new Map<number, string>();
  const keyOf = (block: number) => sectorKeys.get(sectorOf(block)) ?? startKey;

  let uid: string | null = null;
  if (options.expectedUid !== undefined) {
    uid = await reader.requestCard();
    if (uid !== options.expectedUid.toUpperCase())
      throw new ReaderError('cardChanged', { step: 'request', hint: 'checkCard', detail: `expected ${options.expectedUid}, found ${uid}` });
  }

  for (const w of writes) {
    await reader.writeBlock(w.block, w.data, keyOf(w.block), keyType);
    if (isTrailer(w.block) && keyType === 'A') sectorKeys.set(sectorOf(w.block), w.data.slice(0, 12));
  }

  const differing: number[] = [];
  for (const w of writes) {
    let readBack: string;
    try {
      readBack = await reader.readBlock(w.block, keyOf(w.block), keyType);
    } catch (error) {
      if (error instanceof ReaderError && (error.kind === 'noResponse' || error.kind === 'deviceNotConnected')) throw error;
      differing.push(w.block);
      continue;
    }
    const same = isTrailer(w.block) ? trailerMatches(w.data, readBack) : readBack.toUpperCase() === w.data;
    if (!same) differing.push(w.block);
  }
  if (differing.length > 0) {
    throw new ReaderError('writeVerifyFailed', {
      step: 'verify',
      hint: 'checkCard',
      params: { blocks: differing.join(', ') },
      detail: `blocks ${differing.join(', ')} differ when read back`,
    });
  }
  return { uid };
}
