// Brings @fastify/cookie's request and reply types (req.cookies, res.setCookie) to every program that imports the router.
import type {} from '@fastify/cookie';
import { TRPCError, initTRPC } from '@trpc/server';
import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import { APP_ERRORS, COOKIES, type TAppErrorData } from '@console/shared';
import type { Actor, Deps, RequestMeta } from '../context';
import { AppError, describeAppError, toAppError } from '../errors';
import { checkOrigin } from '../http/origin';
import { requestMeta } from '../http/meta';
import { notUtf8Error } from '../http/utf8';
import { resolveSession } from '../modules/auth/session.service';
import { FEED_SSE } from '../modules/events/event-feed';
import { notUtf8InputFields } from './utf8-input';

export function createContextFactory(deps: Deps) {
  return ({ req, res }: CreateFastifyContextOptions) => ({ deps, req, res, meta: requestMeta(req) as RequestMeta });
}
export type TContext = ReturnType<ReturnType<typeof createContextFactory>>;

/**
 * The errors tRPC raises itself, before any procedure runs, for a client's mistake: an unknown
 * procedure (404), a body or input that is not JSON (400), the wrong method (405). Each is the
 * client's error with its own code and message, never "Something went wrong on the server".
 */
function clientMistake(error: TRPCError): AppError | undefined {
  if (error.cause instanceof AppError) return undefined;
  if (error.code === 'NOT_FOUND') return new AppError('UNKNOWN_ACTION', { cause: error });
  if (error.code === 'PARSE_ERROR') return new AppError('BAD_REQUEST', { cause: error });
  // A body Fastify or tRPC could not read (a SyntaxError; a bad input is a VALIDATION error instead).
  if (error.code === 'BAD_REQUEST' && toAppError(error.cause ?? error).code === 'INTERNAL') return new AppError('BAD_REQUEST', { cause: error });
  if (error.code === 'METHOD_NOT_SUPPORTED') return new AppError('METHOD_NOT_ALLOWED', { cause: error });
  if (error.code === 'PAYLOAD_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE', { cause: error });
  return undefined;
}

const t = initTRPC.context<TContext>().create({
  // The live feed (`event.feed`): a ping every 20 quiet seconds keeps proxies and balancers from
  // closing the stream. Its tabs are served by http/event-stream.ts, which writes the same events.
  sse: FEED_SSE,
  errorFormatter({ shape, error, ctx }) {
    const app = error.cause instanceof AppError ? error.cause : (clientMistake(error) ?? toAppError(error.cause ?? error));
    const data: TAppErrorData | undefined = ctx ? describeAppError(app, ctx.meta.lang, ctx.deps.i18n) : undefined;
    return { ...shape, message: data?.message ?? shape.message, data: { code: shape.data.code, httpStatus: shape.data.httpStatus, app: data } };
  },
});

/** Every AppError leaves a procedure as the TRPCError code of APP_ERRORS, with the AppError as cause. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    // An AppError, a bad input, or what the central mapping knows (a unique or exclusion violation
    // of the database is a conflict): the client's error with its own code, never a 500.
    const mapped = result.error.code === 'BAD_REQUEST' || result.error.code === 'INTERNAL_SERVER_ERROR' ? toAppError(cause ?? result.error) : undefined;
    const app = cause instanceof AppError ? cause : mapped;
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

/**
 * No field of any input may hold text the product does not accept (decision 025), nor bytes that
 * are not UTF-8 where the input was read (issue 39 §1: tRPC would read them as U+FFFD): a field error names each.
 */
const acceptedText = t.middleware(async ({ ctx, path, getRawInput, next }) => {
  const notUtf8 = notUtf8InputFields(ctx.req, path);
  if (notUtf8.length > 0) throw notUtf8Error(notUtf8);
  AppError.assertAcceptedText(await getRawInput());
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrors).use(sameOriginWrites).use(acceptedText);

export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor: Actor = await resolveSession(ctx.deps, ctx.req.cookies[COOKIES.session], 'web');
  return next({ ctx: { ...ctx, actor } });
});

/**
 * Changing the password and signing out: the only calls of a session whose account signed in with
 * a password it did not choose (issue 39 §7); every `authedProcedure` refuses it until then.
 */
export const passwordChangeProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor: Actor = await resolveSession(ctx.deps, ctx.req.cookies[COOKIES.session], 'web', { passwordChange: true });
  return next({ ctx: { ...ctx, actor } });
});
