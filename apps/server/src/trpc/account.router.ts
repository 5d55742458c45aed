import {
  ZAccountProfileOutput,
  ZAccountUpdateNicknameOutput,
  ZAccountSetAvatarOutput,
  ZAccountChangeEmailOutput,
  ZAccountChangeMobileOutput,
  ZAccountSessionsOutput,
  ZAccountRevokeSessionOutput,
  ZAccountRevokeOtherSessionsOutput,
} from '@console/shared/dto';
import { ZChangeEmailInput, ZChangeMobileInput, ZSessionIdInput, ZSetAvatarInput, ZUpdateNicknameInput } from '@console/shared';
import {
  changeEmail,
  changeMobile,
  getProfile,
  listSessions,
  revokeOtherSessions,
  revokeOwnSession,
  setAvatar,
  updateNickname,
} from '../modules/account/profile.service';
import { authedProcedure, router } from './init';

/** The personal centre (issue 9 §4): the signed-in account's own profile and sessions. */
export const accountRouter = router({
  profile: authedProcedure.output(ZAccountProfileOutput).query(({ ctx }) => getProfile(ctx)),
  updateNickname: authedProcedure
    .input(ZUpdateNicknameInput)

    .output(ZAccountUpdateNicknameOutput)
    .mutation(({ ctx, input }) => updateNickname(ctx, input)),
  setAvatar: authedProcedure
    .input(ZSetAvatarInput)

    .output(ZAccountSetAvatarOutput)
    .mutation(({ ctx, input }) => setAvatar(ctx, input)),
  changeEmail: authedProcedure
    .input(ZChangeEmailInput)

    .output(ZAccountChangeEmailOutput)
    .mutation(({ ctx, input }) => changeEmail(ctx, input)),
  changeMobile: authedProcedure
    .input(ZChangeMobileInput)

    .output(ZAccountChangeMobileOutput)
    .mutation(({ ctx, input }) => changeMobile(ctx, input)),
  sessions: authedProcedure.output(ZAccountSessionsOutput).query(({ ctx }) => listSessions(ctx)),
  revokeSession: authedProcedure
    .input(ZSessionIdInput)

    .output(ZAccountRevokeSessionOutput)
    .mutation(({ ctx, input }) => revokeOwnSession(ctx, input)),
  revokeOtherSessions: authedProcedure.output(ZAccountRevokeOtherSessionsOutput).mutation(({ ctx }) => revokeOtherSessions(ctx)),
});
