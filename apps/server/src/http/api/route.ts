import { z } from 'zod';
import type { TPermission } from '@console/shared';
import type { AuthedContext } from '../../context';

/** What a route's handler is given: its path parameters, query and body, each parsed by its schema. */
export interface ApiInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The `Idempotency-Key` of a write (required on every write). */
  idempotencyKey: string;
}

/**
 * One resource operation of the JSON API (`/api/v1`, docs/api.md): its schemas (the shared zod
 * schemas the tRPC procedures use, so the OpenAPI document is generated from the code it
 * describes), the scope a key needs (the service checks it; the document names it), and the call.
 * Like a gateway route, nothing else belongs here: every rule is the services' own.
 */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** OpenAPI path under `/api/v1`, parameters in braces: `/rooms/{roomId}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** The API-key scope the operation needs (checked by the service it calls); none: any key of the hotel (what every member reads). */
  permission?: TPermission;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The answer's schema: the tRPC procedure's output schema, or a page of its items. */
  response: z.ZodType;
  /** A document answered as a file of this media type, not JSON: the handler returns a `SessionFile` (a read only). */
  file?: 'application/pdf';
  status: 200 | 201;
  /** A write: `Idempotency-Key` required, a replay answers the first result. */
  write: boolean;
  handle(ctx: AuthedContext, input: ApiInput<unknown, unknown, unknown>): Promise<unknown>;
}

export function apiRoute<P extends z.ZodObject | undefined, Q extends z.ZodObject | undefined, B extends z.ZodType | undefined>(
  definition: Omit<ApiRoute, 'params' | 'query' | 'body' | 'handle' | 'status' | 'write'> & {
    params?: P;
    query?: Q;
    body?: B;
    status?: 200 | 201;
    handle(
      ctx: AuthedContext,
      input: ApiInput<
        P extends z.ZodType ? z.output<P> : undefined,
        Q extends z.ZodType ? z.output<Q> : undefined,
        B extends z.ZodType ? z.output<B> : undefined
      >,
    ): Promise<unknown>;
  },
): ApiRoute {
  return {
    ...definition,
    status: definition.status ?? 200,
    write: definition.method !== 'GET',
    handle: definition.handle as ApiRoute['handle'],
  };
}

/** The fields of an object schema less some (its refinements stay with the service, which parses its whole input again). */
export function fieldsOf<S extends z.ZodObject, K extends keyof S['shape'] & string>(schema: S, ...omit: K[]): z.ZodObject<Omit<S['shape'], K>> {
  const shape = { ...schema.shape } as Record<string, z.ZodType>;
  for (const key of omit) delete shape[key];
  return z.object(shape) as unknown as z.ZodObject<Omit<S['shape'], K>>;
}

/** The item schema of a list's output (`{ items: [...] }`): a page of the JSON API holds the same items. */
export const itemOf = <S extends z.ZodObject<{ items: z.ZodArray<z.ZodType> }>>(page: S) => page.shape.items.element as S['shape']['items']['element'];
