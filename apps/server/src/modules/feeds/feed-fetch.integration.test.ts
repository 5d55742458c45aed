/**
 * Reading a feed's text (modules/feeds/feed-fetch.ts, through infra/guarded-fetch.ts): a manager
 * names the URL, so unless the install allows it (OUTBOUND_PRIVATE_ADDRESSES, formerly
 * FEED_PRIVATE_ADDRESSES) the server refuses to read from its own machine or a special-purpose
 * range, by a literal address, a name that resolves there, or a redirect that leads there.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../../infra/guarded-fetch';
import { FeedFetchError, fetchFeedText } from './feed-fetch';

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n';
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/moved') return res.writeHead(302, { location: '/calendar.ics' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url?.startsWith('/to?')) return res.writeHead(302, { location: new URLSearchParams(req.url.slice(4)).get('url')! }).end();
    res.writeHead(200, { 'content-type': 'text/calendar' }).end(ICS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (error: unknown) => (error instanceof FeedFetchError ? error.code : String(error)),
  );

describe('a feed inside a private network', () => {
  it('is refused by its literal address, v4, v6 and v4 mapped into v6', async () => {
    expect(await code(fetchFeedText(`http://127.0.0.1:${port}/calendar.ics`))).toBe('address_refused');
    expect(await code(fetchFeedText(`http://[::1]:${port}/calendar.ics`))).toBe('address_refused');
    expect(await code(fetchFeedText(`http://[::ffff:127.0.0.1]:${port}/calendar.ics`))).toBe('address_refused');
    expect(await code(fetchFeedText('http://169.254.169.254/latest/meta-data/'))).toBe('address_refused');
  });

  it('is refused by a name that resolves inside the network', async () => {
    expect(await code(fetchFeedText(`http://localhost:${port}/calendar.ics`))).toBe('address_refused');
  });

  it('is read when the install allows private addresses, following a redirect, but not a redirect loop', async () => {
    expect(await fetchFeedText(`http://127.0.0.1:${port}/calendar.ics`, { privateAddresses: true })).toBe(ICS);
    expect(await fetchFeedText(`http://localhost:${port}/moved`, { privateAddresses: true })).toBe(ICS);
    expect(await code(fetchFeedText(`http://127.0.0.1:${port}/loop`, { privateAddresses: true }))).toBe('network');
  });
});

/** The machine's own addresses that a URL can name (a link-local one needs a zone, which a URL cannot carry). */
const ownAddresses = () =>
  Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((i) => !(i.family === 'IPv6' && (i.scopeid ?? 0) !== 0))
    .map((i) => i.address);
const urlOf = (address: string, port: number, path: string) => `http://${address.includes(':') ? `[${address}]` : address}:${port}${path}`;

/** A free port on an address: nothing listens on it when this returns. */
async function closedPort(address: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, address, resolve));
  const free = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}

describe("the console's own machine (issue 27, finding 7)", () => {
  it('is refused at every address of its interfaces, whatever the port and path: one outcome, no oracle', async () => {
    const addresses = ownAddresses();
    expect(addresses.length).toBeGreaterThan(0);
    const outcomes: Record<string, string> = {};
    for (const address of addresses) {
      // What a console answers on its own port: a 401 for the API, a health page that is no calendar.
      const own = createServer((req, res) => {
        if (req.url?.startsWith('/trpc/auth.me')) return res.writeHead(401).end('{}');
        if (req.url === '/readyz') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        res.writeHead(200, { 'content-type': 'text/calendar' }).end(ICS);
      });
      await new Promise<void>((resolve) => own.listen(0, address, resolve));
      const open = (own.address() as AddressInfo).port;
      try {
        for (const path of ['/trpc/auth.me', '/readyz', '/calendar.ics'])
          outcomes[urlOf(address, open, path)] = await code(fetchFeedText(urlOf(address, open, path), { timeoutMs: 2_000 }));
        const closed = await closedPort(address);
        outcomes[urlOf(address, closed, '/readyz')] = await code(fetchFeedText(urlOf(address, closed, '/readyz'), { timeoutMs: 2_000 }));
      } finally {
        await new Promise<void>((resolve) => own.close(() => resolve()));
      }
    }
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((url) => [url, 'address_refused'])));
  });

  it('refuses the documentation networks (TEST-NET-1, -2, -3) and the other reserved ranges the docs name', async () => {
    const outcomes: Record<string, string> = {};
    for (const url of ['http://192.0.2.1/', 'http://198.51.100.1/', 'http://203.0.113.1/', 'http://198.18.0.1/', 'http://240.0.0.1/', 'http://[2001:db8::1]/'])
      outcomes[url] = await code(fetchFeedText(url, { timeoutMs: 1_000 }));
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((url) => [url, 'address_refused'])));
  });
});

describe('a feed whose redirect leads to a refused address', () => {
  it('is refused at the redirect, on the same outcome, when only the first server is allowed', async () => {
    // The install allows the test's server on 127.0.0.1, nothing else: its redirect to the
    // machine's other addresses, to another loopback address or to the cloud's metadata is refused.
    const reader = createGuardedFetch({ allow: ['127.0.0.1'] });
    expect(await fetchFeedText(`http://127.0.0.1:${port}/moved`, { reader })).toBe(ICS);
    const targets = [...ownAddresses().filter((a) => a !== '127.0.0.1'), '127.0.0.2', '169.254.169.254'].map((a) => urlOf(a, port, '/calendar.ics'));
    for (const target of targets)
      expect(await code(fetchFeedText(`http://127.0.0.1:${port}/to?url=${encodeURIComponent(target)}`, { reader, timeoutMs: 2_000 })), target).toBe(
        'address_refused',
      );
  });
});
