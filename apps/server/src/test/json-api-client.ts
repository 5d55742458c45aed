import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface JsonApiAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

export interface JsonApiCallOptions {
  key?: string;
  idempotencyKey?: string;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** The body exactly as sent (a body that is not JSON, a lone surrogate written by hand, bytes that are not UTF-8); `application/json` unless `headers` say another type. */
  raw?: string | Buffer;
  language?: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/**
 * A part of a URL, percent-encoded; a lone surrogate (which `encodeURIComponent` refuses and
 * `URLSearchParams` silently replaces) as the three bytes a careless client would send for it
 * (its WTF-8 form, which is not UTF-8), so that the server is asked about it as it is.
 */
function encodePart(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[^]/gu, (c) => {
    const code = c.charCodeAt(0);
    if (c.length === 1 && code >= 0xd800 && code <= 0xdfff)
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    return encodeURIComponent(c);
  });
}

/**
 * A client of the JSON API as an integrator's program would be, that holds every answer to the
 * OpenAPI document the server serves (ajv, JSON Schema 2020-12): an answer whose status the
 * operation does not document, or whose body does not match its schema, fails the test.
 * `covered` lists each operation and status seen, for the contract test to require all of them.
 */
export async function jsonApiClient(app: FastifyInstance) {
  const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  const document = res.json() as OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'openapi');
  const covered = new Set<string>();
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

  async function call<T = Record<string, unknown>>(
    method: Method,
    template: string,
    params: Record<string, string | number> = {},
    body?: unknown,
    options: JsonApiCallOptions = {},
  ): Promise<JsonApiAnswer<T>> {
    let url = `/api/v1${template.replace(/\{(\w+)\}/g, (_, name: string) => encodePart(String(params[name])))}`;
    if (options.query)
      url += `?${Object.entries(options.query)
        .map(([k, v]) => `${encodePart(k)}=${encodePart(String(v))}`)
        .join('&')}`;
    const headers: Record<string, string> = { 'accept-language': options.language ?? 'en', ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const answer = await app.inject({ method, url, headers, payload });
    const operation = document.paths[`/api/v1${template}`]?.[method.toLowerCase()];
    expect(operation, `${method} ${template} is documented`).toBeDefined();
    const status = String(answer.statusCode);
    const documented = operation!.responses[status] ? status : 'default';
    const response = operation!.responses[documented];
    expect(response, `${method} ${template} documents ${status}`).toBeDefined();
    const type = String(answer.headers['content-type']).split(';')[0]!;
    expect(Object.keys(response!.content ?? {}), `${method} ${template} ${status} is ${type}`).toContain(type);
    // A file (an invoice's PDF): its bytes, of the type documented.
    if (!type.endsWith('json')) {
      covered.add(`${method} ${template} ${status}`);
      return { status: answer.statusCode, headers: answer.headers, body: answer.rawPayload as T, text: '' };
    }
    const validate = ajv.getSchema(
      `openapi#/${pointer('paths', `/api/v1${template}`, method.toLowerCase(), 'responses', documented, 'content', type, 'schema')}`,
    )!;
    const parsed = JSON.parse(answer.body) as T;
    if (!validate(parsed))
      expect.fail(`${method} ${template} ${status} does not match the document: ${ajv.errorsText(validate.errors)}\n${answer.body.slice(0, 2000)}`);
    covered.add(`${method} ${template} ${status}`);
    return { status: answer.statusCode, headers: answer.headers, body: parsed, text: answer.body };
  }

  return {
    document,
    covered,
    get: <T = Record<string, unknown>>(template: string, params?: Record<string, string | number>, options?: JsonApiCallOptions) =>
      call<T>('GET', template, params, undefined, options),
    post: <T = Record<string, unknown>>(template: string, params: Record<string, string | number>, body: unknown, options?: JsonApiCallOptions) =>
      call<T>('POST', template, params, body, options),
    /** Any method: a route's own (`PATCH`, `PUT`), for the tests that go through every route. */
    send: <T = Record<string, unknown>>(
      method: Method,
      template: string,
      params: Record<string, string | number>,
      body: unknown,
      options?: JsonApiCallOptions,
    ) => call<T>(method, template, params, body, options),
  };
}
