import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agent';

describe('describeUserAgent', () => {
  it('reads the browser, its major version and the system of common user agents', () => {
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36')).toEqual({
      browser: 'Chrome',
      browserVersion: '156',
      os: 'Windows',
    });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari', browserVersion: '18', os: 'iOS' });
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toEqual({
      browser: 'Firefox',
      browserVersion: '133',
      os: 'Linux',
    });
    expect(
      describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0'),
    ).toEqual({ browser: 'Microsoft Edge', browserVersion: '131', os: 'macOS' });
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36')).toEqual({
      browser: 'Chrome',
      browserVersion: '130',
      os: 'Android',
    });
  });

  it('says nothing it cannot tell: no user agent, an HTTP library, garbage', () => {
    for (const ua of [null, undefined, '', '   ', 'okhttp/4.9.0', 'curl/8.5.0', '\u0000\ud800', '%s%n']) {
      expect(describeUserAgent(ua), String(ua)).toEqual({ browser: null, browserVersion: null, os: null });
    }
    // An app that names itself is shown by its name, on the system it says.
    expect(describeUserAgent('SmartLockApp/3.2 (iPhone; iOS 17.0; Scale/3.00)')).toEqual({ browser: 'SmartLockApp', browserVersion: '3', os: 'iOS' });
  });
});
