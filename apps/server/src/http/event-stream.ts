import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TDomainEvent } from '@console/shared';
import { COOKIES } from '@console/shared';
import type { Actor, Deps } from '../context';
import { AppError } from '../errors';
import { resolveSession, resolveSessionById } from '../modules/auth/session.service';
import { eventFeed, FEED_SSE, feedInput } from '../modules/events/event-feed';
import { sendHttpError } from './http-error';

/**
 * The live feed's tabs (`GET /trpc/event.feed`, decision 043). The feed is the tRPC subscription
 * `event.feed` (trpc/event.router.ts: its input, its types, the web console's
 * httpSubscriptionLink); a tab that may have it (a live console session, a good input) is served
 * here, writing the same server-sent events as tRPC's SSE producer (`connected`, each gathering as
 * `data:` with the `id:` of its last event, `ping` after a quiet spell), each gathering's bytes
 * made once for every tab of the process that sees the whole hotel, and one write per tab per
 * gathering. A tab that may not have it (no session, a frozen account, a bad input) is refused
 * here too, with its HTTP status before any stream: tRPC's producer would answer 200 and then an
 * error event.
 *
 * Where tRPC's producer, once the feed ends, would send `return` (which tells the client to stop for
 * good), this ends the response: the browser's EventSource connects again (to another server when
 * this one is stopping) with the `Last-Event-ID` it holds, and resumes; a session that ended is
 * then refused (401).
 */

const PATH = '/trpc/event.feed';
/** The most a tab may have waiting unsent (a stalled connection): past it the stream ends, and the tab resumes from its last event. */
const MAX_BUFFERED_BYTES = 1 << 20;

/** The bytes of a gathering, once per array: every tab of the process seeing the whole hotel is handed the same array. */
const frames = new WeakMap<TDomainEvent[], Buffer>();
function frameOf(events: TDomainEvent[]): Buffer {
  let frame = frames.get(events);
  if (!frame) {
    frame = Buffer.from(`data: ${JSON.stringify(events)}\nid: ${events[events.length - 1]!.id}\n\n\n`);
    frames.set(events, frame);
  }
  return frame;
}
const CONNECTED = `event: connected\ndata: ${JSON.stringify(FEED_SSE.client)}\n\n\n`;
const PING = 'event: ping\ndata: \n\n\n';

/** Where the tab resumes: the input's `lastEventId`, else the EventSource's own header or query (as tRPC reads it). */
function lastEventIdOf(req: FastifyRequest): { ok: true; lastEventId: string | null } | { ok: false; error: AppError } {
  const query = req.query as Record<string, unknown>;
  let input: unknown;
  if (typeof query.input === 'string') {
    try {
      input = JSON.parse(query.input);
    } catch (error) {
      return { ok: false, error: new AppError('BAD_REQUEST', { cause: error }) };
    }
  }
  const fromRequest = req.headers['last-event-id'] ?? query.lastEventId ?? query['Last-Event-Id'];
  if (fromRequest !== undefined && fromRequest !== '') {
    if (input === undefined || input === null) input = { lastEventId: fromRequest };
    else if (typeof input === 'object' && !Array.isArray(input)) input = { ...input, lastEventId: fromRequest };
  }
  // The rule every transport applies before its schema (decision 025): text no field accepts.
  try {
    AppError.assertAcceptedText(input);
  } catch (error) {
    return { ok: false, error: error as AppError };
  }
  const parsed = feedInput.safeParse(input);
  return parsed.success ? { ok: true, lastEventId: parsed.data?.lastEventId ?? null } : { ok: false, error: AppError.validation(parsed.error) };
}

/**
 * Serves the tab, or refuses it before any stream is opened (issue 39 §6): no session, a session
 * that ended, a frozen account, a bad input each answer their status (401, 403, 400) in tRPC's error
 * shape, as any procedure's refusal, and no `200` followed by an error event.
 */
async function serve(deps: Deps, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  let actor: Actor;
  try {
    actor = await resolveSession(deps, req.cookies[COOKIES.session], 'web');
  } catch (error) {
    return void sendHttpError(deps, req, reply, error);
  }
  const input = lastEventIdOf(req);
  if (!input.ok) return void sendHttpError(deps, req, reply, input.error);
  reply.hijack();
  const res = reply.raw;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
    'x-request-id': String(req.id),
  });
  res.write(CONNECTED);
  const controller = new AbortController();
  const stop = () => controller.abort();
  res.on('close', stop);
  let wroteAt = Date.now();
  const ping = setInterval(() => {
    if (Date.now() - wroteAt < FEED_SSE.ping.intervalMs) return;
    res.write(PING);
    wroteAt = Date.now();
  }, FEED_SSE.ping.intervalMs / 4);
  try {
    const feed = eventFeed(deps, actor, {
      lastEventId: input.lastEventId,
      signal: controller.signal,
      reauthenticate: () => resolveSessionById(deps, actor.sessionId, 'web', { touch: false }),
    });
    for await (const events of feed) {
      if (res.writableLength > MAX_BUFFERED_BYTES) break;
      res.write(frameOf(events));
      wroteAt = Date.now();
    }
  } catch (error) {
    // A session that ended, or the database gone: the tab connects again, and tRPC answers that request.
    req.log.debug({ err: error }, 'event feed ended');
  } finally {
    clearInterval(ping);
    res.off('close', stop);
    res.end();
  }
}

/** Registers the feed's tabs on the tRPC prefix's scope (app.ts), before tRPC's own handler. */
export function registerEventStream(app: FastifyInstance, deps: Deps): void {
  app.addHook('onRequest', (req, reply, done) => {
    if (req.method !== 'GET' || req.url.split('?', 1)[0] !== PATH) return done();
    // Answered here in every case: tRPC's own producer would open the stream before refusing.
    serve(deps, req, reply).catch((error: unknown) => done(error as Error));
  });
}
