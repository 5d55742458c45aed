import type { z } from 'zod';
import type { Actor, AuthedContext, ServiceContext } from '../../context';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a service function of any signature
type ServiceFunction = (...args: any[]) => unknown;

/** What a handler answers: the `data` of the reply and the i18n key of its `msg`. */
export interface GatewayResult {
  data: unknown;
  messageKey?: string;
}

interface RouteBase<S extends z.ZodType> {
  method: ('GET' | 'POST')[];
  /** The full URL: `/auth/login`, `/linQuan/writeRoomCard`. */
  url: string;
  /** The request's fields (query string and body together), in the gateway's own names. */
  input: S;
  /** The domain services the route calls (docs/card-service-gateway.md names them per call). */
  services: ServiceFunction[];
  /** Service field names and the gateway's names for them (`validUntil` -> `endTime`), for field errors. */
  fields?: Record<string, string>;
}

/**
 * One route of the card-service gateway: its input schema, whether it needs a bearer token, the
 * services it calls and the call. Like a legacy `/manage` action, nothing else belongs here:
 * every rule is the services' own.
 */
export type GatewayRoute =
  | (RouteBase<z.ZodType> & { auth: 'public'; handle(ctx: ServiceContext, input: never): Promise<GatewayResult> })
  | (RouteBase<z.ZodType> & { auth: 'bearer'; handle(ctx: AuthedContext & { actor: Actor }, input: never): Promise<GatewayResult> });

export function publicRoute<S extends z.ZodType>(
  definition: RouteBase<S> & { handle: (ctx: ServiceContext, input: z.output<S>) => Promise<GatewayResult> },
): GatewayRoute {
  return { ...definition, auth: 'public', handle: definition.handle as GatewayRoute['handle'] } as GatewayRoute;
}

export function bearerRoute<S extends z.ZodType>(
  definition: RouteBase<S> & { handle: (ctx: AuthedContext & { actor: Actor }, input: z.output<S>) => Promise<GatewayResult> },
): GatewayRoute {
  return { ...definition, auth: 'bearer', handle: definition.handle as GatewayRoute['handle'] } as GatewayRoute;
}
