import { z } from 'zod';
import { ZId, ZSearch } from '@console/shared';
import { getGuest, listGuests } from '../../modules/stays/guests';
import { sessionAction } from './action';
import { ZFlag, legacyGuest, legacyPage, legacyStay, zLegacyPaging } from './convert';
import { legacyTime } from './format';

/** `/manage/passenger/*`: the guests (the spec's manage_id is a guest id). */
export const passengerActions = [
  sessionAction({
    path: 'passenger/list',
    input: z.object({ ...zLegacyPaging(), keyword: ZSearch.optional(), current: ZFlag.default(false) }),
    services: [listGuests],
    fields: { search: 'keyword', currentOnly: 'current' },
    async handle(ctx, input) {
      const result = await listGuests(ctx, { page: input.page, pageSize: input.limit, search: input.keyword, currentOnly: input.current });
      return legacyPage(result, (g) => ({
        ...legacyGuest(g),
        stay_id: g.stayId,
        room_id: g.roomId,
        room_name: g.roomName,
        state: g.state,
        check_in_time: legacyTime(g.checkInAt, ctx.actor.timeZone),
        check_out_time: legacyTime(g.expectedCheckOutAt, ctx.actor.timeZone),
      }));
    },
  }),

  sessionAction({
    path: 'passenger/info',
    input: z.object({ id: ZId }),
    services: [getGuest],
    fields: { guestId: 'id' },
    async handle(ctx, input) {
      const { guest, stay } = await getGuest(ctx, { guestId: input.id });
      return { ...legacyGuest(guest), other_information: stay.remark, stay: legacyStay(stay, ctx.actor) };
    },
  }),
];
