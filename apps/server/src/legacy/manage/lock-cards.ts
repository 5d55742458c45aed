import { z } from 'zod';
import { CARD_KINDS, LIMITS, WHEN_FIELDS_VALID, ZCardListInput, ZId } from '@console/shared';
import { findRoomByLock } from '../../modules/locks/lock.service';
import { listCards } from '../../modules/cards/card-lookup';
import { getLock } from '../../modules/room/room-lock-data';
import { sessionAction, type LegacyAction } from './action';
import { legacyPage, zLegacyPaging } from './convert';
import { CARD_FIELDS, legacyCard } from './room/cards';

/**
 * `/manage/lock/noteCardList`: the cards of a lock (named by its room or by the lock cloud's id)
 * with their notes and states (docs/legacy-protocol.md, "Room cards"). The card service lists;
 * the room service says whether the room is one the account sees.
 */

const list = ZCardListInput.shape;

export const lockCardActions: LegacyAction[] = [
  sessionAction({
    path: 'lock/noteCardList',
    input: z
      .object({
        ...zLegacyPaging(),
        room_id: ZId.optional(),
        lock_id: z
          .string({ error: 'validation.idInvalid' })
          .trim()
          .min(1, { error: 'validation.idInvalid' })
          .max(LIMITS.roomFieldMax.lockId, { error: 'validation.idInvalid' })
          .optional(),
        /** Only this stay's cards. */
        tenant_id: ZId.optional(),
        kind: z.enum(CARD_KINDS, { error: 'validation.invalid' }).optional(),
        /** `active` (default): issued now; `history`: returned, lost, ended or never written; `all`. */
        scope: list.scope,
        /** Card number, holder or note (literally). */
        keyword: list.search,
      })
      .refine((v) => v.room_id !== undefined || v.lock_id !== undefined, { error: 'validation.roomRequired', path: ['room_id'], ...WHEN_FIELDS_VALID }),
    services: [getLock, findRoomByLock, listCards],
    fields: { ...CARD_FIELDS, pageSize: 'limit' },
    async handle(ctx, input) {
      const roomId = input.room_id ?? (await findRoomByLock(ctx, input.lock_id!)).id;
      const room = await getLock(ctx, { roomId });
      const page = await listCards(ctx, {
        roomId: room.id,
        stayId: input.tenant_id,
        kind: input.kind,
        scope: input.scope,
        search: input.keyword,
        page: input.page,
        pageSize: input.limit,
      });
      return { room_id: room.id, room_name: room.name, lock_id: room.lockId, ...legacyPage(page, (c) => legacyCard(c, ctx)) };
    },
  }),
];
