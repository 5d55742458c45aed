import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Server } from 'node:http';

/**
 * What every HTTP face of the simulator shares, as a real local reader service must behave for a
 * console served from another origin:
 * - CORS: any origin may call it (the answer names the caller's origin), and preflights
 *   (`OPTIONS`) are answered with the methods and headers asked for;
 * - Private Network Access: a preflight carrying `Access-Control-Request-Private-Network: true`
 *   (Chrome, a public page calling 127.0.0.1) is answered `Access-Control-Allow-Private-Network: true`;
 * - bodies as JSON, form-encoded or JSON sent as text/plain (the kinds a page can send);
 * - `X-Simulated: true` on every answer;
 * - "the reader software is not running": while `isRunning()` is false every connection is
 *   closed as soon as it is made, so a browser sees what it sees when nothing listens.
 */
export function createHttpApp(options: { logger?: boolean; isRunning: () => boolean }): FastifyInstance {
  // Closing drops every connection, idle or not (a browser's kept-alive ones, a call still waiting).
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  (app.server as Server).on('connection', (socket) => {
    if (!options.isRunning()) socket.destroy();
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, Object.fromEntries(new URLSearchParams(text)));
    }
  });
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    reply.header('access-control-allow-origin', origin ?? '*');
    if (origin) reply.header('vary', 'Origin');
    reply.header('x-simulated', 'true');
  });
  app.options('*', async (request, reply) => {
    reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
    reply.header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? 'content-type');
    reply.header('access-control-max-age', '600');
    if (request.headers['access-control-request-private-network'] === 'true') reply.header('access-control-allow-private-network', 'true');
    return reply.status(204).send();
  });
  return app;
}

/** Query string and body of a request, merged (the body wins). */
export function paramsOf(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
  return { ...query, ...body };
}

export const delay = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
