// @vitest-environment jsdom
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { readCookie, removeCookie, writeCookie } from './cookies';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('page cookies (read once a task)', () => {
  afterEach(async () => {
    for (const name of Object.keys(Cookies.get())) Cookies.remove(name);
    await nextTask();
  });

  it('reads a value as js-cookie does: encoded, quoted, with = inside', async () => {
    Cookies.set('a', 'zh-CN');
    Cookies.set('b', '前台 小王;=x');
    document.cookie = 'c="quoted"';
    document.cookie = 'd=U2FsdGVkX1+abc/def==';
    await nextTask();
    for (const name of ['a', 'b', 'c', 'd', 'missing']) expect(readCookie(name), name).toBe(Cookies.get(name));
  });

  it('sees its own writes at once, and a cookie set elsewhere from the next task on', async () => {
    expect(readCookie('sidebarStatus')).toBeUndefined();
    writeCookie('sidebarStatus', '0', { sameSite: 'strict' });
    expect(readCookie('sidebarStatus')).toBe('0');
    Cookies.set('sidebarStatus', '1');
    expect(readCookie('sidebarStatus')).toBe('0');
    await nextTask();
    expect(readCookie('sidebarStatus')).toBe('1');
    removeCookie('sidebarStatus');
    expect(readCookie('sidebarStatus')).toBeUndefined();
  });
});
