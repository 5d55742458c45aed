import {
  ZFaceAuthorizationIdInput,
  ZFaceAuthorizationListInput,
  ZFaceAuthorizationNoteInput,
  ZFaceAuthorizeInput,
  type TDeliveryState,
  type TFaceAuthorizationListInput,
  type TFaceAuthorizeInput,
} from '@console/shared';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { lockRooms, transaction } from '../../db/transaction';
import { type Prisma } from '../../generated/prisma/client';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { findRoom, roomScope } from '../base/room-access';
import { revoke } from './delivery-states';
import { findStay, requireActive } from '../base/stay-dto';
import { facePhotoUrl } from '../uploads/face-photos';
import { followCredentials } from './delivery';
import { DOOR_SELECT, doorDto, type CredentialDoorDto } from '../base/door-dto';
import { credentialListWhere, isExpired, periodOfStay, retryCredential, revokeCredential } from './life-cycle';

import { findFace, isUniqueViolation, liveStates, lockFace } from './face.service';
import { recordEvent } from '../../db/events';
import { requireLockTakes } from '../base/lock-takes';

/**
 * Faces authorised on rooms' locks: a credential of the delivery engine like a password, `pending`
 * until the lock confirmed it, revoked with its stay; its revocation and retry are the life cycle's
 * (life-cycle.ts).
 */

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
  /** A shared door's copy of the room's authorisation (docs/shared-doors.md): the door; null on the room's lock. */
  door: CredentialDoorDto | null;
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
  doorLock: { select: DOOR_SELECT },
} as const satisfies Prisma.FaceAuthorizationSelect;
type AuthorizationRow = Prisma.FaceAuthorizationGetPayload<{ select: typeof authorizationSelect }>;

function toAuthorizationDto(a: AuthorizationRow, ctx: AuthedContext): FaceAuthorizationDto {
  return {
    id: a.id,
    face: { ...a.face, imageUrl: facePhotoUrl(ctx.deps, ctx.actor.hotelId, a.face.id) },
    roomId: a.roomId,
    roomName: a.room.name,
    lockId: a.doorLock ? a.doorLock.providerLockId : (a.room.lock?.providerLockId ?? null),
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
    door: doorDto(a.doorLock),
  };
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
  await requireLockTakes(deps.prisma, actor.hotelId, room.id, 'faces');
  await findFace(ctx, input.id);
  const { from, until } = await periodOfStay(ctx, input, room.id, now);
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
      const live = await tx.faceAuthorization.findMany({
        where: { faceId: input.id, roomId: room.id, doorLockId: null, deliveryState: liveStates },
        select: { id: true, validUntil: true },
      });
      if (live.some((a) => !isExpired(a, now))) throw alreadyAuthorized();
      // One whose time is over makes way for the new one (the lock refuses it anyway; it comes off).
      if (live.length) await tx.faceAuthorization.updateMany({ where: { id: { in: live.map((a) => a.id) } }, data: revoke('replaced') });
      const row = await tx.faceAuthorization.create({
        data: { hotelId: actor.hotelId, faceId: input.id, roomId: room.id, stayId: input.stayId ?? null, note: input.note, validFrom, validUntil },
        select: authorizationSelect,
      });
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
      followCredentials(tx, deps, actor.hotelId, { roomId: room.id });
      await recordAudit(tx, ctx, {
        action: 'face.authorize',
        entityType: 'FaceAuthorization',
        entityId: row.id,
        after: {
          faceId: input.id,
          roomId: room.id,
          stayId: row.stayId,
          validFrom: row.validFrom.toISOString(),
          validUntil: row.validUntil?.toISOString() ?? null,
        },
      });
      return row;
    });
  } catch (error) {
    // The partial unique index is the last word when two requests race past the check.
    if (isUniqueViolation(error)) throw alreadyAuthorized(error);
    throw error;
  }
  return toAuthorizationDto(created, ctx);
}

/** Authorisations of the rooms the actor may see, newest first: of one face, room or stay. */
export async function listFaceAuthorizations(
  ctx: AuthedContext,
  raw: TFaceAuthorizationListInput,
): Promise<{ items: FaceAuthorizationDto[]; total: number; page: number; pageSize: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'room.read');
  const input = ZFaceAuthorizationListInput.parse(raw);
  // A face of another hotel is "not found" too, like its rooms and stays.
  if (input.id !== undefined) await findFace(ctx, input.id);
  const where: Prisma.FaceAuthorizationWhereInput = {
    ...(await credentialListWhere(ctx, input)),
    ...(input.id !== undefined ? { faceId: input.id } : {}),
  };
  const [rows, total] = await Promise.all([
    deps.prisma.faceAuthorization.findMany({
      where,
      select: authorizationSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    deps.prisma.faceAuthorization.count({ where }),
  ]);
  return { items: rows.map((a) => toAuthorizationDto(a, ctx)), total, page: input.page, pageSize: input.pageSize };
}

async function findAuthorization(ctx: AuthedContext, id: number): Promise<AuthorizationRow> {
  const row = await ctx.deps.prisma.faceAuthorization.findFirst({
    where: { id, hotelId: ctx.actor.hotelId, room: roomScope(ctx.actor) },
    select: authorizationSelect,
  });
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'faces.errors.authorizationNotFound' });
  return row;
}

/** Takes a face off a lock (deletes the authorisation). Already going or gone: answered as it is. */
export async function revokeFaceAuthorization(ctx: AuthedContext, raw: z.input<typeof ZFaceAuthorizationIdInput>): Promise<FaceAuthorizationDto> {
  requirePermission(ctx.actor, 'credential.manage');
  const before = await findAuthorization(ctx, ZFaceAuthorizationIdInput.parse(raw).authorizationId);
  await revokeCredential(ctx, 'face', before, 'manual', { action: 'face.revokeAuthorization', entityType: 'FaceAuthorization' });
  return toAuthorizationDto(await findAuthorization(ctx, before.id), ctx);
}

/** Tries a failed delivery (or removal) of an authorisation again, as a new version. */
export async function retryFaceAuthorization(ctx: AuthedContext, raw: z.input<typeof ZFaceAuthorizationIdInput>): Promise<FaceAuthorizationDto> {
  requirePermission(ctx.actor, 'credential.manage');
  const before = await findAuthorization(ctx, ZFaceAuthorizationIdInput.parse(raw).authorizationId);
  await retryCredential(ctx, 'face', before, { action: 'face.retryAuthorization', entityType: 'FaceAuthorization' });
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
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    await recordAudit(tx, ctx, {
      action: 'face.updateAuthorizationNote',
      entityType: 'FaceAuthorization',
      entityId: before.id,
      before: { note: before.note },
      after: { note: input.note },
    });
  });
  return toAuthorizationDto(await findAuthorization(ctx, before.id), ctx);
}
