import { z } from 'zod';
import { FACE_RULES } from '@console/shared';
import { UPLOAD_MAX_BYTES } from '../../infra/uploads';
import { createUploadToken } from '../../modules/uploads/upload.service';
import { sessionAction } from './action';
import { legacyTime } from './format';

/**
 * `/manage/oss/*`: the old console uploaded pictures to an object store with a short-lived policy
 * from `oss/token`. Here the token opens our own upload endpoint (docs/legacy-protocol.md, "Uploads").
 */
export const ossActions = [
  sessionAction({
    path: 'oss/token',
    input: z.object({}),
    services: [createUploadToken],
    async handle(ctx) {
      const { token, expiresAt, expiresIn } = await createUploadToken(ctx);
      return {
        token,
        host: '/api/uploads',
        field: 'file',
        expire_time: legacyTime(expiresAt, ctx.actor.timeZone),
        expires_in: expiresIn,
        max_size: UPLOAD_MAX_BYTES,
        face_max_size: FACE_RULES.imageMaxBytes,
      };
    },
  }),
];
