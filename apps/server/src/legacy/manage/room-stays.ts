import { z } from 'zod';
import { LIMITS, STAY_FILTERS, STAY_LENGTH_UNITS, ZId, ZLocalDate, ZSearch } from '@console/shared';
import { addGuest, changeRoom, checkIn, checkOut, listBreakfast, listStays, removeGuest, renewStay, serveBreakfast, type BreakfastRow } from '../../modules/stay/stay.service';
import type { Actor } from '../../context';
import { sessionAction } from './action';
import { ZFlag, ZLegacyGuest, ZLegacyMoney, ZLegacyTime, guestFromLegacy, instantOrFail, legacyStay, money, toMinorOrFail } from './convert';
import { legacyTime } from './format';

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

/** `/manage/room/*` actions of stays: the tenant list, check-in and out, renewal, room change, guests, breakfast. */
export const roomStayActions = [
  sessionAction(
    'room/tenant/list',
    z.object({
      page: z.coerce.number().int().min(1).default(1),
      limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax, { error: 'validation.pageSizeInvalid' }).default(LIMITS.pageSizeDefault),
      state: z.enum(STAY_FILTERS, { error: 'validation.stateInvalid' }).default('all'),
      start_date: ZLocalDate.optional(),
      end_date: ZLocalDate.optional(),
      room_id: ZId.optional(),
      keyword: ZSearch.optional(),
    }),
    async (ctx, input) => {
      const result = await listStays(ctx, { page: input.page, pageSize: input.limit, state: input.state, from: input.start_date, to: input.end_date, roomId: input.room_id, guest: input.keyword });
      return { list: result.items.map((s) => legacyStay(s, ctx.actor)), total: result.total, page: result.page, limit: result.pageSize };
    },
  ),
  sessionAction(
    'room/tenant/update/checkIn',
    z.object({
      room_id: ZId,
      check_in_time: ZLegacyTime,
      check_out_time: ZLegacyTime,
      time_unit: z.enum(STAY_LENGTH_UNITS).default('day'),
      breakfast: ZFlag.default(false),
      guests: z.array(ZLegacyGuest).min(1, { error: 'validation.guestRequired' }),
      disable_old_cards: ZFlag.default(false),
      id_card_unlock: ZFlag.default(false),
      /** A set price for the stay; without it the pricing function decides. */
      price: ZLegacyMoney.optional(),
      deposit: ZLegacyMoney.optional(),
      other_information: z.string().optional(),
      /** The same value on every retry of one check-in. */
      request_id: z.string({ error: 'validation.requestIdRequired' }).min(8, { error: 'validation.requestIdRequired' }).max(64),
      /** 1: go ahead despite the warnings (guest in another room, dirty room). */
      confirm: ZFlag.default(false),
    }),
    async (ctx, input) => {
      const stay = await checkIn(ctx, {
        roomId: input.room_id,
        checkInAt: instantOrFail(input.check_in_time, ctx.actor, 'check_in_time'),
        expectedCheckOutAt: instantOrFail(input.check_out_time, ctx.actor, 'check_out_time'),
        lengthUnit: input.time_unit,
        breakfast: input.breakfast,
        guests: input.guests.map(guestFromLegacy),
        disableOldCards: input.disable_old_cards,
        idCardUnlock: input.id_card_unlock,
        priceMode: input.price !== undefined ? 'fixed' : 'computed',
        fixedPrice: input.price !== undefined ? toMinorOrFail(input.price, ctx.actor, 'price') : undefined,
        depositAmount: input.deposit !== undefined ? toMinorOrFail(input.deposit, ctx.actor, 'deposit') : 0,
        remark: input.other_information,
        idempotencyKey: input.request_id,
        acknowledge: input.confirm ? ['guest_in_other_room', 'room_dirty'] : [],
      });
      return legacyStay(stay, ctx.actor);
    },
  ),
  sessionAction('room/checkOut', z.object({ stay_id: ZId }), async (ctx, input) => {
    const stay = await checkOut(ctx, input.stay_id);
    return { ...legacyStay(stay, ctx.actor), revoked_credentials: stay.revokedCredentials };
  }),
  sessionAction('room/setRenew', z.object({ stay_id: ZId, check_out_time: ZLegacyTime, price: ZLegacyMoney.optional() }), async (ctx, input) => {
    const stay = await renewStay(ctx, {
      stayId: input.stay_id,
      expectedCheckOutAt: instantOrFail(input.check_out_time, ctx.actor, 'check_out_time'),
      priceMode: input.price !== undefined ? 'fixed' : 'computed',
      fixedPrice: input.price !== undefined ? toMinorOrFail(input.price, ctx.actor, 'price') : undefined,
    });
    return { ...legacyStay(stay, ctx.actor), added_price: money(stay.addedPrice, ctx.actor) };
  }),
  sessionAction('room/exchangeHouses', z.object({ stay_id: ZId, room_id: ZId }), async (ctx, input) => {
    const stay = await changeRoom(ctx, { stayId: input.stay_id, targetRoomId: input.room_id });
    return { ...legacyStay(stay, ctx.actor), price_difference: money(stay.priceDifference, ctx.actor) };
  }),
  sessionAction('room/addPassenger', ZLegacyGuest.extend({ stay_id: ZId }), async (ctx, input) => legacyStay(await addGuest(ctx, { stayId: input.stay_id, guest: guestFromLegacy(input) }), ctx.actor)),
  sessionAction('room/deletePassenger', z.object({ stay_id: ZId, manage_id: ZId }), async (ctx, input) =>
    legacyStay(await removeGuest(ctx, { stayId: input.stay_id, guestId: input.manage_id }), ctx.actor),
  ),
  sessionAction('room/hotelBreakFastList', z.object({ date: ZLocalDate }), async (ctx, input) => {
    const result = await listBreakfast(ctx, input.date);
    return { date: result.date, list: result.rows.map((r) => legacyBreakfast(r, ctx.actor)), total_guests: result.guests, served_guests: result.served };
  }),
  sessionAction('room/hotelBreakFast', z.object({ stay_id: ZId, date: ZLocalDate, guests: z.coerce.number().int().min(1).max(20).optional() }), async (ctx, input) =>
    legacyBreakfast(await serveBreakfast(ctx, { stayId: input.stay_id, date: input.date, guests: input.guests }), ctx.actor),
  ),
];
