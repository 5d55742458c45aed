import path from 'node:path';
import {
  FACES_OF_GUEST_MAX,
  FACE_RULES,
  ZFaceAuthorizationIdInput,
  ZFaceAuthorizationListInput,
  ZFaceAuthorizationNoteInput,
  ZFaceAuthorizeInput,
  ZFaceCreateInput,
  ZFaceIdInput,
  ZFaceListInput,
  ZFaceNoteInput,
  ZFacesOfGuestInput,
  type TDeliveryState,
  type TFaceAuthorizationListInput,
  type TFaceAuthorizeInput,
  type TFaceCreateInput,
  type TFaceListInput,
  type TFacesOfGuestInput,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { containsText, searchText } from '../../db/search';
import { lockRooms, transaction, type Tx } from '../../db/transaction';
import { Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { deleteStoredPicture, makeFacePhotoPrivate, readStoredPicture } from '../../infra/uploads';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope } from '../room/room-access';
import { LIVE_DELIVERY_STATES, REVOCABLE_STATES, retryState, revoke } from '../stay/revocation';
import { findStay, requireActive } from '../stay/stay-dto';
import { facePhotoUrl } from '../uploads/face-photos';
import { afterCredentialChange } from './delivery';

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

export interface FaceAuthorizationDto {
  id: number;
  face: { id: number; faceId: string; note: string; imageUrl: string };
  roomId: number;
  roomName: string;
  /** The provider's lock id of the room (null: the room has no lock). */
  lockId: string | null;
  stayId: number | null;
  note: string;
  validFrom: string;
  validUntil: string | null;
  /** Its validity has ended: the lock refuses the face. */
  expired: boolean;
  deliveryState: TDeliveryState;
  /** Code of the last failure (`credentials.errors.<code>`), or null. */
  lastError: string | null;
  attempts: number;
  revokeReason: string | null;
  deliveredAt: string | null;
  removedAt: string | null;
  createdAt: string;
}

const liveStates = { in: [...LIVE_DELIVERY_STATES] };

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

const authorizationSelect = {
  id: true,
  roomId: true,
  stayId: true,
  note: true,
  validFrom: true,
  validUntil: true,
  deliveryState: true,
  lastError: true,
  attempts: true,
  revokeReason: true,
  deliveredAt: true,
  removedAt: true,
  createdAt: true,
  face: { select: { id: true, faceId: true, note: true, imageUrl: true } },
  room: { select: { name: true, lock: { select: { providerLockId: true } } } },
} as const satisfies Prisma.FaceAuthorizationSelect;
type AuthorizationRow = Prisma.FaceAuthorizationGetPayload<{ select: typeof authorizationSelect }>;

const isExpired = (a: { validUntil: Date | null }, now: Date) => a.validUntil !== null && a.validUntil.getTime() <= now.getTime();

function toAuthorizationDto(a: AuthorizationRow, ctx: AuthedContext): FaceAuthorizationDto {
  return {
    id: a.id,
    face: { ...a.face, imageUrl: facePhotoUrl(ctx.deps, ctx.actor.hotelId, a.face.id) },
    roomId: a.roomId,
    roomName: a.room.name,
    lockId: a.room.lock?.providerLockId ?? null,
    stayId: a.stayId,
    note: a.note,
    validFrom: a.validFrom.toISOString(),
    validUntil: a.validUntil?.toISOString() ?? null,
    expired: isExpired(a, new Date()),
    deliveryState: a.deliveryState,
    lastError: a.lastError,
    attempts: a.attempts,
    revokeReason: a.revokeReason,
    deliveredAt: a.deliveredAt?.toISOString() ?? null,
    removedAt: a.removedAt?.toISOString() ?? null,
    createdAt: a.createdAt.toISOString(),
  };
}

const uploadDir = (ctx: AuthedContext) => path.resolve(ctx.deps.config.uploadDir);

const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

async function findFace(ctx: AuthedContext, id: number): Promise<FaceRow> {
  const row = await ctx.deps.prisma.face.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: faceSelect });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'faces.errors.notFound' });
  return row;
}

/** Locks a face of the hotel for the rest of the transaction (deleting it and authorising it queue); false when it is gone. */
async function lockFace(tx: Tx, hotelId: number, id: number): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: number }[]>`SELECT "id" FROM "Face" WHERE "hotelId" = ${hotelId} AND "id" = ${id} FOR UPDATE`;
  return rows.length === 1;
}

