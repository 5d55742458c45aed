import { z } from 'zod';
import { DELIVERY_STATES, PASSWORD_KINDS } from '../credentials';
import { ZCredentialDoor } from './shared-door';
import { ROLES } from '../permissions';

export const ZPasswordDto = z.object({
  id: z.number(),
  roomId: z.number(),
  roomName: z.string(),
  stayId: z.number().nullable(),
  accountId: z.number().nullable(),
  kind: z.enum(PASSWORD_KINDS),
  holderName: z.string(),
  code: z.string().nullable(),
  validFrom: z.string(),
  validUntil: z.string().nullable(),
  deliveryState: z.enum(DELIVERY_STATES),
  lastError: z.string().nullable(),
  attempts: z.number(),
  revokeReason: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  removedAt: z.string().nullable(),
  createdAt: z.string(),
  expired: z.boolean(),
  replacesId: z.number().nullable(),
  validityAdjusted: z.boolean(),
  /** The lock platform failed to set the chosen code: this is one of the backup codes it keeps on the lock (Seam). */
  backupCode: z.boolean(),
  /** Pending, accepted by a lock platform that sets it later (Seam): being set on the lock. */
  setting: z.boolean(),
  door: ZCredentialDoor.nullable(),
});
export type TPasswordDto = z.infer<typeof ZPasswordDto>;

export const ZPasswordLimitResult = z.object({
  stayId: z.number(),
  validUntil: z.string(),
  limited: z.number(),
  replaced: z.number(),
  revoked: z.number(),
  limitedFaces: z.number(),
  revokedFaces: z.number(),
  items: z.array(ZPasswordDto),
});
export type TPasswordLimitResult = z.infer<typeof ZPasswordLimitResult>;

export const ZPasswordStaffDto = z.object({
  accountId: z.number(),
  nickname: z.string(),
  mobile: z.string().nullable(),
  role: z.enum(ROLES),
});
export type TPasswordStaffDto = z.infer<typeof ZPasswordStaffDto>;

export const ZPasswordListOutput = z.object({ items: z.array(ZPasswordDto), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZPasswordGetOutput = ZPasswordDto;
export const ZPasswordCreateOutput = ZPasswordDto;
export const ZPasswordRevokeOutput = ZPasswordDto;
export const ZPasswordRetryOutput = ZPasswordDto;
export const ZPasswordLimitOutput = ZPasswordLimitResult;
export const ZPasswordStaffOutput = z.object({ items: z.array(ZPasswordStaffDto) });
