import CryptoJS from 'crypto-js';
import { describe, expect, it } from 'vitest';
import { createDesCodec } from './des';

const KEY = 'k3yK3y!8';
const IV = 'iv-iv-88';
const cryptoJsEncrypt = (text: string) =>
  CryptoJS.DES.encrypt(text, CryptoJS.enc.Utf8.parse(KEY), {
    iv: CryptoJS.enc.Utf8.parse(IV),
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.Pkcs7,
  }).toString();

describe('DES envelope codec', () => {
  const codec = createDesCodec(KEY, IV);

  it.each(['', 'a', '12345678', '{"mobile":"13800000000","action":"manage"}', '中文 العربية 한국어 😀'.repeat(20)])(
    'produces what CryptoJS produces, and reads it back: %#',
    (text) => {
      expect(codec.encrypt(text)).toBe(cryptoJsEncrypt(text));
      expect(codec.decrypt(cryptoJsEncrypt(text))).toBe(text);
    },
  );

  it('reads ciphertext whose "+" a careless client sent as a space', () => {
    const text = JSON.stringify({ probe: 'x'.repeat(50) });
    const cipher = cryptoJsEncrypt(text);
    expect(codec.decrypt(cipher.replace(/\+/g, ' '))).toBe(text);
  });

  it.each(['', 'not base64!', 'AAAA', 'QUJD', cryptoJsEncrypt('x').slice(0, -4)])('rejects garbage: %j', (garbage) => {
    expect(() => codec.decrypt(garbage)).toThrow(/not Base64|not a whole number of DES blocks|bad decrypt|wrong final block length/);
  });

  it('rejects ciphertext made with another key', () => {
    const other = CryptoJS.DES.encrypt('{"a":1}', CryptoJS.enc.Utf8.parse('otherkey'), { iv: CryptoJS.enc.Utf8.parse(IV) }).toString();
    // Another key either breaks the padding or yields bytes that are not the JSON that was sent.
    expect(() => JSON.parse(codec.decrypt(other))).toThrow(/bad decrypt|JSON|Unexpected token|not valid/i);
  });

  it('insists on 8-byte keys', () => {
    expect(() => createDesCodec('short', IV)).toThrow('DES key and IV must be 8 bytes each');
  });
});
