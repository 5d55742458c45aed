// Only AES of crypto-js (and what it needs): the whole library is about 24 kB of the first download.
import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import Cookies from 'js-cookie';
import { useSyncExternalStore } from 'react';
import { COOKIES } from '@console/shared';
import type { RouterOutputs } from './trpc-types';

/**
 * The stored user info (spec §3, §4): display data only (name, avatar, hotel, apiKeyAuth,
 * permissions), kept encrypted in the cookie `smart_lock_userinfo`. It is never a credential:
 * the session lives in an HttpOnly cookie the page cannot read, and the server checks it on every call.
 * The route guard and the menu read this cookie.
 */
export type UserInfo = Omit<RouterOutputs['auth']['me'], 'hotelCount'> & {
  /** The account's number of hotels; absent from user info stored before it was added (then 1 is assumed). */
  hotelCount?: number;
};

const PASSPHRASE = 'smart-lock-console/userinfo/v1';
const COOKIE_DAYS = 7;

function decode(value: string | undefined): UserInfo | null {
  if (!value) return null;
  try {
    const json = AES.decrypt(value, PASSPHRASE).toString(Utf8);
    const parsed = JSON.parse(json) as UserInfo;
    return typeof parsed?.id === 'number' && parsed.hotel ? parsed : null;
  } catch {
    return null;
  }
}

let cached: { raw: string | undefined; value: UserInfo | null } | undefined;
const listeners = new Set<() => void>();

export function readUserInfo(): UserInfo | null {
  const raw = Cookies.get(COOKIES.userInfo);
  if (!cached || cached.raw !== raw) cached = { raw, value: decode(raw) };
  return cached.value;
}

export function writeUserInfo(info: UserInfo): void {
  const value = AES.encrypt(JSON.stringify(info), PASSPHRASE).toString();
  Cookies.set(COOKIES.userInfo, value, { expires: COOKIE_DAYS, sameSite: 'strict', secure: window.location.protocol === 'https:' });
  listeners.forEach((l) => l());
}

export function clearUserInfo(): void {
  Cookies.remove(COOKIES.userInfo);
  listeners.forEach((l) => l());
}

export function useUserInfo(): UserInfo | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readUserInfo,
    () => null,
  );
}

export function hasPermission(user: UserInfo | null, permission: string): boolean {
  return Boolean(user?.permissions.includes(permission));
}
