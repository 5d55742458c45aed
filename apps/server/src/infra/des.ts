import crypto from 'node:crypto';

/**
 * DES-CBC with PKCS#7 padding, Base64 text: the legacy envelope's cipher (ARCHITECTURE.md),
 * byte for byte what CryptoJS produces with `Utf8.parse(key)` and `Utf8.parse(iv)`.
 * Node's OpenSSL 3 only offers DES with its legacy provider, which the server is started with
 * (`--openssl-legacy-provider`; docs/decisions/003-native-des-with-legacy-provider.md).
 */
export interface DesCodec {
  encrypt(plain: string): string;
  /** The plain bytes; throws on anything that is not valid Base64 ciphertext of this key. */
  decryptBytes(base64: string): Buffer;
  /** The plain text; throws as decryptBytes does, and on plain bytes that are not UTF-8. */
  decrypt(base64: string): string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function createDesCodec(key: string, iv: string): DesCodec {
  const k = Buffer.from(key, 'utf8');
  const v = Buffer.from(iv, 'utf8');
  if (k.length !== 8 || v.length !== 8) throw new Error('DES key and IV must be 8 bytes each');
  function decryptBytes(base64: string): Buffer {
    // A client that form-encodes without escaping turns "+" into a space; undo that.
    const text = base64.replace(/ /g, '+').replace(/[\r\n]/g, '');
    if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) throw new Error('not Base64');
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === 0 || bytes.length % 8 !== 0) throw new Error('not a whole number of DES blocks');
    const decipher = crypto.createDecipheriv('des-cbc', k, v);
    return Buffer.concat([decipher.update(bytes), decipher.final()]);
  }
  return {
    encrypt(plain) {
      const cipher = crypto.createCipheriv('des-cbc', k, v);
      return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
    },
    decryptBytes,
    decrypt: (base64) => new TextDecoder('utf-8', { fatal: true }).decode(decryptBytes(base64)),
  };
}

export class DesUnavailableError extends Error {}

/** Fails fast, with the fix in the message, when this Node.js cannot do DES. */
export function assertDesAvailable(): void {
  try {
    createDesCodec('12345678', '12345678').encrypt('probe');
  } catch (error) {
    throw new DesUnavailableError(
      'This Node.js cannot use DES-CBC, which the legacy /manage/* envelope needs. OpenSSL 3 keeps DES in its ' +
        '"legacy" provider: start the server with `node --openssl-legacy-provider` (the package scripts and the ' +
        'Docker image do), or set NODE_OPTIONS=--openssl-legacy-provider.',
      { cause: error },
    );
  }
}
