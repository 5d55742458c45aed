import {
  FACES_OF_GUEST_MAX,
  FACE_RULES,
  ZFaceCreateInput,
  ZFaceIdInput,
  ZFaceListInput,
  ZFaceNoteInput,
  ZFacesOfGuestInput,
  type TFaceCreateInput,
  type TFaceListInput,
  type TFacesOfGuestInput,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { containsText, searchText } from '../../db/search';
import { transaction, type Tx } from '../../db/transaction';
import { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { deleteStoredPicture, makeFacePhotoPrivate, readStoredPicture } from '../../infra/uploads';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { roomScope } from '../base/room-access';
import { LIVE_DELIVERY_STATES } from './delivery-states';
import { facePhotoUrl } from '../uploads/face-photos';
import { recordEvent } from '../../db/events';

/**
 * The face database (spec §3 Face: face id, note, image) and faces authorised on rooms' locks.
 * A face is a photo in the upload store, checked by its bytes, and its SHA-256, which is what the
 * lock is sent (docs/credential-delivery.md, "Faces"). An authorisation is a credential of the
 * delivery engine like a password: `pending` until the lock confirmed it, revoked with its stay.
 * A face cannot be deleted while an authorisation of it may still be on a lock: its
 * authorisations are deleted (taken off the locks) first.
 */

export interface FaceDto {
  id: number;
  /** The spec's face id: the hotel's own number or name for the face. */
  faceId: string;
  note: string;
  /** A signed URL of the photo, valid 10 to 15 minutes (decision 015); the stored path is never handed out. */
  imageUrl: string;
  guestId: number | null;
  customerId: number | null;
  /** Authorisations that are on a lock, on their way there, or may be there. */
  activeAuthorizations: number;
  createdAt: string;
  updatedAt: string;
}

/** Delivery states of an authorisation that is on a lock, on its way there, or may be there. */
export const liveStates = { in: [...LIVE_DELIVERY_STATES] };

const faceSelect = {
  id: true,
  faceId: true,
  note: true,
  imageUrl: true,
  guestId: true,
  customerId: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { authorizations: { where: { deliveryState: liveStates } } } },
} as const satisfies Prisma.FaceSelect;
type FaceRow = Prisma.FaceGetPayload<{ select: typeof faceSelect }>;

function toFaceDto(f: FaceRow, ctx: AuthedContext): FaceDto {
  return {
    id: f.id,
    faceId: f.faceId,
    note: f.note,
    imageUrl: facePhotoUrl(ctx.deps, ctx.actor.hotelId, f.id),
    guestId: f.guestId,
    customerId: f.customerId,
    activeAuthorizations: f._count.authorizations,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}

export const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** A face of the hotel, by id; not found otherwise. */
export async function findFace(ctx: AuthedContext, id: number): Promise<FaceRow> {
  const row = await ctx.deps.prisma.face.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: faceSelect });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'faces.errors.notFound' });
  return row;
}

/** Locks a face of the hotel for the rest of the transaction (deleting it and authorising it queue); false when it is gone. */
export async function lockFace(tx: Tx, hotelId: number, id: number): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: number }[]>`SELECT "id" FROM "Face" WHERE "hotelId" = ${hotelId} AND "id" = ${id} FOR UPDATE`;
  return rows.length === 1;
}

