import { ZCredentialDoor } from './shared-door';
import { z } from 'zod';
import { DELIVERY_STATES } from '../credentials';
import { ZOk } from './common';

export const ZFaceDto = z.object({
  id: z.number(),
  faceId: z.string(),
  note: z.string(),
  imageUrl: z.string(),
  guestId: z.number().nullable(),
  customerId: z.number().nullable(),
  activeAuthorizations: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TFaceDto = z.infer<typeof ZFaceDto>;

export const ZFaceAuthorizationDto = z.object({
  id: z.number(),
  face: z.object({ id: z.number(), faceId: z.string(), note: z.string(), imageUrl: z.string() }),
  roomId: z.number(),
  roomName: z.string(),
  lockId: z.string().nullable(),
  stayId: z.number().nullable(),
  note: z.string(),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  expired: z.boolean(),
  deliveryState: z.enum(DELIVERY_STATES),
  lastError: z.string().nullable(),
  attempts: z.number(),
  revokeReason: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  removedAt: z.string().nullable(),
  createdAt: z.string(),
  door: ZCredentialDoor.nullable(),
});
export type TFaceAuthorizationDto = z.infer<typeof ZFaceAuthorizationDto>;

export const ZFaceListOutput = z.object({ items: z.array(ZFaceDto), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZFaceOfGuestOutput = z.array(ZFaceDto);
export const ZFaceGetOutput = ZFaceDto;
export const ZFaceCreateOutput = ZFaceDto;
export const ZFaceUpdateNoteOutput = ZFaceDto;
export const ZFaceDeleteOutput = ZOk;
export const ZFaceAuthorizeOutput = ZFaceAuthorizationDto;
export const ZFaceAuthorizationsOutput = z.object({ items: z.array(ZFaceAuthorizationDto), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZFaceRevokeAuthorizationOutput = ZFaceAuthorizationDto;
export const ZFaceRetryAuthorizationOutput = ZFaceAuthorizationDto;
export const ZFaceUpdateAuthorizationNoteOutput = ZFaceAuthorizationDto;