/** Adds a face to the hotel's face database. Its photo must be a JPG or PNG of at most 2 MB that this hotel uploaded. */
export async function createFace(ctx: AuthedContext, raw: TFaceCreateInput): Promise<FaceDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZFaceCreateInput.parse(raw);
  const image = await readStoredPicture(uploadDir(ctx), actor.hotelId, input.imageUrl);
  const imageError = !image ? 'validation.faceImageInvalid' : !(FACE_RULES.imageTypes as readonly string[]).includes(image.type) ? 'validation.faceImageType' : image.size > FACE_RULES.imageMaxBytes ? 'validation.faceImageTooLarge' : image.size < FACE_RULES.imageMinBytes ? 'validation.faceImageTooSmall' : undefined;
  if (imageError || !image) throw new AppError('VALIDATION', { messageKey: imageError, fields: { imageUrl: imageError ?? 'validation.faceImageInvalid' } });
  // A face's photo is private (decision 015), also one uploaded as a room picture.
  await makeFacePhotoPrivate(uploadDir(ctx), actor.hotelId, input.imageUrl);
  let guestId: number | null = null;
  let customerId: number | null = null;
  if (input.guestId !== undefined) {
    const guest = await deps.prisma.stayGuest.findFirst({ where: { id: input.guestId, hotelId: actor.hotelId, stay: { room: roomScope(actor) } }, select: { id: true, mobile: true } });
    if (!guest) throw new AppError('NOT_FOUND', { messageKey: 'stay.errors.guestNotFound' });
    guestId = guest.id;
    if (guest.mobile) customerId = (await deps.prisma.customer.findFirst({ where: { hotelId: actor.hotelId, mobile: guest.mobile }, select: { id: true } }))?.id ?? null;
  }
  try {
    return await transaction(deps, async (tx) => {
      const row = await tx.face.create({ data: { hotelId: actor.hotelId, faceId: input.faceId, note: input.note, imageUrl: input.imageUrl, imageSha256: image.sha256, guestId, customerId }, select: faceSelect });
      await recordAudit(tx, ctx, { action: 'face.create', entityType: 'Face', entityId: row.id, after: { faceId: row.faceId, note: row.note, imageUrl: row.imageUrl, guestId } });
      return toFaceDto(row, ctx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', { messageKey: 'faces.errors.duplicateFaceId', fields: { faceId: 'faces.errors.duplicateFaceId' }, cause: error });
    throw error;
  }
}

/** The face database, newest first; `search` matches the face id or the note, literally. */
export async function listFaces(ctx: AuthedContext, raw: TFaceListInput): Promise<{ items: FaceDto[]; total: number; page: number; pageSize: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZFaceListInput.parse(raw);
  const search = searchText(input.search);
  const where: Prisma.FaceWhereInput = { hotelId: actor.hotelId, ...(search ? { OR: [{ faceId: containsText(search) }, { note: containsText(search) }] } : {}) };
  const [rows, total] = await Promise.all([
    deps.prisma.face.findMany({ where, select: faceSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
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
    await recordAudit(tx, ctx, { action: 'face.updateNote', entityType: 'Face', entityId: before.id, before: { note: before.note }, after: { note: input.note } });
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
      const visible = await tx.faceAuthorization.findMany({ where: { ...where, room: roomScope(actor) }, select: { roomId: true, room: { select: { name: true } } }, orderBy: { roomId: 'asc' } });
      const rooms = [...new Set(visible.map((a) => a.room.name))].join(', ');
      const others = (await tx.faceAuthorization.findMany({ where: { ...where, NOT: { roomId: { in: visible.map((a) => a.roomId) } } }, distinct: ['roomId'], select: { roomId: true } })).length;
      const messageKey = !others ? 'faces.errors.stillAuthorized' : rooms ? 'faces.errors.stillAuthorizedAndOthers' : 'faces.errors.stillAuthorizedElsewhere';
      throw new AppError('CONFLICT', { messageKey, params: { rooms, count: others }, details: { authorizations: visible.length } });
    }
    await tx.face.deleteMany({ where: { id, hotelId: actor.hotelId } });
    await recordAudit(tx, ctx, { action: 'face.delete', entityType: 'Face', entityId: id, before: { faceId: before.faceId, note: before.note, imageUrl: before.imageUrl } });
  });
  // The photo is personal data: it goes with the face, unless another face or a room shows it.
  const [faces, rooms] = await Promise.all([
    deps.prisma.face.count({ where: { hotelId: actor.hotelId, imageUrl: before.imageUrl } }),
    deps.prisma.room.count({ where: { hotelId: actor.hotelId, picture: before.imageUrl } }),
  ]);
  if (faces === 0 && rooms === 0) {
    await deleteStoredPicture(uploadDir(ctx), actor.hotelId, before.imageUrl).catch((error: unknown) => deps.log.warn({ err: error, faceId: id }, 'could not delete a face photo'));
  }
}

const floorMinute = (d: Date) => new Date(Math.floor(d.getTime() / 60_000) * 60_000);

/**
 * Authorises a face on a room's lock: for a stay (valid from its check-in, or now, until its
 * expected check-out, never beyond, and revoked with it) or for a period (`validUntil` omitted:
 * permanent). One live authorisation per face and room. The lock learns it through the delivery
 * engine; minute precision, as the lock keeps it.
 */
export async function authorizeFace(ctx: AuthedContext, raw: TFaceAuthorizeInput): Promise<FaceAuthorizationDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZFaceAuthorizeInput.parse(raw);
  const now = new Date();
  const room = await findRoom(ctx, input.roomId, { id: true });
  await findFace(ctx, input.id);
  let from = input.validFrom ?? now;
  let until = input.validUntil ?? null;
  if (input.stayId !== undefined) {
    const stay = await findStay(ctx, input.stayId);
    requireActive(stay, now);
    if (stay.roomId !== room.id) throw new AppError('VALIDATION', { messageKey: 'credentials.errors.stayOfAnotherRoom', fields: { stayId: 'credentials.errors.stayOfAnotherRoom' } });
    if (!input.validFrom) from = stay.checkInAt.getTime() > now.getTime() ? stay.checkInAt : now;
    until = input.validUntil && input.validUntil.getTime() < stay.expectedCheckOutAt.getTime() ? input.validUntil : stay.expectedCheckOutAt;
  }
  const validFrom = floorMinute(from);
  const validUntil = until ? floorMinute(until) : null;
  if (validUntil && (validUntil.getTime() <= now.getTime() || validUntil.getTime() <= validFrom.getTime())) {
    throw new AppError('VALIDATION', { messageKey: 'validation.endAfterStart', fields: { validUntil: 'validation.endAfterStart' } });
  }
  const alreadyAuthorized = (cause?: unknown) => new AppError('CONFLICT', { messageKey: 'faces.errors.alreadyAuthorized', cause });
  let created: AuthorizationRow;
  try {
    created = await transaction(deps, async (tx) => {
      // The room first (check-out and room change take it, so the stay cannot end meanwhile), then the face.
      await lockRooms(tx, actor.hotelId, [room.id]);
      if (!(await lockFace(tx, actor.hotelId, input.id))) throw new AppError('NOT_FOUND', { messageKey: 'faces.errors.notFound' });
      if (input.stayId !== undefined) requireActive(await findStay(ctx, input.stayId, tx), now);
      const live = await tx.faceAuthorization.findMany({ where: { faceId: input.id, roomId: room.id, deliveryState: liveStates }, select: { id: true, validUntil: true } });
      if (live.some((a) => !isExpired(a, now))) throw alreadyAuthorized();
      // One whose time is over makes way for the new one (the lock refuses it anyway; it comes off).
      if (live.length) await tx.faceAuthorization.updateMany({ where: { id: { in: live.map((a) => a.id) } }, data: revoke('replaced') });
      const row = await tx.faceAuthorization.create({
        data: { hotelId: actor.hotelId, faceId: input.id, roomId: room.id, stayId: input.stayId ?? null, note: input.note, validFrom, validUntil },
        select: authorizationSelect,
      });
      await recordAudit(tx, ctx, { action: 'face.authorize', entityType: 'FaceAuthorization', entityId: row.id, after: { faceId: input.id, roomId: room.id, stayId: row.stayId, validFrom: row.validFrom.toISOString(), validUntil: row.validUntil?.toISOString() ?? null } });
      return row;
    });
  } catch (error) {
    // The partial unique index is the last word when two requests race past the check.
    if (isUniqueViolation(error)) throw alreadyAuthorized(error);
    throw error;
  }
  await afterCredentialChange(deps, actor.hotelId, { roomId: room.id });
  return toAuthorizationDto(created, ctx);
}

const HISTORY_STATES = ['removed', 'failed', 'remove_failed'] as const;
const ACTIVE_STATES = ['pending', 'on_lock', 'failed', 'removing', 'unknown', 'remove_failed'] as const;

/** As for passwords: active = not taken off and not expired; history = taken off, failed, or expired. */
function scopeWhere(scope: 'active' | 'history' | 'all', now: Date): Prisma.FaceAuthorizationWhereInput {
  if (scope === 'active') return { AND: [{ deliveryState: { in: [...ACTIVE_STATES] } }, { OR: [{ validUntil: null }, { validUntil: { gt: now } }] }] };
  if (scope === 'history') return { OR: [{ deliveryState: { in: [...HISTORY_STATES] } }, { validUntil: { lte: now } }] };
  return {};
}

/** Authorisations of the rooms the actor may see, newest first: of one face, room or stay. */
export async function listFaceAuthorizations(ctx: AuthedContext, raw: TFaceAuthorizationListInput): Promise<{ items: FaceAuthorizationDto[]; total: number; page: number; pageSize: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZFaceAuthorizationListInput.parse(raw);
  const where: Prisma.FaceAuthorizationWhereInput = {
    hotelId: actor.hotelId,
    room: roomScope(actor),
    ...(input.id !== undefined ? { faceId: input.id } : {}),
    ...(input.roomId !== undefined ? { roomId: input.roomId } : {}),
    ...(input.stayId !== undefined ? { stayId: input.stayId } : {}),
    ...scopeWhere(input.scope, new Date()),
  };
  const [rows, total] = await Promise.all([
    deps.prisma.faceAuthorization.findMany({ where, select: authorizationSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (input.page - 1) * input.pageSize, take: input.pageSize }),
    deps.prisma.faceAuthorization.count({ where }),
  ]);
  return { items: rows.map((a) => toAuthorizationDto(a, ctx)), total, page: input.page, pageSize: input.pageSize };
}

async function findAuthorization(ctx: AuthedContext, id: number): Promise<AuthorizationRow> {
  const row = await ctx.deps.prisma.faceAuthorization.findFirst({ where: { id, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) }, select: authorizationSelect });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'faces.errors.authorizationNotFound' });
  return row;
}

