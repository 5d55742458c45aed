import { ZChangeEmailInput, ZChangeMobileInput, ZSessionIdInput, ZSetAvatarInput, ZUpdateNicknameInput } from '@console/shared';
import { changeEmail, changeMobile, getProfile, listSessions, revokeOtherSessions, revokeOwnSession, setAvatar, updateNickname } from '../modules/account/profile.service';
import { authedProcedure, router } from './init';

/** The personal centre (issue 9 §4): the signed-in account's own profile and sessions. */
export const accountRouter = router({
  profile: authedProcedure.query(({ ctx }) => getProfile(ctx)),
  updateNickname: authedProcedure.input(ZUpdateNicknameInput).mutation(({ ctx, input }) => updateNickname(ctx, input)),
  setAvatar: authedProcedure.input(ZSetAvatarInput).mutation(({ ctx, input }) => setAvatar(ctx, input)),
  changeEmail: authedProcedure.input(ZChangeEmailInput).mutation(({ ctx, input }) => changeEmail(ctx, input)),
  changeMobile: authedProcedure.input(ZChangeMobileInput).mutation(({ ctx, input }) => changeMobile(ctx, input)),
  sessions: authedProcedure.query(({ ctx }) => listSessions(ctx)),
  revokeSession: authedProcedure.input(ZSessionIdInput).mutation(({ ctx, input }) => revokeOwnSession(ctx, input)),
  revokeOtherSessions: authedProcedure.mutation(({ ctx }) => revokeOtherSessions(ctx)),
});
