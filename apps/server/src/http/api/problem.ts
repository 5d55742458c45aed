import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { APP_ERROR_CODES } from '@console/shared';
import type { Deps, RequestMeta } from '../../context';
import { describeAppError, isUnexpected, toAppError } from '../../errors';
import { HTTP_STATUS_OF } from '../status';

export const PROBLEM_TYPE = 'application/problem+json';

/**
 * RFC 9457 problem details, the one error shape of the JSON API. `code` and `errno` are the error
 * catalogue's (packages/shared/src/errors.ts), the same a tRPC client and a legacy client get;
 * `detail` is the message in the request's language, `fields` a message per field.
 */
export const ZProblem = z
  .object({
    type: z.string().meta({ description: '`urn:console:problem:<code>`, one per catalogue code.' }),
    title: z.string().meta({ description: 'The catalogue code, as a short title.' }),
    status: z.number().int(),
    detail: z.string().meta({ description: "The message, in the request's language (Accept-Language; English when it names none)." }),
    instance: z.string().meta({ description: 'The request id (also in the x-request-id header).' }),
    code: z.enum(APP_ERROR_CODES as [string, ...string[]]),
    errno: z.number().int().meta({ description: "The legacy protocol's errno of the same error." }),
    reason: z.string().optional().meta({ description: 'A stable key of the reason (the message key).' }),
    fields: z.record(z.string(), z.string()).optional().meta({ description: 'Field path -> message, for a bad input.' }),
    retryAfterSeconds: z.number().optional(),
    details: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'What a program needs to act on the error, by name: for 409 CONFIRMATION_REQUIRED, `warnings` (`room_dirty`, `guest_in_other_room`) to send back in `acknowledge`, and `elsewhere`; for LOCK_FAILED, `reason`.',
    }),
  })
  .meta({ id: 'Problem' });
export type TProblem = z.infer<typeof ZProblem>;

/** Sends anything thrown as a problem; an unexpected one is logged and says only "internal". */
export function sendProblem(deps: Deps, req: FastifyRequest, reply: FastifyReply, meta: RequestMeta, error: unknown) {
  const app = toAppError(error);
  if (isUnexpected(app)) req.log.error({ err: error }, 'JSON API request failed');
  const data = describeAppError(app, meta.lang, deps.i18n);
  const status = HTTP_STATUS_OF[app.code];
  const body: TProblem = {
    type: `urn:console:problem:${app.code.toLowerCase()}`,
    title: app.code,
    status,
    detail: data.message,
    instance: String(req.id),
    code: data.code,
    errno: data.errno,
    ...(data.reason ? { reason: data.reason } : {}),
    ...(data.fields ? { fields: data.fields } : {}),
    ...(data.retryAfterSeconds !== undefined ? { retryAfterSeconds: data.retryAfterSeconds } : {}),
    ...(data.details ? { details: data.details } : {}),
  };
  if (data.retryAfterSeconds !== undefined) reply.header('retry-after', String(data.retryAfterSeconds));
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="api"');
  return reply.code(status).type(PROBLEM_TYPE).header('cache-control', 'no-store').send(JSON.stringify(body));
}
