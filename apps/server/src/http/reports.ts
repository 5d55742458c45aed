import type { FastifyInstance } from 'fastify';
import { COOKIES, type TReportFileFormat } from '@console/shared';
import type { Deps } from '../context';
import { describeAppError, toAppError } from '../errors';
import { resolveSession } from '../modules/auth/session.service';
import { reportFile } from '../modules/reports/report-file';
import { contentDisposition } from './exports';
import { requestMeta } from './meta';

const STATUS: Partial<Record<string, number>> = { UNAUTHENTICATED: 401, ACCOUNT_FROZEN: 403, FORBIDDEN: 403, VALIDATION: 400, TOO_MANY_ATTEMPTS: 429 };

/**
 * `GET /api/reports/export?from=&to=&format=xlsx|csv&lang=`: a range of days' report as a file
 * (modules/reports/report-file.ts), for the web session of a manager of every room, headed in
 * `lang` (the console's language; a link the browser follows sends no header of ours). Bad input
 * is 400 with the translated reason, no session 401, no right 403.
 */
export function registerReports(app: FastifyInstance, deps: Deps) {
  app.get('/api/reports/export', async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const meta = requestMeta(req, query.lang);
    try {
      const actor = await resolveSession(deps, req.cookies[COOKIES.session], 'web');
      const file = await reportFile({ deps, actor, meta }, { from: query.from as string, to: query.to as string, format: query.format as TReportFileFormat });
      return reply
        .header('content-type', file.type)
        .header('content-length', file.body.length)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    } catch (error) {
      const appError = toAppError(error);
      const status = STATUS[appError.code] ?? 500;
      if (status === 500) req.log.error({ err: error }, 'report export failed');
      return reply.code(status).send({ error: describeAppError(appError, meta.lang, deps.i18n) });
    }
  });
}
