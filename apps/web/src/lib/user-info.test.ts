// @vitest-environment jsdom
import Cookies from 'js-cookie';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COOKIES } from '@console/shared';
import { clearUserInfo, loadUserInfoCodec, readUserInfo, writeUserInfo, type UserInfo } from './user-info';

const info: UserInfo = {
  id: 7,
  nickname: '前台小王',
  mobile: '13800000000',
  email: 'desk@hotel.test',
  avatar: null,
  apiKeyAuth: true,
  role: 'staff',
  permissions: ['customer.read'],
  hotel: { id: 3, name: 'Harbour', timeZone: 'Asia/Shanghai', currency: 'CNY' },
};

describe('the cipher of the stored user info', () => {
  it('is loaded on demand: nothing is stored before, a stored cookie reads as nobody until then', async () => {
    expect(() => writeUserInfo(info)).toThrow(/loadUserInfoCodec/);
    Cookies.set(COOKIES.userInfo, 'U2FsdGVkX1+stored-by-an-earlier-visit');
    expect(readUserInfo()).toBeNull();
    await loadUserInfoCodec();
    writeUserInfo(info);
    expect(readUserInfo()).toEqual(info);
    clearUserInfo();
  });
});

describe('stored user info', () => {
  beforeAll(() => loadUserInfoCodec());
  afterEach(() => clearUserInfo());

  it('is kept encrypted in the cookie smart_lock_userinfo and read back', () => {
    writeUserInfo(info);
    const raw = Cookies.get(COOKIES.userInfo)!;
    expect(raw).toBeTruthy();
    expect(raw).not.toContain('13800000000');
    expect(decodeURIComponent(raw)).not.toContain('apiKeyAuth');
    expect(readUserInfo()).toEqual(info);
  });

  it('keeps the same object when the same info is written again or another cookie changes, a new one when it changed (issue 18 §4)', async () => {
    writeUserInfo(info);
    const first = readUserInfo();
    expect(first).toEqual(info);
    // The layout writes what the server says on every visit: nothing that reads it re-renders.
    writeUserInfo(structuredClone(info));
    expect(readUserInfo()).toBe(first);
    await Promise.resolve();
    Cookies.set('sidebarStatus', '0');
    await Promise.resolve();
    expect(readUserInfo()).toBe(first);
    writeUserInfo({ ...info, nickname: '前台小李' });
    expect(readUserInfo()).not.toBe(first);
    expect(readUserInfo()?.nickname).toBe('前台小李');
    Cookies.remove('sidebarStatus');
  });

  it('counts as absent when missing, cleared or tampered with', () => {
    expect(readUserInfo()).toBeNull();
    writeUserInfo(info);
    clearUserInfo();
    expect(readUserInfo()).toBeNull();
    Cookies.set(COOKIES.userInfo, 'not-encrypted-json');
    expect(readUserInfo()).toBeNull();
  });
});
