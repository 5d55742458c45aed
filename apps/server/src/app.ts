import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Deps } from './context';
import { AppError } from './errors';
import { registerEventStream } from './http/event-stream';
import { registerExports } from './http/exports';
import { registerReports } from './http/reports';
import { endEventFeeds } from './modules/events/event-feed';
import { registerCalendarExport } from './modules/feeds/feed-export';
import { registerKeyPage } from './modules/key-page/key-page.http';
import { isJsonApiRequest, registerJsonApi, sendFrameworkProblem } from './http/api/api';
import { registerHealth } from './http/health';
import { fastifyRefusal, sendHttpError } from './http/http-error';
import { registerLockCallback } from './http/lock-callback';
import { registerSeamWebhook } from './http/seam-webhook';
import { registerWebApp } from './http/static';
import { registerUploads } from './http/uploads';
import { keepNotUtf8Bodies } from './http/utf8';
import { readerConnectSources } from './infra/readers';
import { isGatewayRequest, registerCardGateway } from './legacy/gateway/gateway';
import { sendError as sendGatewayError } from './legacy/gateway/reply';
import { registerLegacyManage, sendEnvelopeError } from './legacy/manage/envelope';
import { createContextFactory } from './trpc/init';
import { appRouter, type AppRouter } from './trpc/router';

/**
 * Every request is logged at debug, not at Fastify's info: a busy hotel's log (and the disk under
 * it) keeps what matters at info, and LOG_LEVEL=debug brings the requests back. A request that
 * failed is still logged at error (here, and by the error handler for a 5xx).
 */
class RequestsAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(error: Error | null, _request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`Route ${request.method}:${request.url} not found`);
  }
}

/**
 * Whatever failed outside a route's own handling (Fastify's refusals: a body too large, of a type
 * not read, not as long as it says, a path segment too long or not UTF-8; anything thrown) in the
 * shape of the face asked, with the right status (issue 39 §6): the legacy envelope, the JSON
 * API's problem, the gateway's `{ code, msg, data }`, else http/http-error.ts (tRPC's shape under /trpc).
 */
function sendRefusal(deps: Deps, req: FastifyRequest, reply: FastifyReply, error: unknown) {
  const refusal = fastifyRefusal(error);
  if (req.url.startsWith('/manage/')) {
    const app = refusal.error instanceof AppError && refusal.error !== error ? refusal.error : undefined;
    const mapped = app?.code === 'PAYLOAD_TOO_LARGE' ? app : app ? new AppError('BAD_ENVELOPE', { cause: error }) : error;
    return sendEnvelopeError(deps, req, reply, mapped);
  }
  if (isJsonApiRequest(req)) return sendFrameworkProblem(deps, req, reply, error as Error);
  if (isGatewayRequest(req)) return sendGatewayError(deps, req, reply, refusal.error);
  return sendHttpError(deps, req, reply, refusal.error, refusal.status);
}

export interface BuildAppOptions {
  /** Directory of the built web console; not served when absent. */
  webDistDir?: string;
}

/** The whole HTTP surface: tRPC, the legacy envelope, health, the web console. main.ts and tests both use it. */
export async function buildApp(deps: Deps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: { maxParamLength: 200 },
    // A URL Fastify refuses before any route (not UTF-8, a path segment too long): in the face's own shape.
    frameworkErrors: (error, req, reply) => sendRefusal(deps, req, reply as FastifyReply, error),
    logController: new RequestsAtDebug(),
  });

  // While stopping, answers close their connection, so keep-alive clients do not hold shutdown up.
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
    // The live feeds (server-sent events) would hold the close up for ever: they end, and the tabs resume elsewhere.
    endEventFeeds(deps);
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (isClosing) reply.header('connection', 'close');
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        // The local card-reader services (spec §7), and the reader simulator's when it runs on other ports.
        connectSrc: ["'self'", ...readerConnectSources(deps.config)],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    hsts: deps.config.cookieSecure ? undefined : false,
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);

  app.setErrorHandler((error, req, reply) => sendRefusal(deps, req, reply, error));

  registerHealth(app, deps);
  registerLockCallback(app, deps);
  await registerSeamWebhook(app, deps);

  // tRPC's JSON answers (a page of the room board is tens of kB) go out compressed when the request
  // accepts it: brotli at quality 4 (fast enough for every answer), gzip otherwise, nothing under
  // 1 kB. Only in tRPC's scope: the legacy envelope and the gateway answer as they always have, and
  // the web console's files come precompressed (http/static.ts). The live feed (`event.feed`,
  // text/event-stream) is never compressed: @fastify/compress leaves that type alone, so each event
  // leaves at once instead of waiting in a compressor's buffer.
  await app.register(async (trpc) => {
    await trpc.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
    // tRPC decodes a JSON body itself, bytes that are not UTF-8 as U+FFFD: such a body is kept for its procedures to refuse (trpc/utf8-input.ts).
    keepNotUtf8Bodies(trpc);
    // The live feed's tabs, written here once they may have it (decision 043); the rest goes on to tRPC.
    registerEventStream(trpc, deps);
    await trpc.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router: appRouter,
        createContext: createContextFactory(deps),
        onError({ error, path }) {
          if (error.code === 'INTERNAL_SERVER_ERROR') deps.log.error({ err: error.cause ?? error, path }, 'tRPC procedure failed');
        },
        // A refusal for too many attempts says when to try again in Retry-After too, as the page and the gateway do.
        responseMeta({ errors }) {
          const waits = errors.flatMap((e) =>
            e.cause instanceof AppError && e.cause.options.retryAfterSeconds !== undefined ? [e.cause.options.retryAfterSeconds] : [],
          );
          return waits.length ? { headers: { 'retry-after': String(Math.max(...waits)) } } : {};
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  });

  registerLegacyManage(app, deps);
  await registerCardGateway(app, deps);
  await registerJsonApi(app, deps);
  await registerUploads(app, deps);
  registerExports(app, deps);
  registerReports(app, deps);
  registerCalendarExport(app, deps);
  registerKeyPage(app, deps);

  // An address that is no page nor route: "this interface does not exist", in the product's shape.
  const notFound = (req: FastifyRequest, reply: FastifyReply) => {
    req.log.debug(`Route ${req.method}:${req.url} not found`);
    return sendHttpError(deps, req, reply, new AppError('UNKNOWN_ACTION'));
  };
  if (options.webDistDir) await registerWebApp(app, options.webDistDir, notFound);
  else app.setNotFoundHandler(notFound);
  return app;
}
