import Cookies from 'js-cookie';

/**
 * The page's cookies for the console's own code: `document.cookie` is read at most once a task (not
 * once per component: every tile of the board with a guest, the sidebar, the user menu read it as
 * they rendered, a tenth of the board's first render on a phone; issue 18 §4), and the cookies are
 * written through here so that the next read sees them. The copy is dropped at the next microtask
 * checkpoint: a cookie set by the server or another tab is seen from the next task on.
 */
let thisTask: string | undefined;

export function pageCookies(): string {
  if (thisTask === undefined) {
    thisTask = document.cookie;
    queueMicrotask(() => (thisTask = undefined));
  }
  return thisTask;
}

/** One cookie's value, decoded as js-cookie decodes it; undefined when there is none. */
export function readCookie(name: string): string | undefined {
  const all = pageCookies();
  if (!all) return undefined;
  for (const pair of all.split('; ')) {
    const parts = pair.split('=');
    try {
      if (decodeURIComponent(parts[0]!) !== name) continue;
      let value = parts.slice(1).join('=');
      if (value.startsWith('"')) value = value.slice(1, -1);
      return value.replace(/(%[\dA-F]{2})+/gi, decodeURIComponent);
    } catch {
      // A cookie that does not decode is not one of ours: as js-cookie, skip it.
    }
  }
  return undefined;
}

export function writeCookie(name: string, value: string, attributes: Cookies.CookieAttributes): void {
  Cookies.set(name, value, attributes);
  thisTask = undefined;
}

export function removeCookie(name: string): void {
  Cookies.remove(name);
  thisTask = undefined;
}
