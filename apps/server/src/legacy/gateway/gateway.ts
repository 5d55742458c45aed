import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context';
import { AppError } from '../../errors';
import { checkOrigin } from '../../http/origin';
import { bearerToken } from '../../http/status';
import { resolveSessionOrKey } from '../../modules/api-keys/api-key.service';
import { resolveSession } from '../../modules/auth/session.service';
import { authRoutes } from './auth';
import { cardRoutes } from './cards';
import { recordRoutes } from './records';
import { gatewayMeta, sendError, sendOk } from './reply';
import { roomRoutes } from './rooms';
import type { GatewayRoute } from './route';

/** Every route of the card-service gateway (docs/card-service-gateway.md lists them). */
export const GATEWAY_ROUTES: GatewayRoute[] = [...authRoutes, ...roomRoutes, ...cardRoutes, ...recordRoutes];

const PREFIXES = ['/auth', '/linQuan'];
/** Whether a request is the gateway's (its error shape is `{ code, msg, data }`, also for Fastify's own refusals). */
export const isGatewayRequest = (req: FastifyRequest) => PREFIXES.some((p) => req.url === p || req.url.startsWith(`${p}/`) || req.url.startsWith(`${p}?`));

/**
 * The request's fields: the query string, and the body's (JSON or a form) over it. The
 * `language` field only chooses the language of the answer.
 */
function requestFields(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new AppError('VALIDATION', { messageKey: 'gateway.errors.badBody' });
  }
  const { language: _q, ...query } = (req.query ?? {}) as Record<string, unknown>;
  const { language: _b, ...fields } = (body ?? {}) as Record<string, unknown>;
  return { ...query, ...fields };
}

/** Whether a browser page of this origin may read the gateway's answers: the console's own origins. */
function isConsoleOrigin(req: FastifyRequest, origin: string, allowed: string[]): boolean {
  try {
    checkOrigin(req, allowed, false);
    return Boolean(origin);
  } catch {
    return false;
  }
}

const CORS_HEADERS = 'authorization, content-type, language, accept-language, x-request-id';

function preflight(deps: Deps, req: FastifyRequest, reply: FastifyReply) {
  const origin = req.headers.origin;
  if (!origin || !isConsoleOrigin(req, origin, deps.config.publicOrigins)) return sendError(deps, req, reply, new AppError('ORIGIN_REJECTED'));
  return reply
    .code(204)
    .header('access-control-allow-methods', 'GET, POST, OPTIONS')
    .header('access-control-allow-headers', CORS_HEADERS)
    .header('access-control-max-age', '600')
    .send();
}

/**
 * The card-service gateway (spec §7 second API, issue 8 §6): `POST /auth/login` gives a bearer
 * token (a session of kind `gateway`), `/linQuan/*` need it, and every answer is JSON
 * `{ code, msg, data }` with code 200 on success and our documented codes otherwise. Each route
 * validates, calls the same services as tRPC and the legacy envelope (same tenancy, permissions
 * and audit), and shapes the answer. Browsers of the console's own origins (the request's host,
 * PUBLIC_ORIGINS) may read it across origins.
 */
export async function registerCardGateway(app: FastifyInstance, deps: Deps, routes: GatewayRoute[] = GATEWAY_ROUTES) {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      const origin = req.headers.origin;
      reply.header('vary', 'Origin');
      if (origin && isConsoleOrigin(req, origin, deps.config.publicOrigins)) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', 'x-request-id, retry-after, www-authenticate');
      }
    });

    // Fastify's own failures (a body that is not JSON, too large, of another type) answered like the rest.
    scope.setErrorHandler((error, req, reply) => {
      const code = (error as { code?: string }).code;
      const status = (error as { statusCode?: number }).statusCode;
      const mapped =
        code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? new AppError('PAYLOAD_TOO_LARGE', { cause: error })
          : code?.startsWith('FST_ERR_CTP') || status === 400 || status === 415
            ? new AppError('VALIDATION', { messageKey: 'gateway.errors.badBody', cause: error })
            : error;
      return sendError(deps, req, reply, mapped);
    });

    for (const route of routes) {
      scope.route({
        method: route.method,
        url: route.url,
        async handler(req, reply) {
          const meta = gatewayMeta(req);
          try {
            const fields = requestFields(req);
            let result;
            if (route.auth === 'bearer') {
              const token = bearerToken(req);
              if (!token) throw new AppError('UNAUTHENTICATED', { messageKey: 'gateway.errors.tokenMissing' });
              const actor = await resolveSessionOrKey(deps, token, (t) => resolveSession(deps, t, 'gateway'));
              AppError.assertAcceptedText(fields);
              const parsed = route.input.safeParse(fields);
              if (!parsed.success) throw AppError.validation(parsed.error);
              result = await route.handle({ deps, meta, actor }, parsed.data as never);
            } else {
              AppError.assertAcceptedText(fields);
              const parsed = route.input.safeParse(fields);
              if (!parsed.success) throw AppError.validation(parsed.error);
              result = await route.handle({ deps, meta }, parsed.data as never);
            }
            return sendOk(deps, req, reply, result.data, result.messageKey);
          } catch (error) {
            return sendError(deps, req, reply, error, route.fields);
          }
        },
      });
    }

    // Preflights, and any other path or method under the gateway's prefixes.
    for (const prefix of PREFIXES) {
      scope.all(`${prefix}/*`, async (req, reply) => {
        if (req.method === 'OPTIONS') return preflight(deps, req, reply);
        return sendError(deps, req, reply, new AppError('UNKNOWN_ACTION'));
      });
    }
  });
}
