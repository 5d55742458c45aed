import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { desCbcDecrypt, desCbcEncrypt, desCbcWith, desImplementation } from './des';

describe('DES-CBC of the card payload', () => {
  it('gives the FIPS 81 CBC example', () => {
    // FIPS PUB 81, appendix C: key 0123456789ABCDEF, IV 1234567890ABCDEF, "Now is the time for all ".
    const key = Buffer.from('0123456789ABCDEF', 'hex');
    const iv = Buffer.from('1234567890ABCDEF', 'hex');
    const plain = Buffer.from('4E6F77206973207468652074696D6520666F7220616C6C20', 'hex');
    const cipher = desCbcEncrypt(key, iv, plain);
    expect(cipher.toString('hex').toUpperCase()).toBe('E5C7CDDE872BF27C43E934008C389C0F683788499A7C05F6');
    expect(desCbcDecrypt(key, iv, cipher)).toEqual(plain);
  });

  it('uses single DES when the legacy provider is loaded (the tests run with it)', () => {
    expect(desImplementation()).toBe('des-cbc');
  });

  it('single DES and Triple DES with the key three times give the same bytes (the fallback without the legacy provider)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        fc.uint8Array({ minLength: 8, maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        (key, iv, blocks) => {
          const data = randomBytes(blocks * 8);
          const k = Buffer.from(key);
          const v = Buffer.from(iv);
          const single = desCbcWith('des-cbc', 'encrypt', k, v, data);
          expect(desCbcWith('des-ede3-cbc', 'encrypt', k, v, data)).toEqual(single);
          expect(desCbcWith('des-ede3-cbc', 'decrypt', k, v, single)).toEqual(data);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses keys, IVs and data of the wrong size', () => {
    expect(() => desCbcEncrypt(Buffer.alloc(7), Buffer.alloc(8), Buffer.alloc(8))).toThrow(/key/);
    expect(() => desCbcEncrypt(Buffer.alloc(8), Buffer.alloc(9), Buffer.alloc(8))).toThrow(/IV/);
    expect(() => desCbcEncrypt(Buffer.alloc(8), Buffer.alloc(8), Buffer.alloc(12))).toThrow(/8-byte/);
  });
});
