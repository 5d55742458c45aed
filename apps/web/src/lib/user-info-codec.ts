// Only AES of crypto-js (and what it needs): the whole library is about 24 kB of the first download.
import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';

/**
 * The cipher of the stored user info's cookie (lib/user-info.ts). A module of its own, loaded on
 * demand (about 6 kB gzipped): before the first render when the cookie is there, by the sign-in page
 * while its form is filled in; a visitor of the sign-in page does not wait for it.
 */
const PASSPHRASE = 'smart-lock-console/userinfo/v1';

export function encryptUserInfo(json: string): string {
  return AES.encrypt(json, PASSPHRASE).toString();
}

/** The JSON the cookie holds; throws or answers '' when it was not encrypted by us. */
export function decryptUserInfo(value: string): string {
  return AES.decrypt(value, PASSPHRASE).toString(Utf8);
}
