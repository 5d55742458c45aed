import { z } from 'zod';

export const ZProfile = z.object({
  id: z.number(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  createdAt: z.date(),
});
export type TProfile = z.infer<typeof ZProfile>;

export const ZDeviceInfo = z.object({ browser: z.string().nullable(), browserVersion: z.string().nullable(), os: z.string().nullable() });
export type TDeviceInfo = z.infer<typeof ZDeviceInfo>;

export const ZAccountSession = z.object({
  id: z.number(),
  kind: z.enum(['web', 'legacy', 'gateway']),
  userAgent: z.string().nullable(),
  device: ZDeviceInfo,
  ip: z.string().nullable(),
  hotelName: z.string().nullable(),
  createdAt: z.date(),
  lastSeenAt: z.date(),
  isCurrent: z.boolean(),
});
export type TAccountSession = z.infer<typeof ZAccountSession>;

export const ZAccountProfileOutput = ZProfile;
export const ZAccountUpdateNicknameOutput = ZProfile;
export const ZAccountSetAvatarOutput = ZProfile;
export const ZAccountChangeEmailOutput = ZProfile;
export const ZAccountChangeMobileOutput = ZProfile;
export const ZAccountSessionsOutput = z.object({ items: z.array(ZAccountSession) });
export const ZAccountRevokeSessionOutput = z.object({ revoked: z.number() });
export const ZAccountRevokeOtherSessionsOutput = z.object({ revoked: z.number() });
