// Brings @fastify/cookie's request and reply types (req.cookies, res.setCookie) to every program that imports the router.
import type {} from '@fastify/cookie';
import { TRPCError, initTRPC } from '@trpc/server';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { APP_ERRORS, COOKIES, findControlCharacters, type TAppErrorData } from '@console/shared';
import type { Actor, Deps, RequestMeta } from '../context';
import { AppError, describeAppError, toAppError } from '../errors';
import { checkOrigin } from '../http/origin';
import { requestMeta } from '../http/meta';
import { resolveSession } from '../modules/auth/session.service';

export function createContextFactory(deps: Deps) {
  return ({ req, res }: CreateFastifyContextOptions) => ({ deps, req, res, meta: requestMeta(req) as RequestMeta });
}
export type TContext = ReturnType<ReturnType<typeof createContextFactory>>;

const t = initTRPC.context<TContext>().create({
  errorFormatter({ shape, error, ctx }) {
    const app = error.cause instanceof AppError ? error.cause : toAppError(error.cause ?? error);
    const data: TAppErrorData | undefined = ctx ? describeAppError(app, ctx.meta.lang, ctx.deps.i18n) : undefined;
    return { ...shape, message: data?.message ?? shape.message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, app: data } };
  },
});

/** Every AppError leaves a procedure as the TRPCError code of APP_ERRORS, with the AppError as cause. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    const app = result.error.code === 'BAD_REQUEST' && !(cause instanceof AppError) ? toAppError(cause ?? result.error) : cause instanceof AppError ? cause : undefined;
    if (app && app.code !== 'INTERNAL') {
      throw new TRPCError({ code: APP_ERRORS[app.code].trpc, message: app.message, cause: app });
    }
  }
  return result;
});

/** Cookie-authenticated writes must come from the console's own origin (no cross-site writes). */
const sameOriginWrites = t.middleware(({ ctx, type, next }) => {
  if (type === 'mutation') checkOrigin(ctx.req, ctx.deps.config.publicOrigins, Boolean(ctx.req.cookies[COOKIES.session]));
  return next();
});

/** No field of any input may hold a control character (NUL and the like): a field error names each. */
const noControlCharacters = t.middleware(async ({ getRawInput, next }) => {
  const found = findControlCharacters(await getRawInput());
  if (found.length) throw AppError.controlCharacters(found);
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrors).use(sameOriginWrites).use(noControlCharacters);

export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor: Actor = await resolveSession(ctx.deps, ctx.req.cookies[COOKIES.session], 'web');
  return next({ ctx: { ...ctx, actor } });
});
