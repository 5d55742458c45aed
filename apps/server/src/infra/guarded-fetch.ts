import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import { Agent, fetch, type Response } from 'undici';

/**
 * Every request the server makes to an address that a user typed (a calendar feed's URL today, a
 * webhook's later) goes through here (decision 041): the target's address is checked before any
 * connection, at the URL's literal address, at each address its name resolves to (the connection
 * then goes to the address checked, never to a second resolution), and again at each redirect,
 * followed here one by one. A refused address is one outcome, `address_refused`, whatever its port
 * or path: nothing is sent to it, so nothing of what answers there can be read from outside.
 */

/** Why a request failed: `address_refused`, no answer in time, an answer over the size limit, too many redirects, or anything else of the network. */
export type OutboundErrorCode = 'address_refused' | 'timeout' | 'too_large' | 'redirects' | 'network';

export class OutboundError extends Error {
  /** `detail` is for the server's log only (the range of a refused address): never shown, never stored. */
  constructor(
    readonly code: OutboundErrorCode,
    readonly detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'OutboundError';
  }
}

// ---------------------------------------------------------------------------------------------
// Addresses

type Bytes = Uint8Array;

/** The four bytes of a dotted IPv4 address as Node and the URL parser print it, or null. */
function v4Bytes(text: string): Bytes | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return Uint8Array.from(parts.map(Number));
}

/** The sixteen bytes of an IPv6 address (with `::`, and a dotted IPv4 tail), or null. */
function v6Bytes(address: string): Bytes | null {
  const text = address.replace(/%.*$/, '');
  if (!net.isIPv6(text)) return null;
  let tail: number[] = [];
  let head = text;
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const four = v4Bytes(dotted[1]!);
    if (!four) return null;
    tail = [(four[0]! << 8) | four[1]!, (four[2]! << 8) | four[3]!];
    head = text.slice(0, text.length - dotted[1]!.length);
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const group = (s: string) => (s === '' ? [] : s.split(':'));
  const left = group(halves[0]!);
  const right = halves.length === 2 ? group(halves[1]!) : [];
  if ([...left, ...right].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const given = left.length + right.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const words = [...left.map((g) => parseInt(g, 16)), ...Array<number>(8 - given).fill(0), ...right.map((g) => parseInt(g, 16)), ...tail];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  return bytes;
}

/**
 * The address a host names, as bytes, or null for a name: an IPv6 literal (bracketed or not), or
 * an IPv4 address in any form the URL parser reads as one (`0x7f000001`, `2130706433`, `127.1`,
 * `0177.0.0.1`: all 127.0.0.1, as fetch would connect to them).
 */
export function addressBytes(host: string): Bytes | null {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.includes(':')) return v6Bytes(bare);
  const direct = v4Bytes(bare);
  if (direct) return direct;
  try {
    return v4Bytes(new URL(`http://${bare}/`).hostname);
  } catch {
    return null;
  }
}

interface Range {
  bytes: Bytes;
  bits: number;
  name: string;
}

function range(cidr: string, name: string): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  const bytes = address.includes(':') ? v6Bytes(address) : v4Bytes(address);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, bits: Number(bits), name };
}

function inRange(bytes: Bytes, r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  const whole = r.bits >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== r.bytes[i]) return false;
  const rest = r.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[whole]! & mask) === (r.bytes[whole]! & mask);
}

/**
 * IPv4: IANA's special-purpose registry (every block not globally reachable), multicast and the
 * old 6to4 relay anycast. What is left is the public internet.
 */
