import type { LIMITS, STORAGE_KEYS } from '@console/shared';

/**
 * The reader constants of spec §9. Copies of packages/shared's values (importing them from there
 * would bring zod into the drivers' chunk), checked against it by the compiler (`satisfies typeof`)
 * and by constants.test.ts.
 */
export const READER_TIMEOUT_MS = 2_000 satisfies typeof LIMITS.readerTimeoutMs;
export const READER_WRITE_TIMEOUT_MS = 5_000 satisfies typeof LIMITS.readerWriteTimeoutMs;
export const CARD_READ_LOCKOUT_MS = 2_000 satisfies typeof LIMITS.cardReadLockoutMs;
export const READER_KEY_LENGTH = 12 satisfies typeof LIMITS.readerKeyLength;
export const READER_BLOCK_DATA_LENGTH = 32 satisfies typeof LIMITS.readerBlockDataLength;
export const READER_TYPE_STORAGE_KEY = 'cardSenderType' satisfies typeof STORAGE_KEYS.cardSenderType;

/** The encoder's USB ids (spec §9: vendor 1047, product 32800), which reader type 2 opens. */
export const READER_VID = 1047;
export const READER_PID = 32800;

/** A MIFARE Classic 1K card: 64 blocks; block 3 of each sector of 4 is its trailer. */
export const CARD_BLOCKS = 64;
export const BLOCKS_PER_SECTOR = 4;

/** Where each reader type's local service listens (spec §7). */
export const DEFAULT_READER_URLS = {
  1: 'http://127.0.0.1:13570',
  2: 'http://127.0.0.1:8765',
  3: 'ws://127.0.0.1:39002',
} as const;
