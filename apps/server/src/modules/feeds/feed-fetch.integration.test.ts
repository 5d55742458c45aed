/**
 * Reading a feed's text (modules/feeds/feed-fetch.ts): a manager names the URL, so unless the
 * install allows it (FEED_PRIVATE_ADDRESSES) the server refuses to read from inside its own
 * network, by a literal address, a name that resolves there, or a redirect that leads there.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, fetchFeedText, isPrivateAddress } from './feed-fetch';

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n';
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/moved') return res.writeHead(302, { location: '/calendar.ics' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
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
    expect(await code(fetchFeedText(`http://127.0.0.1:${port}/calendar.ics`))).toBe('private_address');
    expect(await code(fetchFeedText(`http://[::1]:${port}/calendar.ics`))).toBe('private_address');
    expect(await code(fetchFeedText(`http://[::ffff:127.0.0.1]:${port}/calendar.ics`))).toBe('private_address');
    expect(await code(fetchFeedText('http://169.254.169.254/latest/meta-data/'))).toBe('private_address');
  });

  it('is refused by a name that resolves inside the network', async () => {
    expect(await code(fetchFeedText(`http://localhost:${port}/calendar.ics`))).toBe('private_address');
  });

  it('is read when the install allows private addresses, following a redirect, but not a redirect loop', async () => {
    expect(await fetchFeedText(`http://127.0.0.1:${port}/calendar.ics`, { privateAddresses: true })).toBe(ICS);
    expect(await fetchFeedText(`http://localhost:${port}/moved`, { privateAddresses: true })).toBe(ICS);
    expect(await code(fetchFeedText(`http://127.0.0.1:${port}/loop`, { privateAddresses: true }))).toBe('network');
  });

  it('names the ranges it refuses', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '[::1]',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', 'example.com']) expect(isPrivateAddress(address), address).toBe(false);
  });
});
