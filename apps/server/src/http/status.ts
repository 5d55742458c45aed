import type { FastifyRequest } from 'fastify';
import type { TAppErrorCode } from '@console/shared';

/**
 * The HTTP status of each AppError code, for every face that answers in HTTP statuses: the JSON
 * API's problems (http/api/problem.ts) and the card-service gateway, whose body says it again as
 * its own `code` (docs/card-service-gateway.md).
 */
export const HTTP_STATUS_OF: Record<TAppErrorCode, number> = {
  VALIDATION: 400,
  BAD_ENVELOPE: 400,
  BAD_REQUEST: 400,
  CAPTCHA_INVALID: 400,
  CAPTCHA_REQUIRED: 400,
  SMS_CODE_INVALID: 400,
  OLD_PASSWORD_WRONG: 400,
  INVALID_CREDENTIALS: 401,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  ORIGIN_REJECTED: 403,
  NO_HOTEL: 403,
  ACCOUNT_FROZEN: 403,
  NOT_FOUND: 404,
  UNKNOWN_ACTION: 404,
  CONFLICT: 409,
  CONFIRMATION_REQUIRED: 409,
  DUPLICATE_REQUEST: 409,
  SUPERSEDED: 409,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_ATTEMPTS: 429,
  INTERNAL: 500,
  LOCK_FAILED: 502,
  LOCK_UNREACHABLE: 502,
  SERVICE_UNAVAILABLE: 503,
};

/** The token of `Authorization: Bearer <token>`, or undefined (the JSON API's keys, the gateway's sessions). */
export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  return /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header)?.[1];
}
