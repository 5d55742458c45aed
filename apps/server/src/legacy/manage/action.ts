import type { z } from 'zod';
import type { Actor, AuthedContext, ServiceContext } from '../../context';

/**
 * One legacy `/manage/<path>` action: the payload schema (legacy field names), whether it needs
 * a session (`X-Token`), and the call into a domain service. Nothing else belongs here.
 */
export type LegacyAction =
  | {
      path: string;
      auth: 'public';
      input: z.ZodType;
      handle(ctx: ServiceContext, input: never): Promise<unknown>;
    }
  | {
      path: string;
      auth: 'session';
      input: z.ZodType;
      handle(ctx: AuthedContext, input: never): Promise<unknown>;
    };

export function publicAction<S extends z.ZodType>(path: string, input: S, handle: (ctx: ServiceContext, input: z.output<S>) => Promise<unknown>): LegacyAction {
  return { path, auth: 'public', input, handle: handle as LegacyAction['handle'] } as LegacyAction;
}

export function sessionAction<S extends z.ZodType>(
  path: string,
  input: S,
  handle: (ctx: AuthedContext & { actor: Actor }, input: z.output<S>) => Promise<unknown>,
): LegacyAction {
  return { path, auth: 'session', input, handle: handle as LegacyAction['handle'] } as LegacyAction;
}
