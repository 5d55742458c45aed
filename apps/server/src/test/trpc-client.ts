import type { FastifyInstance } from 'fastify';
import type { AnyProcedure, inferProcedureInput, inferProcedureOutput } from '@trpc/server';
import { COOKIES, type TAppErrorData } from '@console/shared';
import type { AppRouter } from '../trpc/router';

export interface TrpcResult<T> {
  status: number;
  data?: T;
  error?: { message: string; data: { code: string; httpStatus: number; app?: TAppErrorData } };
  setCookie?: string | string[];
}

/** Every procedure of the router by its dotted path (`stay.checkIn`), with its kind, input and output. */
type Flatten<R, Prefix extends string = ''> = {
  [K in keyof R & string]: R[K] extends AnyProcedure ? { [P in `${Prefix}${K}`]: R[K] } : Flatten<R[K], `${Prefix}${K}.`>;
}[keyof R & string];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
export type Procedures = UnionToIntersection<Flatten<AppRouter['_def']['record']>>;
type PathOf<Kind extends 'query' | 'mutation'> = { [P in keyof Procedures]: Procedures[P] extends { _def: { type: Kind } } ? P : never }[keyof Procedures] &
  string;
export type QueryPath = PathOf<'query'>;
export type MutationPath = PathOf<'mutation'>;
export type InputOf<P extends keyof Procedures> = inferProcedureInput<Procedures[P]>;
export type OutputOf<P extends keyof Procedures> = inferProcedureOutput<Procedures[P]>;

interface CallOptions {
  token?: string;
  origin?: string | null;
  lang?: string;
  ip?: string;
}

/**
 * Calls a tRPC procedure over HTTP exactly as the web console does (no batching, no transformer):
 * queries as GET with `?input=`, mutations as POST with the input as JSON body. Paths, inputs and
 * outputs are typed from the router, so a renamed procedure or a changed input fails to compile;
 * `raw` sends anything at all, for tests of bad input.
 */
export function trpcClient(app: FastifyInstance, defaults: { ip?: string; lang?: string } = {}) {
  async function call<T>(type: 'query' | 'mutation', path: string, input: unknown, options: CallOptions = {}): Promise<TrpcResult<T>> {
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
    if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      // A subscription (the live feed) answers with server-sent events; a refused input arrives as its
      // `serialized-error` event, which the client turns into the error with its HTTP status.
      const error = sseError<TrpcResult<T>['error']>(res.body);
      return { status: error ? error.data.httpStatus : res.statusCode, error, setCookie: res.headers['set-cookie'] };
    }
    const body = res.json() as { result?: { data: T }; error?: TrpcResult<T>['error'] };
    return { status: res.statusCode, data: body.result?.data, error: body.error, setCookie: res.headers['set-cookie'] };
  }
  return {
    query: <P extends QueryPath>(path: P, input?: InputOf<P>, options?: CallOptions) => call<OutputOf<P>>('query', path, input, options),
    mutation: <P extends MutationPath>(path: P, input?: InputOf<P>, options?: CallOptions) => call<OutputOf<P>>('mutation', path, input, options),
    /** Any input, typed or not: for tests of what the server does with bad input. */
    raw: {
      query: <P extends QueryPath>(path: P, input: unknown, options?: CallOptions) => call<OutputOf<P>>('query', path, input, options),
      mutation: <P extends MutationPath>(path: P, input: unknown, options?: CallOptions) => call<OutputOf<P>>('mutation', path, input, options),
    },
  };
}

/** The error a tRPC server-sent event stream ended with, if any. */
function sseError<E>(body: string): E | undefined {
  for (const block of body.split(/\n\n/)) {
    const lines = block.split('\n');
    if (!lines.includes('event: serialized-error')) continue;
    const data = lines
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
      .join('\n');
    return JSON.parse(data) as E;
  }
  return undefined;
}

export function sessionTokenFrom(setCookie: string | string[] | undefined): string | undefined {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const cookie = list.find((c) => c.startsWith(`${COOKIES.session}=`));
  const value = cookie?.split(';')[0]?.split('=')[1];
  return value ? value : undefined;
}
