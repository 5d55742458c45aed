/**
 * The guarded fetch on real sockets (infra/guarded-fetch.ts, issue 27 finding 7): a name is
 * checked at its resolution and connected to at the address checked, a redirect is checked at
 * each hop, and what is allowed still reads, within its size and time limits. The servers listen
 * on 127.0.0.1 (allowed by the test) and 127.0.0.2 (refused: loopback), so a refused request is
 * seen not to arrive.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch, OutboundError, type OutboundPolicy, type OutboundRequest } from './guarded-fetch';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server that records what reaches it: `/to?status=&url=` redirects, `/big` is over the limit, `/slow` never answers. */
async function recordingServer(host: string) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const query = new URLSearchParams(req.url!.split('?')[1] ?? '');
      if (req.url!.startsWith('/to?')) return res.writeHead(Number(query.get('status') ?? 302), { location: query.get('url')! }).end();
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/big') return res.writeHead(200).end('x'.repeat(2_000));
      if (req.url === '/big-chunked') {
        res.writeHead(200);
        for (let i = 0; i < 20; i++) res.write('x'.repeat(100));
        return res.end();
      }
      if (req.url === '/slow') return; // never answers
      if (req.url === '/teapot') return res.writeHead(418).end('no');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${host}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return { seen, port, server, url: (path: string) => `http://${host}:${port}${path}` };
}

let allowed: Awaited<ReturnType<typeof recordingServer>>;
let refused: Awaited<ReturnType<typeof recordingServer>>;

