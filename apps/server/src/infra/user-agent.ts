import Bowser from 'bowser';

/**
 * What a session's or an audit row's user agent says about the device, read with `bowser` (MIT, no
 * dependencies, about 8 kB gzipped, on the server only): the browser (and its major version) and
 * the operating system, for "Chrome 156 on Windows". A client that says nothing recognisable (a
 * legacy app's HTTP library, curl) gives nulls, which the console shows as "unknown device" in the
 * reader's language; the raw string stays available beside it.
 */
export interface DeviceInfo {
  browser: string | null;
  /** The major version ("156"), when the browser says one. */
  browserVersion: string | null;
  os: string | null;
}

export const UNKNOWN_DEVICE: DeviceInfo = { browser: null, browserVersion: null, os: null };

export function describeUserAgent(userAgent: string | null | undefined): DeviceInfo {
  const text = userAgent?.trim();
  if (!text) return UNKNOWN_DEVICE;
  try {
    const parsed = Bowser.parse(text);
    const browser = parsed.browser.name?.trim() || null;
    const major = parsed.browser.version?.split('.')[0]?.trim() || null;
    return { browser, browserVersion: browser && major && /^\d+$/.test(major) ? major : null, os: parsed.os.name?.trim() || null };
  } catch {
    return UNKNOWN_DEVICE;
  }
}
