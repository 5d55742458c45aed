import { useSyncExternalStore } from 'react';
import { COOKIES } from '@console/shared';
import { pageCookies, readCookie, removeCookie, writeCookie } from './cookies';
import type { RouterOutputs } from './trpc-types';
import type * as UserInfoCodec from './user-info-codec';

/**
 * The stored user info (spec §3, §4): display data only (name, avatar, hotel, apiKeyAuth,
 * permissions), kept encrypted in the cookie `smart_lock_userinfo`. It is never a credential:
 * the session lives in an HttpOnly cookie the page cannot read, and the server checks it on every call.
 * The route guard and the menu read this cookie.
 */
export type UserInfo = Omit<RouterOutputs['auth']['me'], 'hotelCount' | 'mustChangePassword'> & {
  /** The account's number of hotels; absent from user info stored before it was added (then 1 is assumed). */
  hotelCount?: number;
  /** Never true once stored: the sign-in asks for the member's own password first (issue 39 §7). */
  mustChangePassword?: boolean;
};

const COOKIE_DAYS = 7;

function decode(value: string | undefined): UserInfo | null {
  if (!value) return null;
  if (!codec) {
    // A cookie that appeared after the start (signed in in another tab): read once the cipher is here.
    void loadUserInfoCodec();
    return null;
  }
  try {
    const json = codec.decryptUserInfo(value);
    const parsed = JSON.parse(json) as UserInfo;
    return typeof parsed?.id === 'number' && parsed.hotel ? parsed : null;
  } catch {
    return null;
  }
}

let cached: { cookies: string; raw: string | undefined; value: UserInfo | null } | undefined;
const listeners = new Set<() => void>();

type Codec = typeof UserInfoCodec;
let codec: Codec | undefined;
let loadingCodec: Promise<void> | undefined;

/**
 * Loads the cookie's cipher (lib/user-info-codec.ts). main.tsx awaits it before the first render
 * when the cookie is there; the sign-in page asks for it as it shows and awaits it before it stores
 * the user. Until it is loaded a cookie reads as no user info; once loaded, what reads it is told.
 */
export function loadUserInfoCodec(): Promise<void> {
  loadingCodec ??= import('./user-info-codec').then((module) => {
    codec = module;
    cached = undefined;
    listeners.forEach((l) => l());
  });
  return loadingCodec;
}

/** Whether the cookie is there at all (not whether it decrypts): what the start of the page decides on. */
export function hasStoredUserInfo(): boolean {
  return Boolean(readCookie(COOKIES.userInfo));
}

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
  if (!codec) throw new Error('the user info is stored only once loadUserInfoCodec() has resolved');
  const before = readUserInfo();
  const json = JSON.stringify(info);
  const value = codec.encryptUserInfo(json);
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
