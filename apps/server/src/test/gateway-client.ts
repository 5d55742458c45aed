import type { FastifyInstance } from 'fastify';

export interface GatewayAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  code: number;
  msg: string;
  data: T;
  /** The body as sent, for checks that nothing leaks (stack traces, paths). */
  text: string;
}

export interface GatewayCallOptions {
  token?: string;
  /** The `language` header; `acceptLanguage` sends Accept-Language instead. */
  language?: string;
  acceptLanguage?: string;
  ip?: string;
  origin?: string;
  headers?: Record<string, string>;
  /** Send the body form-encoded instead of JSON. */
  form?: boolean;
}

/**
 * A card-service client as a third-party desk program would be: JSON over HTTP, the token of
 * `/auth/login` as `Authorization: Bearer`, reading `{ code, msg, data }`.
 */
export function gatewayClient(app: FastifyInstance, defaults: { ip?: string; language?: string } = {}) {
  async function call<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'OPTIONS',
    url: string,
    body?: Record<string, unknown>,
    options: GatewayCallOptions = {},
  ): Promise<GatewayAnswer<T>> {
    const headers: Record<string, string> = { host: 'localhost:3000', ...options.headers };
    const language = options.language ?? (options.acceptLanguage ? undefined : (defaults.language ?? 'en'));
    if (language) headers.language = language;
    if (options.acceptLanguage) headers['accept-language'] = options.acceptLanguage;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.origin) headers.origin = options.origin;
    let payload: string | undefined;
    let target = url;
    if (method === 'GET' && body) {
      target = `${url}?${new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
    } else if (method === 'POST') {
      if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(Object.entries(body ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
      } else {
        headers['content-type'] ??= 'application/json';
        payload = JSON.stringify(body ?? {});
      }
    }
    const res = await app.inject({ method, url: target, headers, payload, remoteAddress: options.ip ?? defaults.ip ?? '127.0.0.1' });
    const parsed = res.body
      ? (JSON.parse(res.body) as { code: number; msg: string; data: T })
      : ({ code: res.statusCode, msg: '', data: null } as { code: number; msg: string; data: T });
    return { status: res.statusCode, headers: res.headers, code: parsed.code, msg: parsed.msg, data: parsed.data, text: res.body };
  }

  return {
    call,
    get: <T = Record<string, unknown>>(url: string, query?: Record<string, unknown>, options?: GatewayCallOptions) => call<T>('GET', url, query, options),
    post: <T = Record<string, unknown>>(url: string, body?: Record<string, unknown>, options?: GatewayCallOptions) => call<T>('POST', url, body, options),
    /** Signs in and answers the bearer token. */
    async login(mobile: string, password: string, options: GatewayCallOptions = {}): Promise<string> {
      const res = await call<{ token: string }>('POST', '/auth/login', { mobile, password }, options);
      if (res.code !== 200) throw new Error(`gateway login failed: ${res.code} ${res.msg}`);
      return res.data.token;
    },
  };
}
