import type { FastifyReply, FastifyRequest } from 'fastify';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { APP_ERRORS } from '@console/shared';
import type { Deps } from '../context';
import { AppError, describeAppError, isUnexpected, toAppError } from '../errors';
import { requestMeta } from './meta';
import { HTTP_STATUS_OF } from './status';

/**
 * The product's error answers outside the legacy envelope, the JSON API and the gateway (which
 * have their own shapes): under `/trpc`, tRPC's error shape as its procedures send it (`error.data.app`
 * the catalogue's description: trpc/init.ts's errorFormatter); elsewhere (uploads, exports, anything
 * else) `{ error: <the catalogue's description> }`. In the request's language, never a stack trace.
 */
export function sendHttpError(deps: Deps, req: FastifyRequest, reply: FastifyReply, error: unknown, status?: number) {
  const app = toAppError(error);
  if (isUnexpected(app)) req.log.error({ err: error }, 'request failed');
  const data = describeAppError(app, requestMeta(req).lang, deps.i18n);
  const httpStatus = status ?? HTTP_STATUS_OF[app.code];
  if (data.retryAfterSeconds !== undefined) reply.header('retry-after', String(data.retryAfterSeconds));
  const trpcCode = APP_ERRORS[app.code].trpc;
  const body =
    req.url === '/trpc' || req.url.startsWith('/trpc/') || req.url.startsWith('/trpc?')
      ? { error: { message: data.message, code: TRPC_ERROR_CODES_BY_KEY[trpcCode], data: { code: trpcCode, httpStatus, app: data } } }
      : { error: data };
  return reply.code(httpStatus).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(JSON.stringify(body));
}

/** The product's reason for each refusal Fastify makes itself (its `FST_ERR_*` codes). */
const FASTIFY_REFUSALS: Record<string, AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: new AppError('PAYLOAD_TOO_LARGE'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: new AppError('UNSUPPORTED_MEDIA_TYPE'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: new AppError('BAD_REQUEST', { messageKey: 'request.contentLengthMismatch' }),
  FST_ERR_MAX_PARAM_LENGTH: new AppError('BAD_REQUEST', { messageKey: 'request.urlTooLong' }),
  FST_ERR_BAD_URL: new AppError('BAD_REQUEST', { messageKey: 'request.urlInvalid' }),
};

/** What a client error of another status than the table's is. */
const BY_STATUS: Record<number, AppError['code']> = {
  404: 'UNKNOWN_ACTION',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * A failure Fastify (or one of its plugins) raised itself, before or around a route: a body too
 * large, of a type not read, not as long as it says, a JSON body that does not parse; a path
 * segment too long or not UTF-8. It becomes the product's error, answered with Fastify's own HTTP
 * status (413, 415, 400, 414). Anything else (an AppError, a server failure) is left as it is.
 */
export function fastifyRefusal(error: unknown): { error: unknown; status?: number } {
  if (error instanceof AppError) return { error };
  const code = (error as { code?: unknown }).code;
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  const status = typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500 ? statusCode : undefined;
  const known = typeof code === 'string' ? FASTIFY_REFUSALS[code] : undefined;
  if (known) return { error: new AppError(known.code, { ...known.options, cause: error }), status };
  if (status === undefined) return { error };
  return { error: new AppError(BY_STATUS[status] ?? 'BAD_REQUEST', { cause: error }), status };
}
