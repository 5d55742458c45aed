import type { FastifyInstance } from 'fastify';
import { ZId } from '@console/shared';
import type { Deps } from '../context';
import { AppError } from '../errors';
import { receiveSeamWebhook } from '../modules/locks/accounts/seam-webhook.service';
import { sendHttpError } from './http-error';

/** Seam's events are small; a body over this is nobody's event. */
const BODY_LIMIT = 256 * 1024;

/**
 * `POST /api/seam/webhooks/<account id>`: where a hotel's Seam workspace sends its events (docs/seam.md,
 * "Webhooks"; the address shown on the lock accounts page). The body is kept as the bytes Seam signed
 * (every content type read as text, in this route's own scope), verified by the service: 204 for an
 * event taken (or ignored), 401 for a signature that does not verify, 404 for an account without a
 * webhook. Svix retries anything else, so nothing is lost by an error here.
 */
export async function registerSeamWebhook(app: FastifyInstance, deps: Deps) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { accountId: string } }>('/api/seam/webhooks/:accountId', async (req, reply) => {
      try {
        // An id as every face reads one (ZId), else no account.
        const id = ZId.safeParse(req.params.accountId);
        if (!id.success) throw new AppError('NOT_FOUND');
        const accountId = id.data;
        const headers = Object.fromEntries(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
        const result = await receiveSeamWebhook(deps, accountId, typeof req.body === 'string' ? req.body : '', headers);
        req.log.info({ accountId, ...result }, 'Seam webhook');
        return reply.code(204).send();
      } catch (error) {
        return sendHttpError(deps, req, reply, error);
      }
    });
  });
}
