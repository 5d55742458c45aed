import { ZResetPasswordInput, ZSendResetCodeInput } from '@console/shared';
import { resetPassword, sendResetCode } from '../../modules/auth/auth.service';
import { publicAction } from './action';

/** `/manage/getBack/*`: password recovery by SMS code. */
export const getBackActions = [
  publicAction({
    path: 'getBack/sendMsg',
    input: ZSendResetCodeInput,
    services: [sendResetCode],
    async handle(ctx, input) {
      await sendResetCode(ctx, input);
      return null;
    },
  }),

  publicAction({
    path: 'getBack/reset',
    input: ZResetPasswordInput,
    services: [resetPassword],
    async handle(ctx, input) {
      await resetPassword(ctx, input);
      return null;
    },
  }),
];
