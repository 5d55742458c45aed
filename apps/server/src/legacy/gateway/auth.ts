import { z } from 'zod';
import { ZAccount, ZCaptchaCode } from '@console/shared';
import { createCaptcha } from '../../infra/captcha';
import { login, logout } from '../../modules/auth/auth.service';
import { bearerRoute, publicRoute } from './route';

/** An empty field is an absent one (a client that always sends `code`, empty until it is asked for). */
const blankIsAbsent = (value: unknown) => (value === '' || value === null ? undefined : value);

/**
 * `/auth/*`: sign-in to the card-service gateway. The same account rules, limits, graphic code,
 * lockouts and audit as the console's sign-in (auth.service `login`); the session is of kind
 * `gateway` and its token goes back as `Authorization: Bearer <token>`.
 */
export const authRoutes = [
  publicRoute({
    method: ['GET', 'POST'],
    url: '/auth/captcha',
    input: z.object({}),
    services: [createCaptcha],
    async handle(ctx) {
      const captcha = await createCaptcha(ctx.deps);
      return { data: { codeKey: captcha.id, image: `data:image/svg+xml;base64,${Buffer.from(captcha.svg).toString('base64')}` } };
    },
  }),

  publicRoute({
    method: ['POST'],
    url: '/auth/login',
    input: z.object({
      mobile: ZAccount,
      password: z
        .string({ error: 'validation.passwordRequired' })
        .min(1, { error: 'validation.passwordRequired' })
        .max(256, { error: 'validation.passwordTooLong' }),
      code: z.preprocess(blankIsAbsent, ZCaptchaCode.optional()),
      codeKey: z.preprocess(blankIsAbsent, z.string({ error: 'validation.captchaRequired' }).max(64, { error: 'validation.captchaRequired' }).optional()),
    }),
    services: [login],
    fields: { account: 'mobile', captcha: 'code' },
    async handle(ctx, input) {
      const captcha = input.code !== undefined ? { id: input.codeKey ?? '', code: input.code } : undefined;
      const { token, user } = await login(ctx, { account: input.mobile, password: input.password, captcha, kind: 'gateway' });
      const { absoluteMs, idleMs } = ctx.deps.config.session;
      return {
        messageKey: 'gateway.signedIn',
        data: {
          token,
          tokenType: 'Bearer',
          /** Seconds until the token ends whatever happens (the session's absolute expiry). */
          expiresIn: Math.floor(absoluteMs / 1000),
          /** Seconds without a call after which the token ends (the session's idle expiry). */
          idleTimeout: Math.floor(idleMs / 1000),
          expiresAt: new Date(Date.now() + absoluteMs).toISOString(),
          hotel: user.hotel,
          user: { id: user.id, nickname: user.nickname, mobile: user.mobile, email: user.email, role: user.role, permissions: user.permissions },
        },
      };
    },
  }),

  bearerRoute({
    method: ['POST'],
    url: '/auth/logout',
    input: z.object({}),
    services: [logout],
    async handle(ctx) {
      await logout(ctx);
      return { data: null, messageKey: 'gateway.signedOut' };
    },
  }),
];
