import {
  ZFaceListOutput,
  ZFaceOfGuestOutput,
  ZFaceGetOutput,
  ZFaceCreateOutput,
  ZFaceUpdateNoteOutput,
  ZFaceDeleteOutput,
  ZFaceAuthorizeOutput,
  ZFaceAuthorizationsOutput,
  ZFaceRevokeAuthorizationOutput,
  ZFaceRetryAuthorizationOutput,
  ZFaceUpdateAuthorizationNoteOutput,
} from '@console/shared/dto';
import {
  ZFaceAuthorizationIdInput,
  ZFaceAuthorizationListInput,
  ZFaceAuthorizationNoteInput,
  ZFaceAuthorizeInput,
  ZFaceCreateInput,
  ZFaceIdInput,
  ZFaceListInput,
  ZFaceNoteInput,
  ZFacesOfGuestInput,
} from '@console/shared';
import {
  authorizeFace,
  listFaceAuthorizations,
  retryFaceAuthorization,
  revokeFaceAuthorization,
  updateFaceAuthorizationNote,
} from '../modules/credentials/face-authorization.service';
import { createFace, deleteFace, getFace, listFaces, listFacesOfGuest, updateFaceNote } from '../modules/credentials/face.service';
import { authedProcedure, router } from './init';

/** The face database and faces authorised on locks. The photo is uploaded first (`/api/uploads?purpose=face`). */
export const faceRouter = router({
  list: authedProcedure
    .input(ZFaceListInput)

    .output(ZFaceListOutput)
    .query(({ ctx, input }) => listFaces(ctx, input)),
  /** The faces of a guest being checked in (by mobile or ID number), offered for the stay's lock. */
  ofGuest: authedProcedure
    .input(ZFacesOfGuestInput)

    .output(ZFaceOfGuestOutput)
    .query(({ ctx, input }) => listFacesOfGuest(ctx, input)),
  get: authedProcedure
    .input(ZFaceIdInput)

    .output(ZFaceGetOutput)
    .query(({ ctx, input }) => getFace(ctx, input)),
  create: authedProcedure
    .input(ZFaceCreateInput)

    .output(ZFaceCreateOutput)
    .mutation(({ ctx, input }) => createFace(ctx, input)),
  updateNote: authedProcedure
    .input(ZFaceNoteInput)

    .output(ZFaceUpdateNoteOutput)
    .mutation(({ ctx, input }) => updateFaceNote(ctx, input)),
  delete: authedProcedure
    .input(ZFaceIdInput)

    .output(ZFaceDeleteOutput)
    .mutation(async ({ ctx, input }) => {
      await deleteFace(ctx, input);
      return { ok: true };
    }),
  authorize: authedProcedure
    .input(ZFaceAuthorizeInput)

    .output(ZFaceAuthorizeOutput)
    .mutation(({ ctx, input }) => authorizeFace(ctx, input)),
  authorizations: authedProcedure
    .input(ZFaceAuthorizationListInput)

    .output(ZFaceAuthorizationsOutput)
    .query(({ ctx, input }) => listFaceAuthorizations(ctx, input)),
  revokeAuthorization: authedProcedure
    .input(ZFaceAuthorizationIdInput)

    .output(ZFaceRevokeAuthorizationOutput)
    .mutation(({ ctx, input }) => revokeFaceAuthorization(ctx, input)),
  retryAuthorization: authedProcedure
    .input(ZFaceAuthorizationIdInput)

    .output(ZFaceRetryAuthorizationOutput)
    .mutation(({ ctx, input }) => retryFaceAuthorization(ctx, input)),
  updateAuthorizationNote: authedProcedure
    .input(ZFaceAuthorizationNoteInput)

    .output(ZFaceUpdateAuthorizationNoteOutput)
    .mutation(({ ctx, input }) => updateFaceAuthorizationNote(ctx, input)),
});
