import { createCipheriv, createDecipheriv } from 'node:crypto';

/**
 * DES in CBC mode without padding (the card payload is a whole number of 8-byte blocks), with
 * Node's OpenSSL.
 *
 * OpenSSL 3 keeps single DES (`des-cbc`) in its "legacy" provider, which the server and the tests
 * load (`--openssl-legacy-provider`, docs/decisions/003-native-des-with-legacy-provider.md). A
 * process started without it (the lock simulator run on its own, a script) still computes the very
 * same DES: Triple DES in EDE mode with the key three times (K, K, K) is single DES, because the
 * middle decryption undoes the first encryption (E_K(D_K(E_K(x))) = E_K(x)), and `des-ede3-cbc` is
 * in OpenSSL's default provider. The tests check that both give the same bytes, and the FIPS 81
 * example.
 */
export type DesAlgorithm = 'des-cbc' | 'des-ede3-cbc';

let chosen: DesAlgorithm | undefined;

function probeSingleDes(): boolean {
  try {
    const cipher = createCipheriv('des-cbc', Buffer.alloc(8, 1), Buffer.alloc(8));
    cipher.setAutoPadding(false);
    Buffer.concat([cipher.update(Buffer.alloc(8)), cipher.final()]);
    return true;
  } catch {
    return false;
  }
}

/** The OpenSSL cipher this process uses for DES-CBC: `des-cbc` when the legacy provider is loaded. */
export function desImplementation(): DesAlgorithm {
  chosen ??= probeSingleDes() ? 'des-cbc' : 'des-ede3-cbc';
  return chosen;
}

function keyFor(algorithm: DesAlgorithm, key: Buffer): Buffer {
  return algorithm === 'des-cbc' ? key : Buffer.concat([key, key, key]);
}

function check(key: Buffer, iv: Buffer, data: Buffer): void {
  if (key.length !== 8) throw new RangeError('DES key: 8 bytes');
  if (iv.length !== 8) throw new RangeError('DES IV: 8 bytes');
  if (data.length % 8 !== 0) throw new RangeError('DES-CBC without padding: a whole number of 8-byte blocks');
}

/** DES-CBC with a chosen OpenSSL cipher (tests compare the two). */
export function desCbcWith(algorithm: DesAlgorithm, direction: 'encrypt' | 'decrypt', key: Buffer, iv: Buffer, data: Buffer): Buffer {
  check(key, iv, data);
  const cipher = direction === 'encrypt' ? createCipheriv(algorithm, keyFor(algorithm, key), iv) : createDecipheriv(algorithm, keyFor(algorithm, key), iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

export function desCbcEncrypt(key: Buffer, iv: Buffer, data: Buffer): Buffer {
  return desCbcWith(desImplementation(), 'encrypt', key, iv, data);
}

export function desCbcDecrypt(key: Buffer, iv: Buffer, data: Buffer): Buffer {
  return desCbcWith(desImplementation(), 'decrypt', key, iv, data);
}
