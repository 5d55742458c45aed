import type { TFunction } from 'i18next';

/** What the server read in a user agent (apps/server/src/infra/user-agent.ts): nulls where it could not tell. */
export interface DeviceInfo {
  browser: string | null;
  browserVersion: string | null;
  os: string | null;
}

/**
 * A session's or an audit row's device as a person reads it, in the console's language: "Chrome
 * 156 on Windows", the browser or the system alone when only one is known, "Unknown device" when
 * the user agent says neither (the raw string is shown beside it as a hint).
 */
export function deviceLabel(device: DeviceInfo, t: TFunction): string {
  const browser = device.browser ? [device.browser, device.browserVersion].filter(Boolean).join(' ') : null;
  if (browser && device.os) return t('device.named', { browser, os: device.os });
  return browser ?? device.os ?? t('device.unknown');
}
