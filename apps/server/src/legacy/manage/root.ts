import { z } from 'zod';
import { ZAccount, ZCaptchaCode } from '@console/shared';
import { createCaptcha } from '../../infra/captcha';
import { login, logout } from '../../modules/auth/auth.service';
import { publicAction, sessionAction } from './action';

/** `/manage/captcha`, `/manage/login`, `/manage/logout`: the actions at the root of the protocol. */
export const rootActions = [
  publicAction({
    path: 'captcha',
    input: z.object({}),
    services: [createCaptcha],
    async handle(ctx) {
      const captcha = await createCaptcha(ctx.deps);
      return { codeKey: captcha.id, image: `data:image/svg+xml;base64,${Buffer.from(captcha.svg).toString('base64')}` };
    },
  }),

  publicAction({
    path: 'login',
    input: z.object({
      mobile: ZAccount,
      password: z
        .string({ error: 'validation.passwordRequired' })
        .min(1, { error: 'validation.passwordRequired' })
        .max(256, { error: 'validation.passwordTooLong' }),
      code: ZCaptchaCode.optional(),
      codeKey: z.string({ error: 'validation.captchaRequired' }).max(64, { error: 'validation.captchaRequired' }).optional(),
    }),
    services: [login],
    fields: { account: 'mobile', captcha: 'code' },
    async handle(ctx, input) {
      const captcha = input.code !== undefined ? { id: input.codeKey ?? '', code: input.code } : undefined;
      const result = await login(ctx, { account: input.mobile, password: input.password, captcha, kind: 'legacy' });
      return { token: result.token, userInfo: result.user };
    },
  }),

  sessionAction({
    path: 'logout',
    input: z.object({}),
    services: [logout],
    passwordChange: true,
    async handle(ctx) {
      await logout(ctx);
      return null;
    },
  }),
];
