import type { FastifyInstance } from 'fastify';
import { COOKIES, toAcceptedText } from '@console/shared';
import type { Deps } from '../context';
import { describeAppError, toAppError } from '../errors';
import { resolveSession } from '../modules/auth/session.service';
import { exportDownload } from '../modules/export/export.service';
import { requestMeta } from './meta';
import { HTTP_STATUS_OF } from './status';

/** `filename*` of Content-Disposition (RFC 6266 / 5987), with a plain ASCII `filename` beside it. */
export function contentDisposition(name: string): string {
  // encodeURIComponent throws on an unpaired surrogate.
  const fileName = toAcceptedText(name);
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * `GET /api/exports/<id>`: the .xlsx of a finished export (modules/export), for the web session
 * that made it, in the same hotel, until it expires. Anything else (another operator's export,
 * another hotel's, an unknown or expired one) is 404; no session is 401.
 */
export function registerExports(app: FastifyInstance, deps: Deps) {
  app.get('/api/exports/:id', async (req, reply) => {
    const meta = requestMeta(req);
    try {
      const actor = await resolveSession(deps, req.cookies[COOKIES.session], 'web');
      const found = await exportDownload(deps, actor, (req.params as { id: string }).id);
      // From the file store: whichever worker wrote it, every server reads it.
      const file = found && (await deps.files.open(found.key));
      if (!found || !file) return reply.code(404).send({ error: deps.i18n.t(meta.lang, 'export.errors.notFound') });
      return reply
        .header('content-type', found.type)
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition(found.fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream);
    } catch (error) {
      const appError = toAppError(error);
      const status = HTTP_STATUS_OF[appError.code];
      if (status >= 500) req.log.error({ err: error }, 'export download failed');
      return reply.code(status).send({ error: describeAppError(appError, meta.lang, deps.i18n) });
    }
  });
}
