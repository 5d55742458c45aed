import {
  ZAuthCaptchaOutput,
  ZAuthLoginOutput,
  ZAuthMeOutput,
  ZAuthHotelsOutput,
  ZAuthSwitchHotelOutput,
  ZAuthLogoutOutput,
  ZAuthChangePasswordOutput,
  ZAuthSendResetCodeOutput,
  ZAuthResetPasswordOutput,
} from '@console/shared/dto';
import { COOKIES, ZChangePasswordInput, ZLoginInput, ZResetPasswordInput, ZSendResetCodeInput, ZSwitchHotelInput } from '@console/shared';
import { createCaptcha } from '../infra/captcha';
import { changePassword, getUserInfo, listAccountHotels, login, logout, resetPassword, sendResetCode, switchHotel } from '../modules/auth/auth.service';
import { authedProcedure, passwordChangeProcedure, publicProcedure, router, type TContext } from './init';

function sessionCookieOptions(ctx: TContext, maxAgeSeconds?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: ctx.deps.config.cookieSecure,
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
}

export const authRouter = router({
  captcha: publicProcedure.output(ZAuthCaptchaOutput).mutation(({ ctx }) => createCaptcha(ctx.deps)),

  login: publicProcedure
    .input(ZLoginInput)

    .output(ZAuthLoginOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await login(ctx, {
        account: input.account,
        password: input.password,
        captcha: { id: input.captchaId, code: input.captchaCode },
        kind: 'web',
      });
      void ctx.res.setCookie(COOKIES.session, result.token, sessionCookieOptions(ctx, Math.floor(ctx.deps.config.session.absoluteMs / 1000)));
      return result.user;
    }),

  me: authedProcedure.output(ZAuthMeOutput).query(({ ctx }) => getUserInfo(ctx)),

  /** The hotels of the signed-in account, the current one marked (the navbar's hotel switch). */
  hotels: authedProcedure.output(ZAuthHotelsOutput).query(({ ctx }) => listAccountHotels(ctx)),

  /** Moves this session to another hotel of the account; answers the user info there. */
  switchHotel: authedProcedure
    .input(ZSwitchHotelInput)

    .output(ZAuthSwitchHotelOutput)
    .mutation(({ ctx, input }) => switchHotel(ctx, input)),

  // Allowed to a session that must change its password first (issue 39 §7), as changePassword is.
  logout: passwordChangeProcedure.output(ZAuthLogoutOutput).mutation(async ({ ctx }) => {
    await logout(ctx);
    void ctx.res.clearCookie(COOKIES.session, sessionCookieOptions(ctx));
    return { ok: true };
  }),

  changePassword: passwordChangeProcedure
    .input(ZChangePasswordInput)

    .output(ZAuthChangePasswordOutput)
    .mutation(async ({ ctx, input }) => {
      await changePassword(ctx, input);
      void ctx.res.clearCookie(COOKIES.session, sessionCookieOptions(ctx));
      return { ok: true };
    }),

  sendResetCode: publicProcedure
    .input(ZSendResetCodeInput)

    .output(ZAuthSendResetCodeOutput)
    .mutation(async ({ ctx, input }) => {
      await sendResetCode(ctx, input);
      return { ok: true };
    }),

  resetPassword: publicProcedure
    .input(ZResetPasswordInput)

    .output(ZAuthResetPasswordOutput)
    .mutation(async ({ ctx, input }) => {
      await resetPassword(ctx, input);
      return { ok: true };
    }),
});
