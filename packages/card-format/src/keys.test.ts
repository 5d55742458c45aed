import { describe, expect, it } from 'vitest';
import { CardFormatError } from './errors';
import { FACTORY_KEY, generateHotelCardKeys, isWeakDesKey, isWeakSectorKey, parseHotelCardKeys } from './keys';

describe('hotel card keys', () => {
  it('are random, upper-case hex of the documented sizes, in sector 1 unless told', () => {
    const keys = generateHotelCardKeys();
    expect(keys).toEqual({
      sector: 1,
      sectorKeyA: expect.stringMatching(/^[0-9A-F]{12}$/),
      sectorKeyB: expect.stringMatching(/^[0-9A-F]{12}$/),
      desKey: expect.stringMatching(/^[0-9A-F]{16}$/),
      desIv: expect.stringMatching(/^[0-9A-F]{16}$/),
      macKey: expect.stringMatching(/^[0-9A-F]{32}$/),
    });
    expect(generateHotelCardKeys({ sector: 9 }).sector).toBe(9);
    const many = Array.from({ length: 200 }, () => generateHotelCardKeys());
    expect(new Set(many.map((k) => k.sectorKeyA)).size).toBe(200);
    for (const k of many) {
      expect(k.sectorKeyA).not.toBe(FACTORY_KEY);
      expect(k.sectorKeyA).not.toBe('000000000000');
      expect(k.sectorKeyB).not.toBe(k.sectorKeyA);
      expect(isWeakSectorKey(k.sectorKeyA) || isWeakSectorKey(k.sectorKeyB) || isWeakDesKey(k.desKey)).toBe(false);
      // DES keys carry odd parity in every byte.
      for (const byte of Buffer.from(k.desKey, 'hex'))
        expect(
          byte
            .toString(2)
            .split('')
            .filter((b) => b === '1').length % 2,
        ).toBe(1);
      expect(parseHotelCardKeys(k)).toEqual(k);
    }
  });

  it('refuses sector 0 and sectors past 15', () => {
    expect(() => generateHotelCardKeys({ sector: 0 })).toThrow(CardFormatError);
    expect(() => generateHotelCardKeys({ sector: 16 })).toThrow(CardFormatError);
  });

  it('parses stored keys in any case and refuses what is not a safe key set', () => {
    const keys = generateHotelCardKeys();
    expect(parseHotelCardKeys({ ...keys, sectorKeyA: keys.sectorKeyA.toLowerCase() })).toEqual(keys);
    const refused = (patch: Record<string, unknown>, field: string) => {
      try {
        parseHotelCardKeys({ ...keys, ...patch });
      } catch (error) {
        expect(error).toBeInstanceOf(CardFormatError);
        expect((error as CardFormatError).code).toBe('invalid_keys');
        expect((error as Error).message).toContain(field);
        return;
      }
      throw new Error(`accepted ${JSON.stringify(patch)}`);
    };
    refused({ sectorKeyA: 'FFFFFFFFFFFF' }, 'sectorKeyA');
    refused({ sectorKeyA: 'ffffffffffff' }, 'sectorKeyA');
    refused({ sectorKeyA: '000000000000' }, 'sectorKeyA');
    refused({ sectorKeyA: 'A0A1A2A3A4A5' }, 'sectorKeyA');
    refused({ sectorKeyB: 'FFFFFFFFFFFF' }, 'sectorKeyB');
    refused({ sectorKeyB: keys.sectorKeyA }, 'sectorKeyB');
    refused({ sectorKeyA: '12345' }, 'sectorKeyA');
    refused({ desKey: '0101010101010101' }, 'desKey');
    refused({ desKey: '0000000000000000' }, 'desKey');
    refused({ desKey: 'FEE0FEE0FEF1FEF1' }, 'desKey');
    refused({ desIv: 'XYZ' }, 'desIv');
    refused({ macKey: 'AB' }, 'macKey');
    refused({ sector: 0 }, 'sector');
    refused({ sector: '1' }, 'sector');
    expect(() => parseHotelCardKeys(null)).toThrow(CardFormatError);
  });
});