/** Adds a face to the hotel's face database. Its photo must be a JPG or PNG of at most 2 MB that this hotel uploaded. */
export async function createFace(ctx: AuthedContext, raw: TFaceCreateInput): Promise<FaceDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZFaceCreateInput.parse(raw);
  const image = await readStoredPicture(deps.files, actor.hotelId, input.imageUrl);
  const imageError = !image
    ? 'validation.faceImageInvalid'
    : !(FACE_RULES.imageTypes as readonly string[]).includes(image.type)
      ? 'validation.faceImageType'
      : image.size > FACE_RULES.imageMaxBytes
        ? 'validation.faceImageTooLarge'
        : image.size < FACE_RULES.imageMinBytes
          ? 'validation.faceImageTooSmall'
          : undefined;
  if (imageError || !image) throw new AppError('VALIDATION', { messageKey: imageError, fields: { imageUrl: imageError ?? 'validation.faceImageInvalid' } });
  // A face's photo is private (decision 015), also one uploaded as a room picture.
  await makeFacePhotoPrivate(deps.files, actor.hotelId, input.imageUrl);
  let guestId: number | null = null;
  let customerId: number | null = null;
  if (input.guestId !== undefined) {
    const guest = await deps.prisma.stayGuest.findFirst({
      where: { id: input.guestId, hotelId: actor.hotelId, stay: { room: roomScope(actor) } },
      select: { id: true, mobile: true },
    });
    if (!guest) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.guestNotFound' });
    guestId = guest.id;
    if (guest.mobile)
      customerId = (await deps.prisma.customer.findFirst({ where: { hotelId: actor.hotelId, mobile: guest.mobile }, select: { id: true } }))?.id ?? null;
  }
  try {
    return await transaction(deps, async (tx) => {
      const row = await tx.face.create({
        data: { hotelId: actor.hotelId, faceId: input.faceId, note: input.note, imageUrl: input.imageUrl, imageSha256: image.sha256, guestId, customerId },
        select: faceSelect,
      });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
      await recordAudit(tx, ctx, {
        action: 'face.create',
        entityType: 'Face',
        entityId: row.id,
        after: { faceId: row.faceId, note: row.note, imageUrl: row.imageUrl, guestId },
      });
      return toFaceDto(row, ctx);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', { messageKey: 'faces.errors.duplicateFaceId', fields: { faceId: 'faces.errors.duplicateFaceId' }, cause: error });
    throw error;
  }
}

/** The face database, newest first; `search` matches the face id or the note, literally. */
export async function listFaces(ctx: AuthedContext, raw: TFaceListInput): Promise<{ items: FaceDto[]; total: number; page: number; pageSize: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZFaceListInput.parse(raw);
  const search = searchText(input.search);
  const where: Prisma.FaceWhereInput = {
    hotelId: actor.hotelId,
    ...(search ? { OR: [{ faceId: containsText(search) }, { note: containsText(search) }] } : {}),
  };
  const [rows, total] = await Promise.all([
    deps.prisma.face.findMany({
      where,
      select: faceSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    deps.prisma.face.count({ where }),
  ]);
  return { items: rows.map((f) => toFaceDto(f, ctx)), total, page: input.page, pageSize: input.pageSize };
}

export async function getFace(ctx: AuthedContext, raw: z.input<typeof ZFaceIdInput>): Promise<FaceDto> {
  requirePermission(ctx.actor, 'room.read');
  return toFaceDto(await findFace(ctx, ZFaceIdInput.parse(raw).id), ctx);
}

export async function updateFaceNote(ctx: AuthedContext, raw: z.input<typeof ZFaceNoteInput>): Promise<FaceDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZFaceNoteInput.parse(raw);
  const before = await findFace(ctx, input.id);
  await transaction(deps, async (tx) => {
    const { count } = await tx.face.updateMany({ where: { id: before.id, hotelId: actor.hotelId }, data: { note: input.note } });
    if (!count) throw new AppError('NOT_FOUND', { messageKey: 'faces.errors.notFound' });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    await recordAudit(tx, ctx, {
      action: 'face.updateNote',
      entityType: 'Face',
      entityId: before.id,
      before: { note: before.note },
      after: { note: input.note },
    });
  });
  return toFaceDto(await findFace(ctx, before.id), ctx);
}

/**
 * Deletes a face and its photo. Refused (CONFLICT, naming the rooms) while any authorisation of it
 * is not yet removed from its lock: a face deleted first would leave its authorisations on the
 * locks with nothing in the console to take them off. Removed authorisations go with the face.
 */
export async function deleteFace(ctx: AuthedContext, raw: z.input<typeof ZFaceIdInput>): Promise<void> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const { id } = ZFaceIdInput.parse(raw);
  const before = await findFace(ctx, id);
  await transaction(deps, async (tx) => {
    if (!(await lockFace(tx, actor.hotelId, id))) throw new AppError('NOT_FOUND', { messageKey: 'faces.errors.notFound' });
    const where = { hotelId: actor.hotelId, faceId: id, deliveryState: { not: 'removed' as const } };
    const remaining = await tx.faceAuthorization.count({ where });
    if (remaining) {
      // The refusal names only the rooms this member manages; the others are counted, never named.
      const visible = await tx.faceAuthorization.findMany({
        where: { ...where, room: roomScope(actor) },
        select: { roomId: true, room: { select: { name: true } } },
        orderBy: { roomId: 'asc' },
      });
      const rooms = [...new Set(visible.map((a) => a.room.name))].join(', ');
      const others = (
        await tx.faceAuthorization.findMany({
          where: { ...where, NOT: { roomId: { in: visible.map((a) => a.roomId) } } },
          distinct: ['roomId'],
          select: { roomId: true },
        })
      ).length;
      const messageKey = !others ? 'faces.errors.stillAuthorized' : rooms ? 'faces.errors.stillAuthorizedAndOthers' : 'faces.errors.stillAuthorizedElsewhere';
      throw new AppError('CONFLICT', { messageKey, params: { rooms, count: others }, details: { authorizations: visible.length } });
    }
    await tx.face.deleteMany({ where: { id, hotelId: actor.hotelId } });
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    await recordAudit(tx, ctx, {
      action: 'face.delete',
      entityType: 'Face',
      entityId: id,
      before: { faceId: before.faceId, note: before.note, imageUrl: before.imageUrl },
    });
  });
  // The photo is personal data: it goes with the face, unless another face or a room shows it.
  const [faces, rooms] = await Promise.all([
    deps.prisma.face.count({ where: { hotelId: actor.hotelId, imageUrl: before.imageUrl } }),
    deps.prisma.room.count({ where: { hotelId: actor.hotelId, picture: before.imageUrl } }),
  ]);
  if (faces === 0 && rooms === 0) {
    await deleteStoredPicture(deps.files, actor.hotelId, before.imageUrl).catch((error: unknown) =>
      deps.log.warn({ err: error, faceId: id }, 'could not delete a face photo'),
    );
  }
}

/**
 * The faces of a guest about to be checked in, found by the mobile or ID number typed at the
 * desk: faces of the customer with that mobile, and faces taken of an earlier stay guest with that
 * mobile or ID number. Newest first, at most FACES_OF_GUEST_MAX.
 */
export async function listFacesOfGuest(ctx: AuthedContext, raw: TFacesOfGuestInput): Promise<FaceDto[]> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZFacesOfGuestInput.parse(raw);
  const who: Prisma.FaceWhereInput[] = [];
  if (input.mobile) who.push({ customer: { mobile: input.mobile } }, { guest: { mobile: input.mobile } });
  if (input.idNumber) who.push({ guest: { idNumber: input.idNumber } });
  const rows = await deps.prisma.face.findMany({
    where: { hotelId: actor.hotelId, OR: who },
    select: faceSelect,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: FACES_OF_GUEST_MAX,
  });
  return rows.map((f) => toFaceDto(f, ctx));
}
