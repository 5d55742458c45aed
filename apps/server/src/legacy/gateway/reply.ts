import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context';
import { AppError, describeAppError, isUnexpected, toAppError } from '../../errors';
import { requestMeta } from '../../http/meta';
import { HTTP_STATUS_OF } from '../../http/status';

/** `code` of a gateway answer that succeeded (spec §7: "they expect code 200"). */
export const GATEWAY_OK = 200;

/** What every answer of the gateway is: `{ code, msg, data }`. */
export interface GatewayBody {
  code: number;
  msg: string;
  data: unknown;
}

/** The language of a gateway request: the `language` header, then a `language` field, then Accept-Language. */
export function gatewayMeta(req: FastifyRequest) {
  const fromBody = (req.body as { language?: unknown } | undefined)?.language;
  const fromQuery = (req.query as { language?: unknown } | undefined)?.language;
  return requestMeta(req, fromBody ?? fromQuery, 'gateway');
}

export function sendOk(deps: Deps, req: FastifyRequest, reply: FastifyReply, data: unknown, messageKey = 'common.operationSucceeded') {
  const meta = gatewayMeta(req);
  const body: GatewayBody = { code: GATEWAY_OK, msg: deps.i18n.t(meta.lang, messageKey), data: data ?? null };
  return reply.code(200).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(body);
}

/**
 * Field errors named as the gateway's client sent them (`validUntil` -> `endTime`): a service
 * validates its own input, and its names are not always the gateway's.
 */
function inGatewayNames(error: AppError, names: Record<string, string>): AppError {
  const { fields } = error.options;
  if (!fields) return error;
  const renamed = Object.fromEntries(
    Object.entries(fields).map(([path, message]) => [
      path
        .split('.')
        .map((segment) => names[segment] ?? segment)
        .join('.'),
      message,
    ]),
  );
  return new AppError(error.code, { ...error.options, fields: renamed });
}

/**
 * The answer to anything that failed: the gateway code as HTTP status and as `code`, the message
 * in the request's language, and in `data` our error code (`error`), the legacy errno, field
 * messages, the seconds to wait. Never a stack trace: an unexpected error is logged and answered
 * with the generic message.
 */
export function sendError(deps: Deps, req: FastifyRequest, reply: FastifyReply, error: unknown, fieldNames: Record<string, string> = {}) {
  const app = inGatewayNames(toAppError(error), fieldNames);
  if (isUnexpected(app)) req.log.error({ err: error }, 'card-service gateway call failed');
  const described = describeAppError(app, gatewayMeta(req).lang, deps.i18n);
  const code = HTTP_STATUS_OF[app.code];
  const data: Record<string, unknown> = { error: described.code, errno: described.errno };
  if (described.fields) data.fields = described.fields;
  if (described.retryAfterSeconds !== undefined) {
    data.retryAfterSeconds = described.retryAfterSeconds;
    reply.header('retry-after', String(described.retryAfterSeconds));
  }
  if (described.details) data.details = described.details;
  if (app.code === 'UNAUTHENTICATED') reply.header('www-authenticate', 'Bearer realm="card-service"');
  const body: GatewayBody = { code, msg: described.message, data };
  return reply.code(code).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(body);
}
