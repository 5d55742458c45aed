import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeAnswer, encodeCommand } from './frame';
import {
  BLANK_TRAILER,
  CardError,
  FACTORY_KEY,
  blankMemory,
  decodeAccessBits,
  encodeAccessBits,
  keyMatches,
  readBlock,
  writeBlock,
  type Condition,
} from './mifare';

const CONDITIONS: Condition[] = ['000', '001', '010', '011', '100', '101', '110', '111'];
const hex = (s: string) => Buffer.from(s, 'hex');
const DATA = hex('00112233445566778899AABBCCDDEEFF');
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof CardError ? error.refusal : 'other';
  }
  return null;
};

describe('MIFARE Classic access bits', () => {
  it('decodes the transport configuration FF 07 80 (data 000, trailer 001)', () => {
    expect(decodeAccessBits(hex(BLANK_TRAILER))).toEqual(['000', '000', '000', '001']);
    expect(encodeAccessBits(['000', '000', '000', '001']).toString('hex').toUpperCase()).toBe('FF0780');
  });

  it('encodes and decodes every condition of every block', () => {
    for (const c of CONDITIONS) {
      for (let block = 0; block < 4; block += 1) {
        const conditions: Condition[] = ['000', '000', '000', '001'];
        conditions[block] = c;
        const trailer = Buffer.concat([hex(FACTORY_KEY), encodeAccessBits(conditions), hex('69'), hex(FACTORY_KEY)]);
        expect(decodeAccessBits(trailer)).toEqual(conditions);
      }
    }
  });

  it('finds inverted copies that do not match', () => {
    const trailer = hex(BLANK_TRAILER);
    trailer[8] = trailer[8]! ^ 0x01;
    expect(decodeAccessBits(trailer)).toBeNull();
  });
});

describe('MIFARE Classic card memory', () => {
  it('a blank card: UID and BCC in block 0, factory keys, zeros elsewhere', () => {
    const memory = blankMemory(hex('DEADBEEF'));
    expect(memory).toHaveLength(64);
    expect(memory[0]!.subarray(0, 5).toString('hex').toUpperCase()).toBe('DEADBEEF' + (0xde ^ 0xad ^ 0xbe ^ 0xef).toString(16).toUpperCase());
    expect(memory[63]!.toString('hex').toUpperCase()).toBe(BLANK_TRAILER);
    expect(keyMatches(memory, 5, 'A', hex(FACTORY_KEY))).toBe(true);
    expect(keyMatches(memory, 5, 'A', hex('A0A1A2A3A4A5'))).toBe(false);
  });

  it('block 0 is read-only; data blocks follow their condition', () => {
    const memory = blankMemory(hex('01020304'));
    expect(refusal(() => writeBlock(memory, 0, 'A', DATA))).toBe('access_denied');
    writeBlock(memory, 1, 'A', DATA);
    expect(readBlock(memory, 1, 'A')).toEqual(DATA);
    // Sector 1: block 4 read-only (010), block 5 key B only (011), block 6 nothing (111); key B secret (trailer 011).
    writeBlock(memory, 7, 'A', Buffer.concat([hex('A0A1A2A3A4A5'), encodeAccessBits(['010', '011', '111', '011']), hex('00'), hex('B0B1B2B3B4B5')]));
    expect(readBlock(memory, 4, 'A')).toHaveLength(16);
    expect(refusal(() => writeBlock(memory, 4, 'A', DATA))).toBe('access_denied');
    expect(refusal(() => writeBlock(memory, 4, 'B', DATA))).toBe('access_denied');
    expect(refusal(() => readBlock(memory, 5, 'A'))).toBe('access_denied');
    writeBlock(memory, 5, 'B', DATA);
    expect(readBlock(memory, 5, 'B')).toEqual(DATA);
    expect(refusal(() => readBlock(memory, 6, 'B'))).toBe('access_denied');
  });

  it('a readable key B cannot be used; a secret one can', () => {
    const memory = blankMemory(hex('01020304'));
    expect(refusal(() => readBlock(memory, 1, 'B'))).toBe('access_denied');
    writeBlock(memory, 3, 'A', Buffer.concat([hex(FACTORY_KEY), encodeAccessBits(['000', '000', '000', '011']), hex('69'), hex(FACTORY_KEY)]));
    expect(readBlock(memory, 1, 'B')).toHaveLength(16);
  });

  it('a trailer write refuses inconsistent access bits, and changes only what the key may change', () => {
    const memory = blankMemory(hex('01020304'));
    const bad = hex(BLANK_TRAILER);
    bad[7] = bad[7]! ^ 0x10;
    expect(refusal(() => writeBlock(memory, 3, 'A', bad))).toBe('bad_access_bits');
    expect(memory[3]!.toString('hex').toUpperCase()).toBe(BLANK_TRAILER);
    // Trailer 100: key A written with key B only; the access bits never.
    const locked = Buffer.concat([hex(FACTORY_KEY), encodeAccessBits(['000', '000', '000', '100']), hex('69'), hex('B0B1B2B3B4B5')]);
    writeBlock(memory, 3, 'A', locked);
    expect(refusal(() => writeBlock(memory, 3, 'A', Buffer.concat([hex('A0A1A2A3A4A5'), locked.subarray(6)])))).toBe('access_denied');
    writeBlock(memory, 3, 'B', Buffer.concat([hex('A0A1A2A3A4A5'), locked.subarray(6)]));
    expect(keyMatches(memory, 0, 'A', hex('A0A1A2A3A4A5'))).toBe(true);
    expect(refusal(() => writeBlock(memory, 3, 'B', Buffer.concat([hex('A0A1A2A3A4A5'), hex(BLANK_TRAILER).subarray(6)])))).toBe('access_denied');
    // Reading the trailer: key A always zeros, key B secret here.
    expect(readBlock(memory, 3, 'B').toString('hex').toUpperCase()).toBe(`000000000000${locked.subarray(6, 10).toString('hex').toUpperCase()}000000000000`);
  });
});

describe('reader type 2 frames', () => {
  it('encodes commands and answers with LEN and BCC, and decodes them back', () => {
    const frame = encodeCommand(0x12, Buffer.from([4]));
    expect(frame.toString('hex').toUpperCase()).toBe('020212041403');
    expect([...frame]).toEqual([0x02, 0x02, 0x12, 0x04, 0x02 ^ 0x12 ^ 0x04, 0x03]);
    expect(decodeCommand(frame)).toEqual({ cmd: 0x12, data: Buffer.from([4]) });
    expect([...encodeAnswer(0x12, 0x01)]).toEqual([0x02, 0x02, 0x12, 0x01, 0x02 ^ 0x12 ^ 0x01, 0x03]);
    const bad = Buffer.from(frame);
    bad[4] = bad[4]! ^ 1;
    expect(decodeCommand(bad)).toEqual({ error: 'BCC does not match' });
    expect(decodeCommand(Buffer.from([0x02, 0x05, 0x12, 0x00, 0x03]))).toHaveProperty('error');
  });
});
