import { z } from 'zod';
import { LIMITS, ZId, ZSearch } from '@console/shared';
import { getGuest, listGuests } from '../../modules/stay/stay.service';
import { sessionAction } from './action';
import { ZFlag, legacyGuest, legacyStay } from './convert';
import { legacyTime } from './format';

/** `/manage/passenger/*`: the guests (the spec's manage_id is a guest id). */
export const passengerActions = [
  sessionAction(
    'passenger/list',
    z.object({
      page: z.coerce.number().int().min(1).default(1),
      limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax, { error: 'validation.pageSizeInvalid' }).default(LIMITS.pageSizeDefault),
      keyword: ZSearch.optional(),
      current: ZFlag.default(false),
    }),
    async (ctx, input) => {
      const result = await listGuests(ctx, { page: input.page, pageSize: input.limit, search: input.keyword, currentOnly: input.current });
      return {
        list: result.items.map((g) => ({
          ...legacyGuest(g),
          stay_id: g.stayId,
          room_id: g.roomId,
          room_name: g.roomName,
          state: g.state,
          check_in_time: legacyTime(g.checkInAt, ctx.actor.timeZone),
          check_out_time: legacyTime(g.expectedCheckOutAt, ctx.actor.timeZone),
        })),
        total: result.total,
        page: result.page,
        limit: result.pageSize,
      };
    },
  ),
  sessionAction('passenger/info', z.object({ id: ZId }), async (ctx, input) => {
    const { guest, stay } = await getGuest(ctx, input.id);
    return { ...legacyGuest(guest), other_information: stay.remark, stay: legacyStay(stay, ctx.actor) };
  }),
];
