import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { COOKIES, UPLOAD_PURPOSES, type TUploadPurpose } from '@console/shared';
import type { Deps } from '../context';
import { AppError, describeAppError, toAppError } from '../errors';
import { publicPictureKey, UPLOAD_MAX_BYTES } from '../infra/uploads';
import { resolveSession } from '../modules/auth/session.service';
import { makeFacePhotosPrivate, readSignedFacePhoto, readSignedUploadedFacePhoto, type SignedPhoto } from '../modules/uploads/face-photos';
import { resolveUploadToken, storeUpload } from '../modules/uploads/upload.service';
import { checkOrigin } from './origin';
import { requestMeta } from './meta';

/**
 * `POST /api/uploads[?purpose=picture|face]`: one picture, multipart field `file`. Signed in
 * either by the web session cookie (same-origin only), or by an upload token of
 * `/manage/oss/token` (legacy clients) in the `X-Upload-Token` header or a form field `token`
 * sent before the file. Room pictures need `room.manage`, face photos `credential.manage`.
 * A face photo's answer also has `previewUrl`, a signed URL showing it (decision 015).
 * `GET /uploads/<hotel>/<file>`: the stored room pictures, public; never a face photo. Every file
 * comes from the install's file store (decision 024), whichever server or worker stored it.
 * `GET /api/faces/photo/<hotel>/<face>?exp&sig`, `GET /api/faces/upload/<hotel>/<file>?exp&sig`:
 * a face photo through its signed URL (`modules/uploads/face-photos.ts`); 404 for anything else.
 */
export async function registerUploads(app: FastifyInstance, deps: Deps) {
  // Face photos stored before decision 015 leave the public area before anything is served (only
  // ever in a directory store: the object store came after; decision 024).
  const moved = await (deps.files.kind === 'directory' ? makeFacePhotosPrivate(deps) : Promise.resolve(0)).catch((error: unknown) => {
    app.log.error({ err: error }, 'could not move face photos out of the public upload area');
    return 0;
  });
  if (moved) app.log.info({ moved }, 'face photos moved out of the public upload area');
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024 } });
    scope.post('/api/uploads', async (req, reply) => {
      const meta = requestMeta(req);
      let file: MultipartFile | undefined;
      try {
        const purpose = (req.query as { purpose?: unknown }).purpose ?? 'picture';
        if (!UPLOAD_PURPOSES.includes(purpose as TUploadPurpose))
          throw new AppError('VALIDATION', { messageKey: 'validation.invalid', fields: { purpose: 'validation.invalid' } });
        file = await req.file().catch((error: unknown) => {
          throw new AppError('VALIDATION', { messageKey: 'validation.pictureRequired', cause: error });
        });
        const field = file?.fields.token;
        const token = req.headers['x-upload-token'] ?? (field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined);
        let actor;
        if (typeof token === 'string') {
          // A token is never sent by a browser on its own, so it needs no origin check; the cookie does.
          actor = await resolveUploadToken(deps, token);
        } else {
          const cookie = req.cookies[COOKIES.session];
          checkOrigin(req, deps.config.publicOrigins, Boolean(cookie));
          actor = await resolveSession(deps, cookie, 'web');
        }
        if (!file) throw new AppError('VALIDATION', { messageKey: 'validation.pictureRequired' });
        const bytes = await file.toBuffer().catch((error: unknown) => {
          throw new AppError('PAYLOAD_TOO_LARGE', {
            messageKey: purpose === 'face' ? 'validation.faceImageTooLarge' : 'validation.pictureTooLarge',
            cause: error,
          });
        });
        return reply.send(await storeUpload(deps, actor, purpose as TUploadPurpose, bytes));
      } catch (error) {
        // A file left unread holds its request, and the connection, open: read the rest away.
        if (file && !file.file.readableEnded) file.file.resume();
        const app = toAppError(error);
        const status =
          app.code === 'UNAUTHENTICATED'
            ? 401
            : app.code === 'FORBIDDEN' || app.code === 'ORIGIN_REJECTED' || app.code === 'ACCOUNT_FROZEN'
              ? 403
              : app.code === 'PAYLOAD_TOO_LARGE'
                ? 413
                : app.code === 'INTERNAL'
                  ? 500
                  : 400;
        if (status === 500) req.log.error({ err: error }, 'upload failed');
        return reply.code(status).send({ error: describeAppError(app, meta.lang, deps.i18n) });
      }
    });
  });
  const sendPhoto = (reply: FastifyReply, photo: SignedPhoto | undefined) => {
    if (!photo) return reply.callNotFound();
    return reply
      .header('content-type', photo.type)
      .header('cache-control', `private, max-age=${photo.maxAge}`)
      .header('x-content-type-options', 'nosniff')
      .send(photo.bytes);
  };
  app.get('/api/faces/photo/:hotel/:face', async (req, reply) =>
    sendPhoto(reply, await readSignedFacePhoto(deps, req.params as { hotel: string; face: string }, req.query as Record<string, unknown>)),
  );
  app.get('/api/faces/upload/:hotel/:file', async (req, reply) =>
    sendPhoto(reply, await readSignedUploadedFacePhoto(deps, req.params as { hotel: string; file: string }, req.query as Record<string, unknown>)),
  );
  app.get('/uploads/*', async (req, reply) => {
    // Room pictures only: a face photo is in `faces/`, which this never serves (nor anything else).
    const picture = publicPictureKey(`/${(req.params as { '*': string })['*']}`);
    const file = picture && (await deps.files.open(picture.key));
    if (!picture || !file) return reply.callNotFound();
    // A picture's name is new for every upload, so it never changes.
    return reply
      .header('content-type', picture.type)
      .header('content-length', file.size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });
}
