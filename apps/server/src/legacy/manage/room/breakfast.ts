import { z } from 'zod';
import { BREAKFAST_WARNINGS, LIMITS, ZId, ZLocalDate, zInt } from '@console/shared';
import type { Actor } from '../../../context';
import { listBreakfast, serveBreakfast, type BreakfastRow } from '../../../modules/stays/breakfast';
import { sessionAction } from '../action';
import { ZFlag } from '../convert';
import { legacyTime } from '../format';

function legacyBreakfast(r: BreakfastRow, actor: Actor) {
  return {
    stay_id: r.stayId,
    room_id: r.roomId,
    room_name: r.roomName,
    guests: r.guests,
    guest_names: r.guestNames,
    served: r.servedAt ? 1 : 0,
    served_time: legacyTime(r.servedAt, actor.timeZone),
    served_guests: r.servedGuests,
  };
}

/** `/manage/room/hotelBreakFastList`, `/manage/room/hotelBreakFast`: breakfasts of a morning. */
export const roomBreakfastActions = [
  sessionAction({
    path: 'room/hotelBreakFastList',
    input: z.object({ date: ZLocalDate }),
    services: [listBreakfast],
    async handle(ctx, input) {
      const result = await listBreakfast(ctx, { date: input.date });
      return { date: result.date, list: result.rows.map((r) => legacyBreakfast(r, ctx.actor)), total_guests: result.guests, served_guests: result.served };
    },
  }),

  sessionAction({
    path: 'room/hotelBreakFast',
    input: z.object({
      stay_id: ZId,
      date: ZLocalDate,
      guests: zInt({ min: 1, max: LIMITS.breakfastGuestsMax }, 'validation.guestsCountInvalid').optional(),
      /** 1: serve more breakfasts than the stay has guests. */
      confirm: ZFlag.default(false),
    }),
    services: [serveBreakfast],
    fields: { acknowledge: 'confirm' },
    handle: async (ctx, input) =>
      legacyBreakfast(
        await serveBreakfast(ctx, { stayId: input.stay_id, date: input.date, guests: input.guests, acknowledge: input.confirm ? [...BREAKFAST_WARNINGS] : [] }),
        ctx.actor,
      ),
  }),
];
