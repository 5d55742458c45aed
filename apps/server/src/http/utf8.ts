import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { Transform, pipeline } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/**
 * Text arrives as UTF-8, or not at all (decision 025, issue 39 §1). Decoding bytes of another
 * encoding (an older property system's Latin-1 "Jos\xe9") as UTF-8 does not fail: each broken
 * sequence becomes U+FFFD, and the guest's name is stored damaged for good. Every face reads the
 * bytes a request sends through these, and refuses the request naming each field that holds them.
 */

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong form, no surrogate, nothing past U+10FFFF), or 0. */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  const within = (at: number, lo = 0x80, hi = 0xbf) => at < bytes.length && bytes[at]! >= lo && bytes[at]! <= hi;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return within(i + 1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) return within(i + 1, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf) && within(i + 2) ? 3 : 0;
  if (lead >= 0xf0 && lead <= 0xf4) return within(i + 1, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf) && within(i + 2) && within(i + 3) ? 4 : 0;
  return 0;
}

/** The bytes decoded, each run of bytes that are not UTF-8 replaced by `marker`. */
function decodedWith(bytes: Uint8Array, marker: string): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  let from = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceAt(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    text += decoder.decode(bytes.subarray(from, i)) + marker;
    while (i < bytes.length && sequenceAt(bytes, i) === 0) i++;
    from = i;
  }
  return text + decoder.decode(bytes.subarray(from));
}

/** The dotted paths (as field errors name them: `guests.0.name`) of the strings and keys of `value` that hold `marker`. */
function pathsHolding(value: unknown, marker: string, path: (string | number)[] = [], found: string[] = [], depth = 0): string[] {
  const here = () => path.join('.') || '_';
  if (typeof value === 'string') {
    if (value.includes(marker)) found.push(here());
  } else if (depth < 32 && Array.isArray(value)) {
    value.forEach((item, i) => pathsHolding(item, marker, [...path, i], found, depth + 1));
  } else if (depth < 32 && value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      // A key is named by where it stands, as its text cannot be shown (as decision 025's rule does).
      if (key.includes(marker)) found.push(here());
      else pathsHolding(item, marker, [...path, key], found, depth + 1);
    }
  }
  return [...new Set(found)];
}

/**
 * The fields of a JSON text, given as its bytes, that hold bytes that are not UTF-8: none when it
 * is all UTF-8; `_` (the whole of it) when they stand outside any string or the text is not JSON.
 */
export function notUtf8JsonFields(bytes: Uint8Array): string[] {
  if (isUtf8(bytes)) return [];
  // A mark no client can have sent (a random one), valid inside a JSON string.
  const marker = `\uE000${randomUUID()}\uE000`;
  let value: unknown;
  try {
    value = JSON.parse(decodedWith(bytes, marker));
  } catch {
    return ['_'];
  }
  const found = pathsHolding(value, marker);
  return found.length > 0 ? found : ['_'];
}

/** `%XX` as its byte, `+` as a space, anything else as itself (a URL is ASCII: Node refuses other bytes in it). */
function percentDecoded(part: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(part.slice(i + 1, i + 3))) {
      bytes.push(parseInt(part.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c === 0x2b ? 0x20 : c & 0xff);
  }
  return Uint8Array.from(bytes);
}

/** The query of a URL, each parameter as its name and the bytes of its value (percent-encoding undone). */
export function queryBytes(url: string): { name: string | undefined; value: Uint8Array }[] {
  const start = url.indexOf('?');
  if (start < 0) return [];
  return url
    .slice(start + 1)
    .split('&')
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = percentDecoded(equals < 0 ? pair : pair.slice(0, equals));
      return { name: isUtf8(name) ? Buffer.from(name).toString('utf8') : undefined, value: percentDecoded(equals < 0 ? '' : pair.slice(equals + 1)) };
    });
}

/** The parameters of a URL's query whose percent-encoding is not UTF-8 (`_` for a name that is not). */
export function notUtf8QueryFields(url: string): string[] {
  return [...new Set(queryBytes(url).flatMap(({ name, value }) => (name === undefined ? ['_'] : isUtf8(value) ? [] : [name])))];
}

/** The refusal: a field error for each field, the message naming the first ("UTF-8 is required"). */
export function notUtf8Error(fields: string[]): AppError {
  const named = fields.find((f) => f !== '_');
  return new AppError('VALIDATION', {
    messageKey: named ? 'validation.notUtf8Field' : 'validation.notUtf8',
    params: named ? { field: named } : undefined,
    fields: Object.fromEntries(fields.map((f) => [f, 'validation.notUtf8'])),
  });
}

/** Refuses a URL whose query is not UTF-8. */
export function assertUtf8Query(url: string): void {
  const fields = notUtf8QueryFields(url);
  if (fields.length > 0) throw notUtf8Error(fields);
}

/** The JSON bodies that were not all UTF-8, by request (kept by keepNotUtf8Bodies: a face whose body parser decodes them itself). */
const NOT_UTF8_BODIES = new WeakMap<FastifyRequest, Buffer>();

/**
 * For a scope whose JSON parser is not its own (tRPC's adapter decodes the body as UTF-8 with
 * replacement): each JSON body passes through unchanged, and one that is not all UTF-8 is kept,
 * for `notUtf8BodyOf` to find where. Fastify's body limit still applies to what passes.
 */
export function keepNotUtf8Bodies(scope: FastifyInstance) {
  scope.addHook('preParsing', async (req, _reply, payload) => {
    if (!/^application\/json\b/i.test(String(req.headers['content-type'] ?? ''))) return payload;
    const chunks: Buffer[] = [];
    let kept = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        // Past the body limit Fastify refuses the body: nothing more is kept of it.
        kept += chunk.length;
        if (kept <= req.routeOptions.bodyLimit) chunks.push(chunk);
        else chunks.length = 0;
        done(null, chunk);
      },
      flush(done) {
        const body = Buffer.concat(chunks);
        if (kept <= req.routeOptions.bodyLimit && !isUtf8(body)) NOT_UTF8_BODIES.set(req, body);
        chunks.length = 0;
        done();
      },
    });
    // An error of the request's stream (the client went away) reaches the parser through the tap.
    pipeline(payload, tap, () => {});
    return tap;
  });
}

/** The fields of a request's JSON body that hold bytes that are not UTF-8 (after keepNotUtf8Bodies). */
export function notUtf8BodyOf(req: FastifyRequest): string[] {
  const body = NOT_UTF8_BODIES.get(req);
  return body ? notUtf8JsonFields(body) : [];
}
