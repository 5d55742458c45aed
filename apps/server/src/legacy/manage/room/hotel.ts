import { z } from 'zod';
import { ZCurrency, ZId, ZLatitude, ZLongitude, ZTimeOfDay, ZTimeZone, ZUpdateHotelInput } from '@console/shared';
import type { Actor } from '../../../context';
import { getHotelInfo, updateHotelInfo, type HotelInfo } from '../../../modules/hotel/hotel.service';
import { sessionAction } from '../action';
import { legacyTime } from '../format';

/** The hotel as legacy clients read it: the spec's fields (name, address, tel, latitude, longitude) and its settings, snake_case. */
function legacyHotel(h: HotelInfo, actor: Actor) {
  return {
    id: h.id,
    hotel_id: h.id,
    name: h.name,
    address: h.address,
    tel: h.tel,
    latitude: h.latitude,
    longitude: h.longitude,
    time_zone: h.timeZone,
    currency: h.currency,
    check_in_time: h.checkInTime,
    check_out_time: h.checkOutTime,
    no_show_time: h.noShowTime,
    day_close_time: h.dayCloseTime,
    no_show_policy: h.noShowPolicy,
    update_time: legacyTime(h.updatedAt, actor.timeZone),
  };
}

/** Service field -> legacy field, for field errors. */
const FIELDS = {
  hotelId: 'hotel_id',
  timeZone: 'time_zone',
  checkInTime: 'check_in_time',
  checkOutTime: 'check_out_time',
  noShowTime: 'no_show_time',
  dayCloseTime: 'day_close_time',
  noShowPolicy: 'no_show_policy',
};

const ZHotelRef = z.object({ hotel_id: ZId.optional() });

/** The spec's hotel fields (spec §3). */
const ZHotelInfoPayload = ZHotelRef.extend({
  name: ZUpdateHotelInput.shape.name,
  address: ZUpdateHotelInput.shape.address,
  tel: ZUpdateHotelInput.shape.tel,
  latitude: ZLatitude.optional(),
  longitude: ZLongitude.optional(),
});

/** The spec's fields and the hotel's settings. */
const ZHotelDataPayload = ZHotelInfoPayload.extend({
  time_zone: ZTimeZone.optional(),
  currency: ZCurrency.optional(),
  check_in_time: ZTimeOfDay.optional(),
  check_out_time: ZTimeOfDay.optional(),
  /** When a reservation whose guest has not come becomes a no-show (added compatibly, issue 17 §4). */
  no_show_time: ZTimeOfDay.optional(),
  /** When the day before closes by itself, or "" for a manager's close (added compatibly, issue 26 §2). */
  day_close_time: ZUpdateHotelInput.shape.dayCloseTime,
  /** What the night audit does with a no-show: `release` or `charge_first_night` (added compatibly, issue 36 §6). */
  no_show_policy: ZUpdateHotelInput.shape.noShowPolicy,
});

async function update(ctx: Parameters<typeof updateHotelInfo>[0] & { actor: Actor }, input: z.output<typeof ZHotelDataPayload>) {
  const parsed = ZUpdateHotelInput.parse({
    hotelId: input.hotel_id,
    name: input.name,
    address: input.address,
    tel: input.tel,
    latitude: input.latitude,
    longitude: input.longitude,
    timeZone: input.time_zone,
    currency: input.currency,
    checkInTime: input.check_in_time,
    checkOutTime: input.check_out_time,
    noShowTime: input.no_show_time,
    dayCloseTime: input.day_close_time,
    noShowPolicy: input.no_show_policy,
  });
  return legacyHotel(await updateHotelInfo(ctx, parsed), ctx.actor);
}

/**
 * `/manage/room/hotelInfo`, `getHotelInfo` (read: every member), `setHotelInfo` (the spec's name,
 * address, tel, latitude, longitude) and `setHotelData` (those and time_zone, currency,
 * check_in_time, check_out_time, no_show_time, day_close_time, no_show_policy): owners and administrators. Only the fields sent change;
 * `hotel_id`, when sent, must be the session's hotel.
 */
export const roomHotelActions = [
  sessionAction({
    path: 'room/hotelInfo',
    input: ZHotelRef,
    services: [getHotelInfo],
    fields: FIELDS,
    handle: async (ctx, input) => legacyHotel(await getHotelInfo(ctx, { hotelId: input.hotel_id }), ctx.actor),
  }),
  sessionAction({
    path: 'room/getHotelInfo',
    input: ZHotelRef,
    services: [getHotelInfo],
    fields: FIELDS,
    handle: async (ctx, input) => legacyHotel(await getHotelInfo(ctx, { hotelId: input.hotel_id }), ctx.actor),
  }),
  sessionAction({
    path: 'room/setHotelInfo',
    input: ZHotelInfoPayload,
    services: [updateHotelInfo],
    fields: FIELDS,
    handle: (ctx, input) => update(ctx, input),
  }),
  sessionAction({
    path: 'room/setHotelData',
    input: ZHotelDataPayload,
    services: [updateHotelInfo],
    fields: FIELDS,
    handle: (ctx, input) => update(ctx, input),
  }),
];
