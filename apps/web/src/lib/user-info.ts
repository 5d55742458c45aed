// Only AES of crypto-js (and what it needs): the whole library is about 24 kB of the first download.
import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import { useSyncExternalStore } from 'react';
import { COOKIES } from '@console/shared';
import { pageCookies, readCookie, removeCookie, writeCookie } from './cookies';
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

let cached: { cookies: string; raw: string | undefined; value: UserInfo | null } | undefined;
const listeners = new Set<() => void>();

/**
 * Read on every render of every component that shows it (useSyncExternalStore): the cookies read
 * once a task (lib/cookies.ts) and parsed again only when they changed, the value decrypted again
 * only when this cookie changed (not when another one did).
 */
export function readUserInfo(): UserInfo | null {
  const cookies = pageCookies();
  if (!cached || cached.cookies !== cookies) {
    const raw = readCookie(COOKIES.userInfo);
    cached = { cookies, raw, value: cached && cached.raw === raw ? cached.value : decode(raw) };
  }
  return cached.value;
}

/**
 * Stores the user info. The cookie is written every time (its 7 days start again), but when what it
 * holds is unchanged (the layout refreshes it from the server on every visit) nothing is re-rendered:
 * the same object is kept.
 */
export function writeUserInfo(info: UserInfo): void {
  const before = readUserInfo();
  const json = JSON.stringify(info);
  const value = AES.encrypt(json, PASSPHRASE).toString();
  writeCookie(COOKIES.userInfo, value, { expires: COOKIE_DAYS, sameSite: 'strict', secure: window.location.protocol === 'https:' });
  if (before && JSON.stringify(before) === json) {
    cached = { cookies: pageCookies(), raw: readCookie(COOKIES.userInfo), value: before };
    return;
  }
  listeners.forEach((l) => l());
}

export function clearUserInfo(): void {
  removeCookie(COOKIES.userInfo);
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
