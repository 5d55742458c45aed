import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COOKIES } from '@console/shared';
import type { AuthedContext, Deps } from '../context';
import { describeAppError, toAppError } from '../errors';
import { resolveSession } from '../modules/auth/session.service';
import { contentDisposition } from './exports';
import { requestMeta } from './meta';
import { HTTP_STATUS_OF } from './status';

/** A file a service made for the reader: its name, media type and bytes. */
export interface SessionFile {
  fileName: string;
  type: string;
  body: Buffer;
}

/**
 * `GET <url>?lang=`: a file a service makes for the console's web session (a report's days, an
 * invoice's PDF), as an attachment, never cached. The service checks the rules (the session's
 * rights, the hotel, the rooms); an error answers its status with the translated reason in `lang`
 * (a link the browser follows sends no header of ours): bad input 400, no session 401, no right
 * 403, not found 404.
 */
export function sessionFileRoute(
  app: FastifyInstance,
  deps: Deps,
  url: string,
  what: string,
  make: (ctx: AuthedContext, req: FastifyRequest) => Promise<SessionFile>,
) {
  app.get(url, async (req, reply) => {
    const meta = requestMeta(req, (req.query as Record<string, unknown>).lang);
    try {
      const actor = await resolveSession(deps, req.cookies[COOKIES.session], 'web');
      const file = await make({ deps, actor, meta }, req);
      return reply
        .header('content-type', file.type)
        .header('content-length', file.body.length)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    } catch (error) {
      const appError = toAppError(error);
      const status = HTTP_STATUS_OF[appError.code] ?? 500;
      if (status >= 500) req.log.error({ err: error }, `${what} failed`);
      return reply.code(status).send({ error: describeAppError(appError, meta.lang, deps.i18n) });
    }
  });
}
