import { createHmac, timingSafeEqual } from 'node:crypto';
import { FACE_PHOTO_URL_TTL_SECONDS, UPLOAD_PATH_REGEX } from '@console/shared';
import type { Deps } from '../../context';
import { makeFacePhotoPrivate, readStoredPictureBytes } from '../../infra/uploads';

/**
 * Face photos are personal data: never served as they are, only through short-lived signed URLs
 * (decision 015). A URL is an HMAC-SHA256 (key FACE_PHOTO_SECRET) of what it shows, the hotel and
 * its expiry: `/api/faces/photo/<hotel>/<face>` for a face of the face database (the face must
 * still exist in that hotel), `/api/faces/upload/<hotel>/<uuid>.<ext>` for a photo just uploaded
 * for a face (the add-face dialog's preview), each with `?exp=<unix seconds>&sig=<base64url>`.
 *
 * The expiry is rounded up to the next `EXPIRY_STEP_SECONDS`, so a URL is valid for 10 to 15
 * minutes and the same photo has the same URL for 5 minutes: a list asked for again in that time
 * shows the photos from the browser's cache.
 */
const EXPIRY_STEP_SECONDS = 300;
const SIG_LENGTH = 43;

type Signed = { kind: 'face'; hotelId: number; faceId: number } | { kind: 'upload'; hotelId: number; file: string };

const message = (s: Signed, exp: number) =>
  s.kind === 'face' ? `face-photo\n${s.hotelId}\n${s.faceId}\n${exp}` : `face-upload\n${s.hotelId}\n${s.file}\n${exp}`;
const sign = (secret: string, s: Signed, exp: number) => createHmac('sha256', secret).update(message(s, exp)).digest('base64url');

/** When a URL signed now expires (unix seconds). */
export function facePhotoUrlExpiry(nowMs = Date.now()): number {
  return Math.ceil((nowMs / 1000 + FACE_PHOTO_URL_TTL_SECONDS) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
}

function signedUrl(secret: string, s: Signed, nowMs: number): string {
  const exp = facePhotoUrlExpiry(nowMs);
  const target = s.kind === 'face' ? `photo/${s.hotelId}/${s.faceId}` : `upload/${s.hotelId}/${s.file}`;
  return `/api/faces/${target}?exp=${exp}&sig=${sign(secret, s, exp)}`;
}

/** The signed URL of the photo of face `faceId` (the row's id) of this hotel: the face DTOs' `imageUrl`. */
export function facePhotoUrl(deps: Pick<Deps, 'config'>, hotelId: number, faceId: number, nowMs = Date.now()): string {
  return signedUrl(deps.config.facePhotoSecret, { kind: 'face', hotelId, faceId }, nowMs);
}

/** The signed URL of a face photo just uploaded by this hotel (its stored path), for a preview before the face exists. */
export function uploadedFacePhotoUrl(deps: Pick<Deps, 'config'>, hotelId: number, storedPath: string, nowMs = Date.now()): string | undefined {
  const match = UPLOAD_PATH_REGEX.exec(storedPath);
  if (!match || Number(match[1]) !== hotelId) return undefined;
  return signedUrl(deps.config.facePhotoSecret, { kind: 'upload', hotelId, file: `${match[2]}.${match[3]}` }, nowMs);
}

/** Seconds the signature is still valid, or undefined when it is not ours, altered or expired. */
function checkSignature(secret: string, s: Signed, query: { exp?: unknown; sig?: unknown }, nowMs: number): number | undefined {
  const { exp, sig } = query;
  if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string' || sig.length !== SIG_LENGTH) return undefined;
  const expiry = Number(exp);
  const rest = expiry - Math.floor(nowMs / 1000);
  // Never more than we hand out, whatever the signature says.
  if (rest <= 0 || rest > FACE_PHOTO_URL_TTL_SECONDS + EXPIRY_STEP_SECONDS) return undefined;
  const expected = Buffer.from(sign(secret, s, expiry));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return rest;
}

export interface SignedPhoto {
  bytes: Buffer;
  type: string;
  /** Seconds the URL is still valid: how long a browser may keep the photo. */
  maxAge: number;
}

const ID = /^[1-9]\d{0,9}$/;
const UPLOAD_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|jpg)$/;

/**
 * The photo a signed face URL shows: undefined (the route answers 404, whatever the reason) when
 * the signature is bad or expired, the face is not this hotel's or no longer exists, or its file
 * is gone. Read from the upload store, wherever the photo lies.
 */
export async function readSignedFacePhoto(
  deps: Deps,
  params: { hotel: string; face: string },
  query: { exp?: unknown; sig?: unknown },
  nowMs = Date.now(),
): Promise<SignedPhoto | undefined> {
  if (!ID.test(params.hotel) || !ID.test(params.face)) return undefined;
  const hotelId = Number(params.hotel);
  const faceId = Number(params.face);
  const maxAge = checkSignature(deps.config.facePhotoSecret, { kind: 'face', hotelId, faceId }, query, nowMs);
  if (maxAge === undefined) return undefined;
  const face = await deps.prisma.face.findFirst({ where: { id: faceId, hotelId }, select: { imageUrl: true } });
  if (!face) return undefined;
  const stored = await readStoredPictureBytes(deps.files, hotelId, face.imageUrl);
  return stored && { bytes: stored.bytes, type: stored.type, maxAge };
}

/** The face photo a signed upload URL shows (only from the private face area), or undefined as above. */
export async function readSignedUploadedFacePhoto(
  deps: Deps,
  params: { hotel: string; file: string },
  query: { exp?: unknown; sig?: unknown },
  nowMs = Date.now(),
): Promise<SignedPhoto | undefined> {
  if (!ID.test(params.hotel) || !UPLOAD_FILE.test(params.file)) return undefined;
  const hotelId = Number(params.hotel);
  const maxAge = checkSignature(deps.config.facePhotoSecret, { kind: 'upload', hotelId, file: params.file }, query, nowMs);
  if (maxAge === undefined) return undefined;
  const stored = await readStoredPictureBytes(deps.files, hotelId, `/uploads/${hotelId}/${params.file}`, ['face']);
  return stored && { bytes: stored.bytes, type: stored.type, maxAge };
}

/**
 * Moves every face photo still in the public area (stored before decision 015) into the private
 * face area, so the static route no longer serves it. Run at start; idempotent. Answers how many moved.
 */
export async function makeFacePhotosPrivate(deps: Deps): Promise<number> {
  const photos = await deps.prisma.face.findMany({ distinct: ['hotelId', 'imageUrl'], select: { hotelId: true, imageUrl: true } });
  let moved = 0;
  for (const photo of photos) {
    if (await makeFacePhotoPrivate(deps.files, photo.hotelId, photo.imageUrl)) moved += 1;
  }
  return moved;
}
