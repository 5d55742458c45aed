import { ZKeyPageGetOutput, ZKeyPageOpenOutput, ZKeyPageRegenerateOutput, ZKeyPageRevokeOutput, ZKeyPageViewOutput } from '@console/shared/dto';
import { ZKeyLinkStayInput, ZKeyPageOpenInput, ZKeyPageTokenInput } from '@console/shared';
import { getKeyLink, regenerateKeyLink, revokeKeyLink } from '../modules/messages/key-link';
import { openByKeyPage, viewKeyPage } from '../modules/key-page/key-page.service';
import { authedProcedure, publicProcedure, router } from './init';

/**
 * The guest's key page (issue 20 §4): `view` and `open` are public (the link's token is the secret,
 * no session); `get`, `regenerate` and `revoke` are the console's, on a stay.
 */
export const keyPageRouter = router({
  view: publicProcedure
    .input(ZKeyPageTokenInput)
    .output(ZKeyPageViewOutput)
    .query(({ ctx, input }) => viewKeyPage(ctx, input)),
  open: publicProcedure
    .input(ZKeyPageOpenInput)
    .output(ZKeyPageOpenOutput)
    .mutation(({ ctx, input }) => openByKeyPage(ctx, input)),
  get: authedProcedure
    .input(ZKeyLinkStayInput)
    .output(ZKeyPageGetOutput)
    .query(({ ctx, input }) => getKeyLink(ctx, input)),
  regenerate: authedProcedure
    .input(ZKeyLinkStayInput)
    .output(ZKeyPageRegenerateOutput)
    .mutation(({ ctx, input }) => regenerateKeyLink(ctx, input)),
  revoke: authedProcedure
    .input(ZKeyLinkStayInput)
    .output(ZKeyPageRevokeOutput)
    .mutation(({ ctx, input }) => revokeKeyLink(ctx, input)),
});
