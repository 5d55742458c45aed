import { z } from 'zod';
import { ZFaceAuthorizationNote, ZId } from '@console/shared';
import type { AuthedContext } from '../../context';
import {
  authorizeFace,
  listFaceAuthorizations,
  revokeFaceAuthorization,
  type FaceAuthorizationDto,
} from '../../modules/credentials/face-authorization.service';
import { sessionAction, type LegacyAction } from './action';
import { ZLegacyTime, instantOrFail, legacyPage, zLegacyPaging } from './convert';
import { legacyTime } from './format';

/**
 * `/manage/lock/*`: what is on a room's lock. One section per topic (faces today; managers,
 * messages, the locks list and check history join as their own sections), each with its
 * converters first and its actions after; `lockActions` at the end gathers them.
 */

// ---------------------------------------------------------------------------------------------
// Faces authorised on a lock ("empower"): docs/legacy-protocol.md, "Faces".

/** An authorisation as legacy clients read it: snake_case, hotel times, codes with their texts in the request's language. */
export function legacyFaceAuthorization(a: FaceAuthorizationDto, ctx: AuthedContext) {
  const t = (key: string) => ctx.deps.i18n.t(ctx.meta.lang, key);
  const zone = ctx.actor.timeZone;
  return {
    id: a.id,
    face_img_id: a.face.id,
    face_id: a.face.faceId,
    face_note: a.face.note,
    image: a.face.imageUrl,
    room_id: a.roomId,
    room_name: a.roomName,
    lock_id: a.lockId,
    stay_id: a.stayId,
    note: a.note,
    start_time: legacyTime(a.validFrom, zone),
    end_time: legacyTime(a.validUntil, zone),
    permanent: a.validUntil === null ? 1 : 0,
    expired: a.expired ? 1 : 0,
    state: a.deliveryState,
    state_text: t(`credentials.states.${a.deliveryState}`),
    error: a.lastError,
    error_text: a.lastError ? t(`credentials.errors.${a.lastError}`) : null,
    attempts: a.attempts,
    revoke_reason: a.revokeReason,
    revoke_reason_text: a.revokeReason ? t(`credentials.revokeReasons.${a.revokeReason}`) : null,
    delivered_time: legacyTime(a.deliveredAt, zone),
    removed_time: legacyTime(a.removedAt, zone),
    create_time: legacyTime(a.createdAt, zone),
  };
}

const faceActions = [
  sessionAction({
    path: 'lock/empowerFace',
    input: z.object({
      face_img_id: ZId,
      room_id: ZId,
      stay_id: ZId.optional(),
      note: ZFaceAuthorizationNote.default(''),
      start_time: ZLegacyTime.optional(),
      end_time: ZLegacyTime.optional(),
    }),
    services: [authorizeFace],
    fields: { id: 'face_img_id', validFrom: 'start_time', validUntil: 'end_time' },
    async handle(ctx, input) {
      const validFrom = input.start_time !== undefined ? instantOrFail(input.start_time, ctx.actor, 'start_time') : undefined;
      const validUntil = input.end_time !== undefined ? instantOrFail(input.end_time, ctx.actor, 'end_time') : undefined;
      return legacyFaceAuthorization(
        await authorizeFace(ctx, { id: input.face_img_id, roomId: input.room_id, stayId: input.stay_id, note: input.note, validFrom, validUntil }),
        ctx,
      );
    },
  }),

  sessionAction({
    path: 'lock/empowerFaceList',
    input: z.object({
      ...zLegacyPaging(),
      face_img_id: ZId.optional(),
      room_id: ZId.optional(),
      stay_id: ZId.optional(),
      /** `active` (default): not yet off the lock; `history`: removed or failed; `all`. */
      scope: z.enum(['active', 'history', 'all'], { error: 'validation.invalid' }).default('active'),
    }),
    services: [listFaceAuthorizations],
    fields: { id: 'face_img_id' },
    async handle(ctx, input) {
      const result = await listFaceAuthorizations(ctx, {
        page: input.page,
        pageSize: input.limit,
        id: input.face_img_id,
        roomId: input.room_id,
        stayId: input.stay_id,
        scope: input.scope,
      });
      return legacyPage(result, (a) => legacyFaceAuthorization(a, ctx));
    },
  }),

  sessionAction({
    path: 'lock/deleteEmpowerFace',
    input: z.object({ id: ZId }),
    services: [revokeFaceAuthorization],
    fields: { authorizationId: 'id' },
    handle: async (ctx, input) => legacyFaceAuthorization(await revokeFaceAuthorization(ctx, { authorizationId: input.id }), ctx),
  }),
];

/** Every `/manage/lock/*` action. */
export const lockActions: LegacyAction[] = [...faceActions];
