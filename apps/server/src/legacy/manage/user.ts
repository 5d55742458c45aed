import { z } from 'zod';
import { ZFaceAuthorizationNote, ZFaceCode, ZFaceImage, ZFaceNote, ZId, ZSearch, zInt } from '@console/shared';
import type { Actor } from '../../context';
import { setCustomerFrozen } from '../../modules/customers/customer.service';
import { updateFaceAuthorizationNote } from '../../modules/credentials/face-authorization.service';
import { createFace, deleteFace, listFaces, updateFaceNote, type FaceDto } from '../../modules/credentials/face.service';
import { sessionAction } from './action';
import { legacyPage, zLegacyPaging } from './convert';
import { legacyTime } from './format';
import { legacyFaceAuthorization } from './lock';
import { legacyCustomer } from './room/customers';
import { userSetManagerAction } from './room/staff';

/** A face of the face database in legacy form. */
function legacyFace(f: FaceDto, actor: Actor) {
  return {
    id: f.id,
    face_id: f.faceId,
    note: f.note,
    image: f.imageUrl,
    manage_id: f.guestId,
    customer_id: f.customerId,
    empower_count: f.activeAuthorizations,
    create_time: legacyTime(f.createdAt, actor.timeZone),
    update_time: legacyTime(f.updatedAt, actor.timeZone),
  };
}

/** `/manage/user/*`: customers, and the face database ("TFaceImg"; docs/legacy-protocol.md, "Faces"). */
export const userActions = [
  userSetManagerAction,

  sessionAction({
    path: 'user/freezeUser',
    input: z.object({ id: ZId, status: zInt({ min: 0, max: 1 }, 'validation.frozenInvalid') }),
    services: [setCustomerFrozen],
    fields: { frozen: 'status' },
    handle: async (ctx, input) => legacyCustomer(await setCustomerFrozen(ctx, { id: input.id, frozen: input.status === 1 }), ctx.actor.timeZone),
  }),

  sessionAction({
    path: 'user/uploadTFaceImg',
    input: z.object({ face_id: ZFaceCode, note: ZFaceNote, image: ZFaceImage, manage_id: ZId.optional() }),
    services: [createFace],
    fields: { faceId: 'face_id', imageUrl: 'image' },
    handle: async (ctx, input) =>
      legacyFace(await createFace(ctx, { faceId: input.face_id, note: input.note, imageUrl: input.image, guestId: input.manage_id }), ctx.actor),
  }),

  sessionAction({
    path: 'user/faceImgList',
    input: z.object({ ...zLegacyPaging(), keyword: ZSearch.optional() }),
    services: [listFaces],
    fields: { search: 'keyword' },
    async handle(ctx, input) {
      const result = await listFaces(ctx, { page: input.page, pageSize: input.limit, search: input.keyword });
      return legacyPage(result, (f) => legacyFace(f, ctx.actor));
    },
  }),

  sessionAction({
    path: 'user/updateFaceNote',
    input: z.object({ id: ZId, note: ZFaceNote }),
    services: [updateFaceNote],
    handle: async (ctx, input) => legacyFace(await updateFaceNote(ctx, { id: input.id, note: input.note }), ctx.actor),
  }),

  sessionAction({
    path: 'user/deleteTFaceImg',
    input: z.object({ id: ZId }),
    services: [deleteFace],
    async handle(ctx, input) {
      await deleteFace(ctx, { id: input.id });
      return null;
    },
  }),

  sessionAction({
    path: 'user/updateLockFaceNote',
    input: z.object({ id: ZId, note: ZFaceAuthorizationNote }),
    services: [updateFaceAuthorizationNote],
    fields: { authorizationId: 'id' },
    handle: async (ctx, input) => legacyFaceAuthorization(await updateFaceAuthorizationNote(ctx, { authorizationId: input.id, note: input.note }), ctx),
  }),
];
