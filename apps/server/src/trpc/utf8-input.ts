import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import { notUtf8BodyOf, notUtf8JsonFields, queryBytes } from '../http/utf8';

/**
 * The fields of a procedure's input that hold bytes that are not UTF-8 (issue 39 §1), wherever
 * tRPC reads it: the URL's `input` (a query, `search.query`'s text: percent-encoded bytes that
 * tRPC would decode to U+FFFD) or the JSON body (a mutation). In a batch (`a,b?batch=1`, the
 * input an object by call) only the fields of this procedure's own calls, named as in its input;
 * any other parameter of the URL by its name.
 */
export function notUtf8InputFields(req: FastifyRequest, procedure: string): string[] {
  const params = queryBytes(req.url);
  const others = params.flatMap(({ name, value }) => (name === undefined ? ['_'] : name === 'input' || isUtf8(value) ? [] : [name]));
  const input = params.find((p) => p.name === 'input')?.value;
  const fields = [...(input ? notUtf8JsonFields(input) : []), ...notUtf8BodyOf(req)];
  const batch = params.some((p) => p.name === 'batch' && Buffer.from(p.value).toString() === '1');
  if (!batch || fields.length === 0) return [...others, ...fields];
  const calls = String((req.params as { path?: unknown }).path ?? '').split(',');
  const own = new Set(calls.flatMap((name, i) => (name === procedure ? [String(i)] : [])));
  const ownFields = fields.flatMap((field) => {
    if (field === '_') return ['_'];
    const [index = '', ...rest] = field.split('.');
    return own.has(index) ? [rest.join('.') || '_'] : [];
  });
  return [...new Set([...others, ...ownFields])];
}