/** Takes a face off a lock (deletes the authorisation). Already going or gone: answered as it is. */
export async function revokeFaceAuthorization(ctx: AuthedContext, raw: z.input<typeof ZFaceAuthorizationIdInput>): Promise<FaceAuthorizationDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const before = await findAuthorization(ctx, ZFaceAuthorizationIdInput.parse(raw).authorizationId);
  const updated = await transaction(deps, async (tx) => {
    const { count } = await tx.faceAuthorization.updateMany({
      where: { id: before.id, deliveryState: { in: [...REVOCABLE_STATES] } },
      data: revoke('manual'),
    });
    if (count) await recordAudit(tx, ctx, { action: 'face.revokeAuthorization', entityType: 'FaceAuthorization', entityId: before.id, before: { deliveryState: before.deliveryState } });
    return count;
  });
  if (updated) await afterCredentialChange(deps, actor.hotelId, { roomId: before.roomId });
  return toAuthorizationDto(await findAuthorization(ctx, before.id), ctx);
}

/** Tries a failed delivery (or removal) of an authorisation again, as a new version. */
export async function retryFaceAuthorization(ctx: AuthedContext, raw: z.input<typeof ZFaceAuthorizationIdInput>): Promise<FaceAuthorizationDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const before = await findAuthorization(ctx, ZFaceAuthorizationIdInput.parse(raw).authorizationId);
  const next = retryState(before.deliveryState);
  if (!next) throw new AppError('CONFLICT', { messageKey: 'credentials.errors.nothingToRetry' });
  await transaction(deps, async (tx) => {
    const { count } = await tx.faceAuthorization.updateMany({ where: { id: before.id, deliveryState: before.deliveryState }, data: { deliveryState: next, version: { increment: 1 }, attempts: 0 } });
    if (!count) throw new AppError('CONFLICT', { messageKey: 'credentials.errors.nothingToRetry' });
    await recordAudit(tx, ctx, { action: 'face.retryAuthorization', entityType: 'FaceAuthorization', entityId: before.id, before: { deliveryState: before.deliveryState, lastError: before.lastError }, after: { deliveryState: next } });
  });
  await afterCredentialChange(deps, actor.hotelId, { roomId: before.roomId });
  return toAuthorizationDto(await findAuthorization(ctx, before.id), ctx);
}

/** The note of an authorisation (the console's; the lock keeps the name it was given). */
export async function updateFaceAuthorizationNote(ctx: AuthedContext, raw: z.input<typeof ZFaceAuthorizationNoteInput>): Promise<FaceAuthorizationDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const input = ZFaceAuthorizationNoteInput.parse(raw);
  const before = await findAuthorization(ctx, input.authorizationId);
  await transaction(deps, async (tx) => {
    await tx.faceAuthorization.updateMany({ where: { id: before.id, hotelId: actor.hotelId }, data: { note: input.note } });
    await recordAudit(tx, ctx, { action: 'face.updateAuthorizationNote', entityType: 'FaceAuthorization', entityId: before.id, before: { note: before.note }, after: { note: input.note } });
  });
  return toAuthorizationDto(await findAuthorization(ctx, before.id), ctx);
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
  const rows = await deps.prisma.face.findMany({ where: { hotelId: actor.hotelId, OR: who }, select: faceSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: FACES_OF_GUEST_MAX });
  return rows.map((f) => toFaceDto(f, ctx));
}
