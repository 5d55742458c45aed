import { z } from 'zod';
import { LIMITS } from './limits';
import { WHEN_FIELDS_VALID, ZId, ZPageInput, ZSearch } from './primitives';

/**
 * Form rules of spec §5, shared by the web console and the server. Messages are i18n keys
 * (`validation.*` in `locales/`); each side translates them into the user's language.
 */
export const MOBILE_REGEX = /^1[3-9]\d{9}$/;
export const SMS_CODE_REGEX = /^\d{6}$/;
export const EXTERNAL_LINK_REGEX = /^(https?:|mailto:|tel:)/;

export function isMobile(value: string): boolean {
  return MOBILE_REGEX.test(value);
}

export function isEmail(value: string): boolean {
  return z.email().safeParse(value).success;
}

export function isExternalLink(value: string): boolean {
  return EXTERNAL_LINK_REGEX.test(value);
}

/** Trims an account identifier and lower-cases an e-mail so the same login always matches. */
export function normalizeAccount(value: string): string {
  const trimmed = value.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : trimmed;
}

/** A sign-in account: a mainland mobile number or an e-mail address. */
export const ZAccount = z
  .string({ error: 'validation.accountRequired' })
  .trim()
  .min(1, { error: 'validation.accountRequired' })
  .max(254, { error: 'validation.accountInvalid' })
  .superRefine((value, ctx) => {
    if (value.includes('@')) {
      if (!isEmail(value)) ctx.addIssue({ code: 'custom', message: 'validation.emailFormat' });
    } else if (!isMobile(value)) {
      ctx.addIssue({ code: 'custom', message: 'validation.accountInvalid' });
    }
  })
  .transform(normalizeAccount);

export const ZMobile = z
  .string({ error: 'validation.mobileRequired' })
  .trim()
  .min(1, { error: 'validation.mobileRequired' })
  .regex(MOBILE_REGEX, { error: 'validation.mobileInvalid' });

export const ZPassword = z
  .string({ error: 'validation.passwordRequired' })
  .min(1, { error: 'validation.passwordRequired' })
  .min(LIMITS.passwordMinLength, { error: 'validation.passwordLength' })
  .max(LIMITS.passwordMaxLength, { error: 'validation.passwordTooLong' });

export const ZNewPassword = z
  .string({ error: 'validation.newPasswordRequired' })
  .min(1, { error: 'validation.newPasswordRequired' })
  .min(LIMITS.passwordMinLength, { error: 'validation.newPasswordLength' })
  .max(LIMITS.passwordMaxLength, { error: 'validation.passwordTooLong' });

export const ZConfirmPassword = z.string({ error: 'validation.confirmPasswordRequired' }).min(1, { error: 'validation.confirmPasswordRequired' });

export const ZCaptchaCode = z
  .string({ error: 'validation.captchaRequired' })
  .trim()
  .min(1, { error: 'validation.captchaRequired' })
  .length(LIMITS.captchaLength, { error: 'validation.captchaLength' });

export const ZSmsCode = z
  .string({ error: 'validation.smsCodeRequired' })
  .trim()
  .min(1, { error: 'validation.smsCodeRequired' })
  .regex(SMS_CODE_REGEX, { error: 'validation.smsCodeFormat' });

export const ZLoginInput = z.object({
  account: ZAccount,
  password: ZPassword,
  captchaId: z.string({ error: 'validation.captchaRequired' }).min(1, { error: 'validation.captchaRequired' }).max(64),
  captchaCode: ZCaptchaCode,
});
export type TLoginInput = z.output<typeof ZLoginInput>;

const passwordsMatch = (v: { newPassword: string; confirmPassword: string }) => v.newPassword === v.confirmPassword;

export const ZChangePasswordInput = z
  .object({
    oldPassword: z.string({ error: 'validation.oldPasswordRequired' }).min(1, { error: 'validation.oldPasswordRequired' }).max(LIMITS.passwordMaxLength),
    newPassword: ZNewPassword,
    confirmPassword: ZConfirmPassword,
  })
  .refine(passwordsMatch, { error: 'validation.passwordMismatch', path: ['confirmPassword'], ...WHEN_FIELDS_VALID })
  .refine((v) => v.oldPassword !== v.newPassword, { error: 'validation.passwordUnchanged', path: ['newPassword'], ...WHEN_FIELDS_VALID });
export type TChangePasswordInput = z.output<typeof ZChangePasswordInput>;

/** Another hotel of the signed-in account for the current session (issue 9 §1). */
export const ZSwitchHotelInput = z.object({ hotelId: ZId });
export type TSwitchHotelInput = z.output<typeof ZSwitchHotelInput>;

export const ZSendResetCodeInput = z.object({ mobile: ZMobile });
export type TSendResetCodeInput = z.output<typeof ZSendResetCodeInput>;

export const ZResetPasswordInput = z
  .object({
    mobile: ZMobile,
    code: ZSmsCode,
    newPassword: ZNewPassword,
    confirmPassword: ZConfirmPassword,
  })
  .refine(passwordsMatch, { error: 'validation.passwordMismatch', path: ['confirmPassword'], ...WHEN_FIELDS_VALID });
export type TResetPasswordInput = z.output<typeof ZResetPasswordInput>;

/** Form fields arrive as text: an empty one is missing, not 0. */
export const blankToUndefined = (v: unknown) => (v === '' || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

export const CUSTOMER_STATES = ['all', 'active', 'frozen'] as const;
export const CUSTOMER_SORTS = ['newest', 'oldest'] as const;

export const ZCustomerListInput = ZPageInput.extend({
  search: ZSearch.optional(),
  state: z.enum(CUSTOMER_STATES, { error: 'validation.stateInvalid' }).default('all'),
  sort: z.enum(CUSTOMER_SORTS, { error: 'validation.sortInvalid' }).default('newest'),
});
export type TCustomerListInput = z.input<typeof ZCustomerListInput>;

export const ZCustomerIdInput = z.object({ id: ZId });
export const ZFreezeCustomerInput = z.object({ id: ZId, frozen: z.boolean({ error: 'validation.frozenInvalid' }) });
export type TFreezeCustomerInput = z.output<typeof ZFreezeCustomerInput>;

/** The i18n key of the first problem of a failed parse, and one message per field. */
/** A message key of a field rule: `validation.*`, or `settings.validation.*` (texts of pages outside the first download, lib/text-parts.ts). */
/** A message that names a rule: `validation.*`, or an area's own rules (`settings.validation.*`, `reservations.validation.*`). */
const isRuleKey = (message: string) => /^([A-Za-z]+\.)?validation\./.test(message);

export function describeZodError(error: z.ZodError): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = isRuleKey(issue.message) ? issue.message : 'validation.invalid';
  }
  const first = error.issues[0];
  const message = first && isRuleKey(first.message) ? first.message : 'validation.invalid';
  return { message, fields };
}
