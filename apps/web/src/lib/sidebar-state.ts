import Cookies from 'js-cookie';
import { COOKIES } from '@console/shared';

/** The sidebar's open state, kept in the cookie `sidebarStatus` ("1" open, "0" closed). */
export function readSidebarOpen(): boolean {
  return Cookies.get(COOKIES.sidebar) !== '0';
}

export function writeSidebarOpen(isOpen: boolean): void {
  Cookies.set(COOKIES.sidebar, isOpen ? '1' : '0', { expires: 365, sameSite: 'strict' });
}
