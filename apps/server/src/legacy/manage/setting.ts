import { ZChangePasswordInput } from '@console/shared';
import { changePassword } from '../../modules/auth/auth.service';
import { sessionAction } from './action';

/** `/manage/setting/*`: the signed-in account's own settings. */
export const settingActions = [
  sessionAction({
    path: 'setting/updatePassword',
    input: ZChangePasswordInput,
    services: [changePassword],
    passwordChange: true,
    async handle(ctx, input) {
      await changePassword(ctx, input);
      return null;
    },
  }),
];
