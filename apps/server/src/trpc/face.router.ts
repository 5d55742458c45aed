import { ZFaceAuthorizationIdInput, ZFaceAuthorizationListInput, ZFaceAuthorizationNoteInput, ZFaceAuthorizeInput, ZFaceCreateInput, ZFaceIdInput, ZFaceListInput, ZFaceNoteInput, ZFacesOfGuestInput } from '@console/shared';
import {
  authorizeFace,
  createFace,
  deleteFace,
  getFace,
  listFaceAuthorizations,
  listFaces,
  listFacesOfGuest,
  retryFaceAuthorization,
  revokeFaceAuthorization,
  updateFaceAuthorizationNote,
  updateFaceNote,
} from '../modules/credentials/face.service';
import { authedProcedure, router } from './init';

/** The face database and faces authorised on locks. The photo is uploaded first (`/api/uploads?purpose=face`). */
export const faceRouter = router({
  list: authedProcedure.input(ZFaceListInput).query(({ ctx, input }) => listFaces(ctx, input)),
  /** The faces of a guest being checked in (by mobile or ID number), offered for the stay's lock. */
  ofGuest: authedProcedure.input(ZFacesOfGuestInput).query(({ ctx, input }) => listFacesOfGuest(ctx, input)),
  get: authedProcedure.input(ZFaceIdInput).query(({ ctx, input }) => getFace(ctx, input)),
  create: authedProcedure.input(ZFaceCreateInput).mutation(({ ctx, input }) => createFace(ctx, input)),
  updateNote: authedProcedure.input(ZFaceNoteInput).mutation(({ ctx, input }) => updateFaceNote(ctx, input)),
  delete: authedProcedure.input(ZFaceIdInput).mutation(async ({ ctx, input }) => {
    await deleteFace(ctx, input);
    return { ok: true };
  }),
  authorize: authedProcedure.input(ZFaceAuthorizeInput).mutation(({ ctx, input }) => authorizeFace(ctx, input)),
  authorizations: authedProcedure.input(ZFaceAuthorizationListInput).query(({ ctx, input }) => listFaceAuthorizations(ctx, input)),
  revokeAuthorization: authedProcedure.input(ZFaceAuthorizationIdInput).mutation(({ ctx, input }) => revokeFaceAuthorization(ctx, input)),
  retryAuthorization: authedProcedure.input(ZFaceAuthorizationIdInput).mutation(({ ctx, input }) => retryFaceAuthorization(ctx, input)),
  updateAuthorizationNote: authedProcedure.input(ZFaceAuthorizationNoteInput).mutation(({ ctx, input }) => updateFaceAuthorizationNote(ctx, input)),
});
