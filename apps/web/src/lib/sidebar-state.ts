import { COOKIES } from '@console/shared';
import { readCookie, writeCookie } from './cookies';

/** The sidebar's open state, kept in the cookie `sidebarStatus` ("1" open, "0" closed). */
export function readSidebarOpen(): boolean {
  return readCookie(COOKIES.sidebar) !== '0';
}

export function writeSidebarOpen(isOpen: boolean): void {
  writeCookie(COOKIES.sidebar, isOpen ? '1' : '0', { expires: 365, sameSite: 'strict' });
}