const V4_REFUSED = [
  range('0.0.0.0/8', '"this network"'),
  range('10.0.0.0/8', 'private-use'),
  range('100.64.0.0/10', 'shared address space (CGNAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private-use'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  range('192.88.99.0/24', '6to4 relay anycast'),
  range('192.168.0.0/16', 'private-use'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  range('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'limited broadcast'),
  range('240.0.0.0/4', 'reserved'),
];

/**
 * IPv6: only global unicast (2000::/3) is reachable on the internet; inside it, IANA's blocks
 * that are not. Addresses carrying an IPv4 address are judged by it (see `embeddedV4`).
 */
const V6_GLOBAL = range('2000::/3', 'global unicast');
const V6_REFUSED = [
  range('2001::/23', 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'),
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'),
];
const V6_OUTSIDE = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible'),
  range('64:ff9b:1::/48', 'local-use IPv4/IPv6 translation'),
  range('100::/64', 'discard-only'),
  range('5f00::/16', 'segment routing'),
  range('fc00::/7', 'unique local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];
/** IPv6 blocks whose address carries an IPv4 one, and where: [range, offset of the four bytes]. */
const V6_CARRYING: [Range, number][] = [
  [range('::ffff:0:0/96', 'IPv4-mapped'), 12],
  [range('::ffff:0:0:0/96', 'IPv4-translated'), 12],
  [range('64:ff9b::/96', 'IPv4/IPv6 translation (NAT64)'), 12],
  [range('2002::/16', '6to4'), 2],
];

function embeddedV4(bytes: Bytes): { v4: Bytes; via: string } | null {
  for (const [r, offset] of V6_CARRYING) if (inRange(bytes, r)) return { v4: bytes.slice(offset, offset + 4), via: r.name };
  return null;
}

/** The special range an address is in, by IANA's registries, or null for a public address. */
function specialRange(bytes: Bytes): string | null {
  if (bytes.length === 4) return V4_REFUSED.find((r) => inRange(bytes, r))?.name ?? null;
  const carried = embeddedV4(bytes);
  if (carried) {
    const inner = specialRange(carried.v4);
    return inner ? `${carried.via} of ${inner}` : null;
  }
  if (!inRange(bytes, V6_GLOBAL)) return V6_OUTSIDE.find((r) => inRange(bytes, r))?.name ?? 'outside global unicast';
  return V6_REFUSED.find((r) => inRange(bytes, r))?.name ?? null;
}

const sameBytes = (a: Bytes, b: Bytes) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Where a test or an install says what is allowed, and where the machine's own addresses come from. */
export interface AddressPolicy {
  /** Every address is allowed (the install's OUTBOUND_PRIVATE_ADDRESSES): nothing is refused. */
  privateAddresses?: boolean;
  /** Addresses or CIDR ranges allowed although special or the machine's own (a test's server on 127.0.0.1). */
  allow?: readonly string[];
  /** The machine's interfaces (os.networkInterfaces, read at each check: an address may come or go). */
  interfaces?: () => NodeJS.Dict<os.NetworkInterfaceInfo[]>;
}

const allowed = (entry: string) => range(entry.includes('/') ? entry : `${entry}/${entry.includes(':') ? 128 : 32}`, 'allowed');

function ownAddresses(policy: AddressPolicy): Bytes[] {
  return Object.values((policy.interfaces ?? os.networkInterfaces)())
    .flatMap((list) => list ?? [])
    .map((i) => addressBytes(i.address))
    .filter((b): b is Bytes => b !== null);
}

/**
 * Why a request may not go to this host's address (a range's name, or "this machine's own
 * address"), or null when it may: a public address, a name (checked when resolved), or anything
 * with `privateAddresses`. An address carrying an IPv4 one (mapped, NAT64, 6to4) is judged by
 * both. For the server's log; the user sees `address_refused` only.
 */
export function addressRefusal(host: string, policy: AddressPolicy = {}): string | null {
  if (policy.privateAddresses) return null;
  const bytes = addressBytes(host);
  if (!bytes) return null;
  const carried = bytes.length === 16 ? embeddedV4(bytes)?.v4 : undefined;
  const forms = carried ? [bytes, carried] : [bytes];
  if (policy.allow?.some((entry) => forms.some((b) => inRange(b, allowed(entry))))) return null;
  const special = specialRange(bytes);
  if (special) return special;
  const own = ownAddresses(policy);
  if (forms.some((b) => own.some((o) => sameBytes(b, o)))) return "this machine's own address";
  return null;
}

/** Whether a host's address is refused (see `addressRefusal`). */
export const isRefusedAddress = (host: string, policy?: AddressPolicy) => addressRefusal(host, policy) !== null;

// ---------------------------------------------------------------------------------------------
// Requests

export interface OutboundPolicy extends AddressPolicy {
  /** Every address of a name (dns.lookup with `all` by default); a test gives names of its own. */
  resolve?: (hostname: string, family: 0 | 4 | 6) => Promise<{ address: string; family: number }[]>;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** For the whole request: every hop and the body. */
  timeoutMs: number;
  /** The largest body read (declared or counted); over it the request fails with `too_large`. */
  maxBytes: number;
  /** Redirects followed (each target checked like the first); one more is `redirects`. Default 5. */
  maxRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  /** The URL that answered, after redirects. */
  url: string;
  /** The body of a 2xx answer (within `maxBytes`); empty for any other status, whose body is not read. */
  body: Buffer;
}

/** A request through the guard: never to a refused address (see the module's comment). */
export type GuardedFetch = (url: string, request: OutboundRequest) => Promise<OutboundResponse>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers not carried to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

const systemResolve: NonNullable<OutboundPolicy['resolve']> = (hostname, family) =>
  new Promise((resolve, reject) => dns.lookup(hostname, { all: true, family }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** The OutboundError somewhere in an error's causes (undici wraps the lookup's error). */
function outboundErrorIn(error: unknown): OutboundError | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof OutboundError) return e;
  return undefined;
}

const asOutbound = (error: unknown): OutboundError => {
  const known = outboundErrorIn(error);
  if (known) return known;
  const name = error instanceof Error ? error.name : '';
  return new OutboundError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
};

/**
 * A guarded fetch with its own connection pool. Its connections resolve names through a lookup
 * that checks every address the name has and hands the connection exactly those (one refused:
 * the name is refused): a name cannot answer the check with one address and the connection with
 * another. A literal address is not looked up by the connection, so it is checked before.
 */
export function createGuardedFetch(policy: OutboundPolicy = {}): GuardedFetch {
  const resolve = policy.resolve ?? systemResolve;
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolve(hostname, family).then(
      (addresses) => {
        if (addresses.length === 0) return callback(new OutboundError('network', `${hostname} has no address`), '', 0);
        for (const { address } of addresses) {
          const refusal = addressRefusal(address, policy);
          if (refusal) return callback(new OutboundError('address_refused', `${hostname} -> ${address}: ${refusal}`), '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
  const dispatcher = new Agent({ connect: { lookup } });

  return async (url, request) => {
    const signal = AbortSignal.timeout(request.timeoutMs);
    const maxRedirects = request.maxRedirects ?? 5;
    let method = request.method ?? 'GET';
    let body = request.body;
    const headers = { ...request.headers };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new OutboundError('network', 'not a URL');
    }
    for (let hop = 0; ; hop++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new OutboundError('network', `protocol ${target.protocol}`);
      const refusal = addressRefusal(target.hostname, policy);
      if (refusal) throw new OutboundError('address_refused', `${target.hostname}: ${refusal}`);
      let response: Response;
      try {
        response = await fetch(target, { method, headers, body, redirect: 'manual', signal, dispatcher });
      } catch (error) {
        throw asOutbound(error);
      }
      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location) {
        await response.body?.cancel().catch(() => {});
        if (hop >= maxRedirects) throw new OutboundError('redirects');
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          throw new OutboundError('network', 'bad redirect');
        }
        if (response.status === 303 ? method !== 'HEAD' : (response.status === 301 || response.status === 302) && method === 'POST') {
          method = 'GET';
          body = undefined;
          for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
        }
        if (next.origin !== target.origin) for (const name of Object.keys(headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name];
        target = next;
        continue;
      }
      return { status: response.status, headers: response.headers, url: target.toString(), body: await readBody(response, request.maxBytes) };
    }
  };
}

/** A 2xx answer's body within `maxBytes`; any other answer's body is dropped unread. */
async function readBody(response: Response, maxBytes: number): Promise<Buffer> {
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    return Buffer.alloc(0);
  }
  if (Number(response.headers.get('content-length') ?? '0') > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw new OutboundError('too_large');
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new OutboundError('too_large');
      }
      chunks.push(value);
    }
  } catch (error) {
    throw asOutbound(error);
  }
  return Buffer.concat(chunks);
}
