import { randomBytes } from 'node:crypto';
import { CardFormatError } from './errors';

/** MIFARE Classic's factory (transport) key: what a blank card opens with. Never a hotel's key. */
export const FACTORY_KEY = 'FFFFFFFFFFFF';
/** The sector a hotel's cards use unless it picks another (1 to 15; sector 0 holds the UID block). */
export const DEFAULT_CARD_SECTOR = 1;
export const MIN_CARD_SECTOR = 1;
export const MAX_CARD_SECTOR = 15;

/**
 * Keys that every MIFARE tool tries first (factory, transport, MAD and well-known vendor defaults).
 * A hotel's sector key is never one of them, nor all zeros.
 */
const WELL_KNOWN_SECTOR_KEYS: ReadonlySet<string> = new Set([
  'FFFFFFFFFFFF',
  '000000000000',
  'A0A1A2A3A4A5',
  'B0B1B2B3B4B5',
  'D3F7D3F7D3F7',
  'AABBCCDDEEFF',
  '4D3A99C351DD',
  '1A982C7E459A',
  '714C5C886E97',
  '587EE5F9350F',
  'A0478CC39091',
  '533CB6C723F6',
  '8FD0A4F256E9',
  'A5A4A3A2A1A0',
  'C0C1C2C3C4C5',
]);

/** DES's 4 weak and 12 semi-weak keys (with odd parity): encryption under them is trivially invertible. */
const WEAK_DES_KEYS: ReadonlySet<string> = new Set([
  '0101010101010101',
  'FEFEFEFEFEFEFEFE',
  'E0E0E0E0F1F1F1F1',
  '1F1F1F1F0E0E0E0E',
  '011F011F010E010E',
  '1F011F010E010E01',
  '01E001E001F101F1',
  'E001E001F101F101',
  '01FE01FE01FE01FE',
  'FE01FE01FE01FE01',
  '1FE01FE00EF10EF1',
  'E01FE01FF10EF10E',
  '1FFE1FFE0EFE0EFE',
  'FE1FFE1FFE0EFE0E',
  'E0FEE0FEF1FEF1FE',
  'FEE0FEE0FEF1FEF1',
]);

/**
 * A hotel's card key set (docs/card-format.md, "Keys"). All hexadecimal, upper case.
 * - `sector`, `sectorKeyA`, `sectorKeyB`: where the card data lives and the MIFARE keys of that
 *   sector's trailer; a lock authenticates the sector with key A to read it.
 * - `desKey`, `desIv`: DES-CBC of the payload.
 * - `macKey`: HMAC-SHA-256 key of the integrity check.
 */
export interface HotelCardKeys {
  sector: number;
  /** 12 hex. */
  sectorKeyA: string;
  /** 12 hex. */
  sectorKeyB: string;
  /** 16 hex (8 bytes, odd parity). */
  desKey: string;
  /** 16 hex. */
  desIv: string;
  /** 32 hex (16 bytes). */
  macKey: string;
}

/**
 * One key set as a lock holds it: an id of the caller's (shown in diagnostics, never on the card),
 * and when the lock may stop trying it (every card written under it has expired by then; null:
 * until it is taken out of the list).
 */
export interface CardKeyEntry {
  id: string;
  keys: HotelCardKeys;
  validUntil?: Date | null;
}

const HEX = (length: number) => new RegExp(`^[0-9A-F]{${length}}$`);
const HEX12 = HEX(12);
const HEX16 = HEX(16);
const HEX32 = HEX(32);

/** Sets each byte's lowest bit so the byte has an odd number of ones (DES's parity convention). */
function withOddParity(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i += 1) {
    const high = out[i]! & 0xfe;
    let ones = 0;
    for (let b = high; b; b >>= 1) ones += b & 1;
    out[i] = high | (ones % 2 === 0 ? 1 : 0);
  }
  return out;
}

