import { ZApiKeyCreateOutput, ZApiKeyListOutput, ZApiKeyRevokeOutput } from '@console/shared/dto';
import { ZApiKeyCreateInput, ZApiKeyIdInput, ZApiKeyListInput } from '@console/shared';
import { createApiKey, listApiKeys, revokeApiKey } from '../modules/api-keys/api-key.service';
import { authedProcedure, router } from './init';

/** Third-party API keys (issue 9 §2): made (shown once), listed with their last use, revoked at once. */
export const apiKeyRouter = router({
  create: authedProcedure
    .input(ZApiKeyCreateInput)

    .output(ZApiKeyCreateOutput)
    .mutation(({ ctx, input }) => createApiKey(ctx, input)),
  list: authedProcedure
    .input(ZApiKeyListInput)

    .output(ZApiKeyListOutput)
    .query(({ ctx, input }) => listApiKeys(ctx, input)),
  revoke: authedProcedure
    .input(ZApiKeyIdInput)

    .output(ZApiKeyRevokeOutput)
    .mutation(({ ctx, input }) => revokeApiKey(ctx, input)),
});
