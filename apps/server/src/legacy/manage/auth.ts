import { z } from 'zod';
import { ZAccount, ZCaptchaCode, ZChangePasswordInput, ZResetPasswordInput, ZSendResetCodeInput } from '@console/shared';
import { createCaptcha } from '../../infra/captcha';
import { changePassword, login, logout, resetPassword, sendResetCode } from '../../modules/auth/auth.service';
import { publicAction, sessionAction } from './action';

/** Sign-in, sign-out, password change and recovery: `/manage/login`, `/manage/logout`, `/manage/setting/*`, `/manage/getBack/*`. */
export const authActions = [
  publicAction('captcha', z.object({}), async (ctx) => {
    const captcha = await createCaptcha(ctx.deps);
    return { codeKey: captcha.id, image: `data:image/svg+xml;base64,${Buffer.from(captcha.svg).toString('base64')}` };
  }),

  publicAction(
    'login',
    z.object({
      mobile: ZAccount,
      password: z.string({ error: 'validation.passwordRequired' }).min(1, { error: 'validation.passwordRequired' }).max(256),
      code: ZCaptchaCode.optional(),
      codeKey: z.string().max(64).optional(),
    }),
    async (ctx, input) => {
      const captcha = input.code !== undefined ? { id: input.codeKey ?? '', code: input.code } : undefined;
      const result = await login(ctx, { account: input.mobile, password: input.password, captcha, kind: 'legacy' });
      return { token: result.token, userInfo: result.user };
    },
  ),

  sessionAction('logout', z.object({}), async (ctx) => {
    await logout(ctx);
    return null;
  }),

  sessionAction('setting/updatePassword', ZChangePasswordInput, async (ctx, input) => {
    await changePassword(ctx, input);
    return null;
  }),

  publicAction('getBack/sendMsg', ZSendResetCodeInput, async (ctx, input) => {
    await sendResetCode(ctx, input);
    return null;
  }),

  publicAction('getBack/reset', ZResetPasswordInput, async (ctx, input) => {
    await resetPassword(ctx, input);
    return null;
  }),
];