/** True for the factory key, all zeros and the other keys every MIFARE tool tries first. */
export function isWeakSectorKey(hex: string): boolean {
  return WELL_KNOWN_SECTOR_KEYS.has(hex.toUpperCase());
}

/** True for DES's weak and semi-weak keys (parity bits ignored). */
export function isWeakDesKey(hex: string): boolean {
  return WEAK_DES_KEYS.has(withOddParity(Buffer.from(hex, 'hex')).toString('hex').toUpperCase());
}

function randomSectorKey(avoid: string[]): string {
  for (;;) {
    const key = randomBytes(6).toString('hex').toUpperCase();
    if (!isWeakSectorKey(key) && !avoid.includes(key)) return key;
  }
}

/**
 * A new, random key set for a hotel (a new one for each rotation). Never the factory key, never
 * all zeros or another well-known MIFARE key, never a weak DES key; key A and key B differ.
 */
export function generateHotelCardKeys(options: { sector?: number } = {}): HotelCardKeys {
  const sector = options.sector ?? DEFAULT_CARD_SECTOR;
  if (!Number.isInteger(sector) || sector < MIN_CARD_SECTOR || sector > MAX_CARD_SECTOR)
    throw new CardFormatError('invalid_keys', `sector: ${MIN_CARD_SECTOR} to ${MAX_CARD_SECTOR}`);
  const sectorKeyA = randomSectorKey([]);
  const sectorKeyB = randomSectorKey([sectorKeyA]);
  let desKey: string;
  do desKey = withOddParity(randomBytes(8)).toString('hex').toUpperCase();
  while (isWeakDesKey(desKey));
  return {
    sector,
    sectorKeyA,
    sectorKeyB,
    desKey,
    desIv: randomBytes(8).toString('hex').toUpperCase(),
    macKey: randomBytes(16).toString('hex').toUpperCase(),
  };
}

/**
 * A key set from stored or transmitted data (any letter case), checked: the sector, the lengths,
 * no well-known sector key, key A and B different, no weak DES key. Throws CardFormatError
 * (`invalid_keys`) naming the field.
 */
export function parseHotelCardKeys(value: unknown): HotelCardKeys {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CardFormatError('invalid_keys', 'card keys: an object');
  const v = value as Record<string, unknown>;
  const hex = (field: string, pattern: RegExp, what: string): string => {
    const raw = v[field];
    const text = typeof raw === 'string' ? raw.toUpperCase() : '';
    if (!pattern.test(text)) throw new CardFormatError('invalid_keys', `${field}: ${what}`);
    return text;
  };
  const sector = v.sector;
  if (typeof sector !== 'number' || !Number.isInteger(sector) || sector < MIN_CARD_SECTOR || sector > MAX_CARD_SECTOR)
    throw new CardFormatError('invalid_keys', `sector: ${MIN_CARD_SECTOR} to ${MAX_CARD_SECTOR}`);
  const keys: HotelCardKeys = {
    sector,
    sectorKeyA: hex('sectorKeyA', HEX12, '12 hexadecimal characters'),
    sectorKeyB: hex('sectorKeyB', HEX12, '12 hexadecimal characters'),
    desKey: hex('desKey', HEX16, '16 hexadecimal characters'),
    desIv: hex('desIv', HEX16, '16 hexadecimal characters'),
    macKey: hex('macKey', HEX32, '32 hexadecimal characters'),
  };
  if (isWeakSectorKey(keys.sectorKeyA)) throw new CardFormatError('invalid_keys', 'sectorKeyA: the factory key, all zeros or another well-known MIFARE key');
  if (isWeakSectorKey(keys.sectorKeyB)) throw new CardFormatError('invalid_keys', 'sectorKeyB: the factory key, all zeros or another well-known MIFARE key');
  if (keys.sectorKeyA === keys.sectorKeyB) throw new CardFormatError('invalid_keys', 'sectorKeyB: must differ from sectorKeyA');
  if (isWeakDesKey(keys.desKey)) throw new CardFormatError('invalid_keys', 'desKey: a weak DES key');
  return keys;
}
