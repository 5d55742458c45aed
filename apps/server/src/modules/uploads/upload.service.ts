import { randomBytes } from 'node:crypto';
import { FACE_RULES, UPLOAD_TOKEN_TTL_SECONDS, type TPermission, type TUploadPurpose } from '@console/shared';
import type { Actor, AuthedContext, Deps } from '../../context';
import { AppError } from '../../errors';
import { sniffImage, storePicture } from '../../infra/uploads';
import { uploadedFacePhotoUrl } from './face-photos';
import { requirePermission } from '../../permissions';
import { hashToken, resolveSessionById } from '../auth/session.service';

/**
 * Uploads of pictures (room photos, face photos) into the upload store (`infra/uploads.ts`): room
 * pictures are served under `/uploads/`, face photos only through signed URLs (`face-photos.ts`,
 * decision 015). The web console sends its session cookie to `/api/uploads`; a legacy
 * client, which has no cookie, first asks `/manage/oss/token` for a short-lived upload token and
 * sends it with the file. Either way the file is recognised by its bytes, never by its name.
 */

/** Who may upload what: room photos belong to room management, face photos to credentials; everyone their own avatar (null). */
const PURPOSE_PERMISSION: Record<TUploadPurpose, TPermission | null> = {
  picture: 'room.manage',
  face: 'credential.manage',
  avatar: null,
  // A maintenance report's photo (docs/housekeeping.md): a room's state, kept like a room picture.
  housekeeping: 'housekeeping.work',
};

interface UploadTokenRecord {
  sessionId: number;
  kind: 'web' | 'legacy';
}

const tokenKey = (deps: Deps, token: string) => deps.key('upload-token', hashToken(token));

/**
 * A token that lets this session upload pictures for `UPLOAD_TOKEN_TTL_SECONDS` (any number of
 * them, like an object-store policy). Only its hash is kept; it dies with the session.
 */
export async function createUploadToken(ctx: AuthedContext, kind: 'web' | 'legacy' = 'legacy'): Promise<{ token: string; expiresAt: Date; expiresIn: number }> {
  const { deps, actor } = ctx;
  if (!Object.values(PURPOSE_PERMISSION).some((p) => p === null || actor.permissions.has(p))) throw new AppError('FORBIDDEN');
  const token = randomBytes(32).toString('base64url');
  const record: UploadTokenRecord = { sessionId: actor.sessionId, kind };
  await deps.redis.set(tokenKey(deps, token), JSON.stringify(record), 'EX', UPLOAD_TOKEN_TTL_SECONDS);
  return { token, expiresAt: new Date(Date.now() + UPLOAD_TOKEN_TTL_SECONDS * 1000), expiresIn: UPLOAD_TOKEN_TTL_SECONDS };
}

/** The actor an upload token was given to, if the token is live and so is its session. */
export async function resolveUploadToken(deps: Deps, token: string): Promise<Actor> {
  if (token.length > 256) throw new AppError('UNAUTHENTICATED', { messageKey: 'errors.UPLOAD_TOKEN_INVALID' });
  const raw = await deps.redis.get(tokenKey(deps, token));
  if (!raw) throw new AppError('UNAUTHENTICATED', { messageKey: 'errors.UPLOAD_TOKEN_INVALID' });
  const record = JSON.parse(raw) as UploadTokenRecord;
  return resolveSessionById(deps, record.sessionId, record.kind);
}

export interface UploadAnswer {
  /** The picture's path `/uploads/<hotel>/<uuid>.<ext>`: a room's `picture`, a face's `imageUrl`. */
  url: string;
  type: string;
  size: number;
  /** A face photo only: a signed URL that shows it for a while (the path alone shows nothing). */
  previewUrl?: string;
}

/**
 * Stores one uploaded file for `purpose`, after checking the actor may upload it and that its
 * bytes are a picture the purpose takes: any supported picture for a room (public), a JPG or PNG
 * of 300 KB to 2 MB for a face (what face modules accept), kept private.
 */
export async function storeUpload(deps: Deps, actor: Actor, purpose: TUploadPurpose, bytes: Buffer): Promise<UploadAnswer> {
  const permission = PURPOSE_PERMISSION[purpose];
  if (permission) requirePermission(actor, permission);
  const isFace = purpose === 'face';
  if (isFace) {
    if (bytes.length > FACE_RULES.imageMaxBytes) throw new AppError('PAYLOAD_TOO_LARGE', { messageKey: 'validation.faceImageTooLarge' });
    const kind = sniffImage(bytes);
    if (!kind || !(FACE_RULES.imageTypes as readonly string[]).includes(kind.type))
      throw new AppError('VALIDATION', { messageKey: 'validation.faceImageType' });
    if (bytes.length < FACE_RULES.imageMinBytes) throw new AppError('VALIDATION', { messageKey: 'validation.faceImageTooSmall' });
  }
  const stored = await storePicture(deps.files, actor.hotelId, bytes, isFace ? FACE_RULES.imageTypes : undefined, isFace ? 'face' : 'public');
  if (!stored) throw new AppError('VALIDATION', { messageKey: isFace ? 'validation.faceImageType' : 'validation.pictureInvalid' });
  if (!isFace) return { ...stored, size: bytes.length };
  return { ...stored, size: bytes.length, previewUrl: uploadedFacePhotoUrl(deps, actor.hotelId, stored.url) };
}
