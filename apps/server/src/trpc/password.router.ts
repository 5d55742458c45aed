import {
  ZPasswordListOutput,
  ZPasswordGetOutput,
  ZPasswordCreateOutput,
  ZPasswordRevokeOutput,
  ZPasswordRetryOutput,
  ZPasswordLimitOutput,
  ZPasswordStaffOutput,
} from '@console/shared/dto';
import { ZPasswordCreateInput, ZPasswordIdInput, ZPasswordLimitInput, ZPasswordListInput, ZPasswordRevokeInput } from '@console/shared';
import { listPasswordStaff } from '../modules/credentials/password-staff';
import { createPassword, getPassword, limitStayPasswords, listPasswords, retryPassword, revokePassword } from '../modules/credentials/password.service';
import { authedProcedure, router } from './init';

export const passwordRouter = router({
  list: authedProcedure
    .input(ZPasswordListInput)

    .output(ZPasswordListOutput)
    .query(({ ctx, input }) => listPasswords(ctx, input)),
  get: authedProcedure
    .input(ZPasswordIdInput)

    .output(ZPasswordGetOutput)
    .query(({ ctx, input }) => getPassword(ctx, input)),
  create: authedProcedure
    .input(ZPasswordCreateInput)

    .output(ZPasswordCreateOutput)
    .mutation(({ ctx, input }) => createPassword(ctx, input)),
  revoke: authedProcedure
    .input(ZPasswordRevokeInput)

    .output(ZPasswordRevokeOutput)
    .mutation(({ ctx, input }) => revokePassword(ctx, input)),
  retry: authedProcedure
    .input(ZPasswordIdInput)

    .output(ZPasswordRetryOutput)
    .mutation(({ ctx, input }) => retryPassword(ctx, input)),
  /** Limits a stay's passwords: none works after the new end. */
  limit: authedProcedure
    .input(ZPasswordLimitInput)

    .output(ZPasswordLimitOutput)
    .mutation(({ ctx, input }) => limitStayPasswords(ctx, input)),
  /** Who "a staff member" can be when a password is issued. */
  staff: authedProcedure.output(ZPasswordStaffOutput).query(({ ctx }) => listPasswordStaff(ctx)),
});