beforeAll(async () => {
  allowed = await recordingServer('127.0.0.1');
  refused = await recordingServer('127.0.0.2');
});
afterAll(async () => {
  for (const { server } of [allowed, refused]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const LIMITS: OutboundRequest = { timeoutMs: 3_000, maxBytes: 1_000 };
/** A resolver of the test's names, and how often each was asked. */
function names(table: Record<string, string[] | (() => string[])>) {
  const asked: string[] = [];
  const resolve: OutboundPolicy['resolve'] = (hostname) => {
    asked.push(hostname);
    const entry = table[hostname];
    const list = typeof entry === 'function' ? entry() : entry;
    if (!list) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { asked, resolve };
}
const outcome = (promise: Promise<{ status: number; body: Buffer }>) =>
  promise.then(
    (r) => `${r.status} ${r.body.toString()}`,
    (error: unknown) => (error instanceof OutboundError ? error.code : String(error)),
  );

describe('the guarded fetch', () => {
  it('reads what is allowed, within its size and time limits, and returns a status other than 2xx without its body', async () => {
    const fetch = createGuardedFetch({ allow: ['127.0.0.1'] });
    expect(await outcome(fetch(allowed.url('/calendar.ics'), LIMITS))).toBe('200 hello from 127.0.0.1');
    expect(await outcome(fetch(allowed.url('/teapot'), LIMITS))).toBe('418 ');
    expect(await outcome(fetch(allowed.url('/big'), LIMITS))).toBe('too_large');
    expect(await outcome(fetch(allowed.url('/big-chunked'), LIMITS))).toBe('too_large');
    expect(await outcome(fetch(allowed.url('/slow'), { ...LIMITS, timeoutMs: 300 }))).toBe('timeout');
    expect(await outcome(fetch('ftp://127.0.0.1/calendar.ics', LIMITS))).toBe('network');
  });

  it('refuses a literal address before connecting, whatever the port: nothing arrives', async () => {
    const fetch = createGuardedFetch({ allow: ['127.0.0.1'] });
    const before = refused.seen.length;
    expect(await outcome(fetch(refused.url('/calendar.ics'), LIMITS))).toBe('address_refused');
    expect(await outcome(fetch('http://127.0.0.2:1/calendar.ics', LIMITS))).toBe('address_refused');
    expect(await outcome(fetch(`http://0x7f000002:${refused.port}/`, LIMITS))).toBe('address_refused');
    expect(await outcome(fetch(`http://[::ffff:127.0.0.2]:${refused.port}/`, LIMITS))).toBe('address_refused');
    expect(refused.seen.length).toBe(before);
  });

  it('refuses a name when any address it resolves to is refused, and connects to the address it checked', async () => {
    const { asked, resolve } = names({
      'feed.test': ['127.0.0.1'],
      'inside.test': ['127.0.0.2'],
      'both.test': ['127.0.0.1', '127.0.0.2'],
      'metadata.test': ['169.254.169.254'],
      'mapped.test': ['::ffff:127.0.0.2'],
    });
    const fetch = createGuardedFetch({ allow: ['127.0.0.1'], resolve });
    const before = refused.seen.length;
    expect(await outcome(fetch(`http://feed.test:${allowed.port}/a`, LIMITS))).toBe('200 hello from 127.0.0.1');
    for (const name of ['inside.test', 'both.test', 'metadata.test', 'mapped.test'])
      expect(await outcome(fetch(`http://${name}:${refused.port}/a`, LIMITS)), name).toBe('address_refused');
    expect(await outcome(fetch(`http://nowhere.test:${allowed.port}/a`, LIMITS))).toBe('network');
    expect(refused.seen.length).toBe(before);
    expect(asked).toContain('inside.test');
    // With no resolver given, the system's: `localhost` is loopback.
    expect(await outcome(createGuardedFetch()(`http://localhost:${allowed.port}/a`, LIMITS))).toBe('address_refused');
  });

  it('does not resolve a name twice: a name that changes its answer after the check is connected to at the first answer', async () => {
    // DNS rebinding: the first answer is allowed, every later one is refused.
    let answers = 0;
    const { asked, resolve } = names({ 'rebind.test': () => (answers++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']) });
    const fetch = createGuardedFetch({ allow: ['127.0.0.1'], resolve });
    const before = refused.seen.length;
    // Had the connection resolved the name again, it would have gone to 127.0.0.2, where nothing listens on this port.
    expect(await outcome(fetch(`http://rebind.test:${allowed.port}/a`, LIMITS))).toBe('200 hello from 127.0.0.1');
    expect(asked.filter((n) => n === 'rebind.test')).toHaveLength(1);
    expect(refused.seen.length).toBe(before);
  });

  it('checks every redirect: to a refused literal, a name resolving to one, or the metadata address, nothing arrives', async () => {
    const { resolve } = names({ 'inside.test': ['127.0.0.2'], 'feed.test': ['127.0.0.1'] });
    const fetch = createGuardedFetch({ allow: ['127.0.0.1'], resolve });
    const before = refused.seen.length;
    for (const target of [
      refused.url('/a'),
      `http://inside.test:${refused.port}/a`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${refused.port}/a`,
    ])
      for (const status of [301, 302, 303, 307, 308])
        expect(await outcome(fetch(allowed.url(`/to?status=${status}&url=${encodeURIComponent(target)}`), LIMITS)), `${status} ${target}`).toBe(
          'address_refused',
        );
    expect(refused.seen.length).toBe(before);
    // An allowed redirect is followed, by name too; a loop stops at the cap.
    expect(await outcome(fetch(allowed.url(`/to?url=${encodeURIComponent(`http://feed.test:${allowed.port}/b`)}`), LIMITS))).toBe('200 hello from 127.0.0.1');
    expect(await outcome(fetch(allowed.url('/loop'), LIMITS))).toBe('redirects');
    expect(await outcome(fetch(allowed.url('/loop'), { ...LIMITS, maxRedirects: 0 }))).toBe('redirects');
  });

  it('follows a redirect as a browser does: 303 becomes a GET, 307 keeps the method and body, credentials stay on their origin', async () => {
    const { resolve } = names({ 'other.test': ['127.0.0.1'] });
    const fetch = createGuardedFetch({ allow: ['127.0.0.1'], resolve });
    const post = { ...LIMITS, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', authorization: 'Bearer secret' } };
    const start = allowed.seen.length;
    await fetch(allowed.url(`/to?status=303&url=${encodeURIComponent('/after-303')}`), post);
    await fetch(allowed.url(`/to?status=307&url=${encodeURIComponent('/after-307')}`), post);
    await fetch(allowed.url(`/to?status=307&url=${encodeURIComponent(`http://other.test:${allowed.port}/elsewhere`)}`), post);
    const arrived = allowed.seen.slice(start).filter((s) => !s.url.startsWith('/to?'));
    expect(arrived.map((s) => [s.method, s.url, s.body, s.headers.authorization ?? null])).toEqual([
      ['GET', '/after-303', '', 'Bearer secret'],
      ['POST', '/after-307', '{"a":1}', 'Bearer secret'],
      ['POST', '/elsewhere', '{"a":1}', null],
    ]);
  });

  it('allows everything when the install says so', async () => {
    const fetch = createGuardedFetch({ privateAddresses: true });
    expect(await outcome(fetch(refused.url('/a'), LIMITS))).toBe('200 hello from 127.0.0.2');
    expect(await outcome(fetch(`http://localhost:${allowed.port}/a`, LIMITS))).toBe('200 hello from 127.0.0.1');
  });
});
