import { z } from 'zod';
import { ZId } from './primitives';
import { UPLOAD_PATH_REGEX } from './faces';
import { ZMobile, isEmail } from './validation';

/**
 * The personal centre (`/center/personalCenter`, issue 9 §4): the signed-in account's own
 * nickname, avatar, e-mail and mobile (each of the last two asks for the current password) and
 * its sessions. Messages are i18n keys.
 */
export const PROFILE_LIMITS = { nicknameMax: 30, emailMax: 254, avatarMax: 200 } as const;

export const ZNickname = z
  .string({ error: 'settings.validation.nicknameRequired' })
  .trim()
  .min(1, { error: 'settings.validation.nicknameRequired' })
  .max(PROFILE_LIMITS.nicknameMax, { error: 'validation.textTooLong' });

export const ZEmail = z
  .string({ error: 'settings.validation.emailRequired' })
  .trim()
  .min(1, { error: 'settings.validation.emailRequired' })
  .max(PROFILE_LIMITS.emailMax, { error: 'validation.emailFormat' })
  .refine(isEmail, { error: 'validation.emailFormat' })
  .transform((v) => v.toLowerCase());

/** The password that confirms a change of a sign-in identity (not checked for length: it is compared). */
export const ZCurrentPassword = z
  .string({ error: 'validation.passwordRequired' })
  .min(1, { error: 'validation.passwordRequired' })
  .max(128, { error: 'validation.passwordTooLong' });

/** An uploaded picture's path (`/uploads/<hotel>/<name>.<ext>`), or null to remove the avatar. */
export const ZAvatarPath = z
  .string({ error: 'validation.pictureInvalid' })
  .max(PROFILE_LIMITS.avatarMax, { error: 'validation.pictureInvalid' })
  .regex(UPLOAD_PATH_REGEX, { error: 'validation.pictureInvalid' })
  .nullable();

export const ZUpdateNicknameInput = z.object({ nickname: ZNickname });
export const ZSetAvatarInput = z.object({ avatar: ZAvatarPath });
export const ZChangeEmailInput = z.object({ email: ZEmail, password: ZCurrentPassword });
export const ZChangeMobileInput = z.object({ mobile: ZMobile, password: ZCurrentPassword });
export const ZSessionIdInput = z.object({ sessionId: ZId });
export type TChangeEmailInput = z.output<typeof ZChangeEmailInput>;
export type TChangeMobileInput = z.output<typeof ZChangeMobileInput>;
