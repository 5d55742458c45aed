import type { FastifyInstance } from 'fastify';
import { COOKIES, type TAppErrorData } from '@console/shared';

export interface TrpcResult<T> {
  status: number;
  data?: T;
  error?: { message: string; data: { code: string; httpStatus: number; app?: TAppErrorData } };
  setCookie?: string | string[];
}

/**
 * Calls a tRPC procedure over HTTP exactly as the web console does (no batching, no transformer):
 * queries as GET with `?input=`, mutations as POST with the input as JSON body.
 */
export function trpcClient(app: FastifyInstance, defaults: { ip?: string; lang?: string } = {}) {
  async function call<T>(
    type: 'query' | 'mutation',
    path: string,
    input: unknown,
    options: { token?: string; origin?: string | null; lang?: string; ip?: string } = {},
  ): Promise<TrpcResult<T>> {
    const headers: Record<string, string> = { language: options.lang ?? defaults.lang ?? 'en' };
    if (options.token) headers.cookie = `${COOKIES.session}=${options.token}`;
    const origin = options.origin === undefined ? 'http://localhost:3000' : options.origin;
    if (origin) headers.origin = origin;
    const res = await app.inject({
      method: type === 'query' ? 'GET' : 'POST',
      url: type === 'query' ? `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}` : `/trpc/${path}`,
      headers: { ...headers, host: 'localhost:3000', ...(type === 'mutation' ? { 'content-type': 'application/json' } : {}) },
      payload: type === 'mutation' ? JSON.stringify(input ?? {}) : undefined,
      remoteAddress: options.ip ?? defaults.ip ?? '127.0.0.1',
    });
    const body = res.json() as { result?: { data: T }; error?: TrpcResult<T>['error'] };
    return { status: res.statusCode, data: body.result?.data, error: body.error, setCookie: res.headers['set-cookie'] };
  }
  return {
    query: <T>(path: string, input?: unknown, options?: Parameters<typeof call>[3]) => call<T>('query', path, input, options),
    mutation: <T>(path: string, input?: unknown, options?: Parameters<typeof call>[3]) => call<T>('mutation', path, input, options),
  };
}

export function sessionTokenFrom(setCookie: string | string[] | undefined): string | undefined {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const cookie = list.find((c) => c.startsWith(`${COOKIES.session}=`));
  const value = cookie?.split(';')[0]?.split('=')[1];
  return value ? value : undefined;
}
