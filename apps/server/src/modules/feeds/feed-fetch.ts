import dns from 'node:dns';
import net from 'node:net';
import { FEED_LIMITS } from '@console/shared';
import { Agent, fetch, type Response } from 'undici';

/** Why reading a feed failed, as the console shows it (`feeds.errors.*`; `http_<status>` for an HTTP answer). */
export class FeedFetchError extends Error {
  constructor(readonly code: string) {
    super(code);
    this.name = 'FeedFetchError';
  }
}

/**
 * Addresses a feed may not be read from unless FEED_PRIVATE_ADDRESSES is on: "this network",
 * private (RFC 1918, unique local), shared (CGNAT), loopback, link-local (cloud metadata at
 * 169.254.169.254), benchmarking, multicast and reserved ranges.
 */
const PRIVATE = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address (v4, v6, or v4 mapped into v6) is one a feed may not be read from. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = net.isIP(bare);
  if (family === 0) return false;
  return PRIVATE.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** A name resolved for a feed's connection: refused when any of its addresses is private. */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as dns.LookupAddress[];
    if (list.length === 0 || list.some((a) => isPrivateAddress(a.address))) return callback(new FeedFetchError('private_address'), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

const guardedAgent = new Agent({ connect: { lookup: guardedLookup } });
const openAgent = new Agent();

/** The FeedFetchError somewhere in an error's causes (undici wraps the lookup's error). */
function feedErrorIn(error: unknown): FeedFetchError | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof FeedFetchError) return e;
  return undefined;
}

const MAX_REDIRECTS = 5;

/**
 * Reads a feed's text: a GET with a time limit and a size limit, following up to five redirects.
 * Any HTTP answer but 2xx, a timeout, a refused connection, an answer too large or (unless
 * `privateAddresses`) an address inside a private network, at any hop, is a FeedFetchError with
 * its code; nothing is changed by a read that fails.
 */
export async function fetchFeedText(url: string, options: { timeoutMs?: number; privateAddresses?: boolean } = {}): Promise<string> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? FEED_LIMITS.timeoutMs);
  let response: Response;
  let target = url;
  for (let hop = 0; ; hop++) {
    let parsed: URL;
    try {
      parsed = new URL(target);
    } catch {
      throw new FeedFetchError('network');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new FeedFetchError('network');
    // A literal address is connected to without a lookup: checked here.
    if (!options.privateAddresses && isPrivateAddress(parsed.hostname)) throw new FeedFetchError('private_address');
    try {
      response = await fetch(parsed, {
        headers: { accept: 'text/calendar, text/plain;q=0.8, */*;q=0.5', 'user-agent': 'smart-lock-console calendar reader' },
        redirect: 'manual',
        signal,
        dispatcher: options.privateAddresses ? openAgent : guardedAgent,
      });
    } catch (error) {
      const known = feedErrorIn(error);
      if (known) throw known;
      const name = error instanceof Error ? error.name : '';
      throw new FeedFetchError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) break;
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS) throw new FeedFetchError('network');
    target = new URL(location, parsed).toString();
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new FeedFetchError(`http_${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > FEED_LIMITS.bodyMaxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new FeedFetchError('too_large');
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > FEED_LIMITS.bodyMaxBytes) {
        await reader.cancel().catch(() => {});
        throw new FeedFetchError('too_large');
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    const name = error instanceof Error ? error.name : '';
    throw new FeedFetchError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}
