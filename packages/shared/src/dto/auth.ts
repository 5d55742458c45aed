import { z } from 'zod';
import { ROLES } from '../permissions';
import { ZOk } from './common';

export const ZUserInfo = z.object({
  id: z.number(),
  nickname: z.string(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  apiKeyAuth: z.boolean(),
  role: z.enum(ROLES),
  permissions: z.array(z.string()),
  hotel: z.object({ id: z.number(), name: z.string(), timeZone: z.string(), currency: z.string() }),
  hotelCount: z.number(),
  /**
   * The account signed in with a password it did not choose (sent by SMS when it was added from the
   * staff page): it must choose its own before anything else (issue 39 §7).
   */
  mustChangePassword: z.boolean(),
});
export type TUserInfo = z.infer<typeof ZUserInfo>;

export const ZAccountHotel = z.object({ id: z.number(), name: z.string(), role: z.enum(ROLES), current: z.boolean() });
export type TAccountHotel = z.infer<typeof ZAccountHotel>;

export const ZAuthCaptchaOutput = z.object({ id: z.string(), svg: z.string() });
export const ZAuthLoginOutput = ZUserInfo;
export const ZAuthMeOutput = ZUserInfo;
export const ZAuthHotelsOutput = z.array(ZAccountHotel);
export const ZAuthSwitchHotelOutput = ZUserInfo;
export const ZAuthLogoutOutput = ZOk;
export const ZAuthChangePasswordOutput = ZOk;
export const ZAuthSendResetCodeOutput = ZOk;
export const ZAuthResetPasswordOutput = ZOk;
