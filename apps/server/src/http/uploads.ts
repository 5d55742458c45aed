import fs from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { COOKIES } from '@console/shared';
import type { Deps } from '../context';
import { AppError, describeAppError, toAppError } from '../errors';
import { UPLOAD_MAX_BYTES, storePicture } from '../infra/uploads';
import { resolveSession } from '../modules/auth/session.service';
import { requirePermission } from '../permissions';
import { checkOrigin } from './origin';
import { requestMeta } from './meta';

/**
 * `POST /api/uploads`: one picture (room photos), for a signed-in member who manages rooms.
 * `GET /uploads/<hotel>/<file>`: the stored pictures.
 */
export async function registerUploads(app: FastifyInstance, deps: Deps) {
  const dir = path.resolve(deps.config.uploadDir);
  fs.mkdirSync(dir, { recursive: true });
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 0 } });
    scope.post('/api/uploads', async (req, reply) => {
      const meta = requestMeta(req);
      try {
        checkOrigin(req, deps.config.publicOrigins, true);
        const actor = await resolveSession(deps, req.cookies[COOKIES.session], 'web');
        requirePermission(actor, 'room.manage');
        const file = await req.file();
        if (!file) throw new AppError('VALIDATION', { messageKey: 'validation.pictureRequired' });
        const bytes = await file.toBuffer().catch((error: unknown) => {
          throw new AppError('PAYLOAD_TOO_LARGE', { messageKey: 'validation.pictureTooLarge', cause: error });
        });
        const stored = await storePicture(dir, actor.hotelId, bytes);
        if (!stored) throw new AppError('VALIDATION', { messageKey: 'validation.pictureInvalid' });
        return reply.send(stored);
      } catch (error) {
        const app = toAppError(error);
        const status = app.code === 'UNAUTHENTICATED' ? 401 : app.code === 'FORBIDDEN' || app.code === 'ORIGIN_REJECTED' || app.code === 'ACCOUNT_FROZEN' ? 403 : app.code === 'PAYLOAD_TOO_LARGE' ? 413 : app.code === 'INTERNAL' ? 500 : 400;
        if (status === 500) req.log.error({ err: error }, 'upload failed');
        return reply.code(status).send({ error: describeAppError(app, meta.lang, deps.i18n) });
      }
    });
  });
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    setHeaders(res) {
      res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
}
