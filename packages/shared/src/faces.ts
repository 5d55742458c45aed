import { z } from 'zod';
import { ZGuestInput } from './stays';
import { ZId, ZInstant, ZPageInput, ZSearch, whenValid } from './primitives';

/**
 * The face database and face authorisations on locks (spec §3 Face: faceId, note, image; §5 "face
 * id, note and face image cannot be empty"). Messages are i18n keys.
 */
export const FACE_RULES = {
  faceIdMaxLength: 64,
  noteMaxLength: 100,
  /**
   * Face modules take colour photos of 300 KB to 2 MB (TTLock face/getFeatureDataByPhoto: "size
   * limit: 300KB~2MB, format: jpg, png, bmp"); read as binary kilo- and megabytes, the stricter reading.
   */
  imageMinBytes: 300 * 1024,
  imageMaxBytes: 2 * 1024 * 1024,
  /** Recognised by their first bytes, never by the name. */
  imageTypes: ['image/jpeg', 'image/png'],
} as const;

/** What an upload is for: it decides the permission and the checks (`/api/uploads?purpose=`). */
export const UPLOAD_PURPOSES = ['picture', 'face', 'avatar', 'housekeeping'] as const;
export type TUploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** An upload token of `/manage/oss/token` is valid this long (seconds). */
export const UPLOAD_TOKEN_TTL_SECONDS = 600;

/**
 * A face photo is never public: its `/uploads/...` path only names it (the face's `imageUrl` in the
 * database, what `createFace` takes). Members see it through a signed URL valid this long, at least
 * (decision 015); the face DTOs and the face upload's `previewUrl` carry one.
 */
export const FACE_PHOTO_URL_TTL_SECONDS = 600;

/** The path of a picture in the upload store: `/uploads/<hotel>/<uuid>.<ext>`. */
export const UPLOAD_PATH_REGEX = /^\/uploads\/(\d{1,10})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(png|jpg|webp|gif)$/;

/** The spec's face id: any text the hotel numbers its faces with, unique in the hotel. */
export const ZFaceCode = z
  .string({ error: 'validation.faceIdRequired' })
  .trim()
  .min(1, { error: 'validation.faceIdRequired' })
  .max(FACE_RULES.faceIdMaxLength, { error: 'validation.textTooLong' });

export const ZFaceNote = z
  .string({ error: 'validation.faceNoteRequired' })
  .trim()
  .min(1, { error: 'validation.faceNoteRequired' })
  .max(FACE_RULES.noteMaxLength, { error: 'validation.textTooLong' });

/** The face photo: the path `/api/uploads?purpose=face` answered (its bytes are checked again). */
export const ZFaceImage = z
  .string({ error: 'validation.faceImageRequired' })
  .trim()
  .min(1, { error: 'validation.faceImageRequired' })
  .max(200, { error: 'validation.faceImageInvalid' })
  .regex(UPLOAD_PATH_REGEX, { error: 'validation.faceImageInvalid' });

export const ZFaceCreateInput = z.object({
  faceId: ZFaceCode,
  note: ZFaceNote,
  imageUrl: ZFaceImage,
  /** The stay guest whose face it is (optional): their removal or freezing revokes it too. */
  guestId: ZId.optional(),
});
export type TFaceCreateInput = z.input<typeof ZFaceCreateInput>;

export const ZFaceListInput = ZPageInput.extend({ search: ZSearch.optional() });
export type TFaceListInput = z.input<typeof ZFaceListInput>;

export const ZFaceIdInput = z.object({ id: ZId });
export const ZFaceNoteInput = z.object({ id: ZId, note: ZFaceNote });

/** An authorisation's own note (empty allowed). */
export const ZFaceAuthorizationNote = z.string({ error: 'validation.textInvalid' }).trim().max(FACE_RULES.noteMaxLength, { error: 'validation.textTooLong' });

/** Authorises face `id` on a room's lock: for a stay (valid for the stay), or for a period. */
export const ZFaceAuthorizeInput = z
  .object({
    id: ZId,
    roomId: ZId,
    stayId: ZId.optional(),
    note: ZFaceAuthorizationNote.default(''),
    validFrom: ZInstant.optional(),
    /** Omitted: permanent, or the stay's check-out for a stay. */
    validUntil: ZInstant.optional(),
  })
  .refine((v) => !v.validFrom || !v.validUntil || v.validUntil.getTime() > v.validFrom.getTime(), {
    error: 'validation.endAfterStart',
    path: ['validUntil'],
    ...whenValid('validFrom', 'validUntil'),
  });
export type TFaceAuthorizeInput = z.input<typeof ZFaceAuthorizeInput>;

export const ZFaceAuthorizationListInput = ZPageInput.extend({
  /** Only the authorisations of this face. */
  id: ZId.optional(),
  roomId: ZId.optional(),
  stayId: ZId.optional(),
  /** `active`: not yet taken off the lock; `history`: removed or failed. */
  scope: z.enum(['active', 'history', 'all'], { error: 'validation.invalid' }).default('active'),
});
export type TFaceAuthorizationListInput = z.input<typeof ZFaceAuthorizationListInput>;

export const ZFaceAuthorizationIdInput = z.object({ authorizationId: ZId });
export const ZFaceAuthorizationNoteInput = z.object({ authorizationId: ZId, note: ZFaceAuthorizationNote });

/**
 * The faces in the database that belong to a guest, found by the guest's mobile or ID number (a
 * returning guest, or a customer with a face): what check-in offers to authorise on the lock.
 */
export const ZFacesOfGuestInput = z
  .object({
    mobile: ZGuestInput.shape.mobile,
    idNumber: ZGuestInput.shape.idNumber,
  })
  .refine((v) => Boolean(v.mobile || v.idNumber), { error: 'validation.invalid' });
export type TFacesOfGuestInput = z.input<typeof ZFacesOfGuestInput>;

/** At most this many faces of one guest are offered at check-in. */
export const FACES_OF_GUEST_MAX = 5;
