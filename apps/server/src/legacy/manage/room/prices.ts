import { z } from 'zod';
import { LIMITS, ZId, ZLocalDate } from '@console/shared';
import type { Actor } from '../../../context';
import { quote, setRoomPrice, type RoomPriceDto } from '../../../modules/price/price.service';
import { sessionAction } from '../action';
import { ZFlag, ZLegacyMoney, ZLegacyTime, instantOrFail, money, toMinorOrFail } from '../convert';

function legacyPrice(p: RoomPriceDto, actor: Actor) {
  return {
    room_id: p.roomId,
    deposit: money(p.depositAmount, actor),
    price: money(p.usualPrice, actor),
    weekend_price: money(p.weekendPrice, actor),
    renewal_price: money(p.renewalPrice, actor),
    template_id: p.priceTemplateId,
    date_prices: p.datePrices.map((d) => ({ date: d.date, price: money(d.price, actor) })),
  };
}

/** Rates in legacy names, shared by `room/setPrice` and `priceTemplate/add`. */
export const ZLegacyRates = z.object({
  deposit: ZLegacyMoney.optional(),
  price: ZLegacyMoney,
  weekend_price: ZLegacyMoney.nullish(),
  renewal_price: ZLegacyMoney.nullish(),
  date_prices: z
    .array(z.object({ date: ZLocalDate, price: ZLegacyMoney }), { error: 'validation.invalid' })
    .max(LIMITS.datePricesMax, { error: 'validation.tooManyDates' })
    .optional(),
});

export function ratesFromLegacy(input: z.output<typeof ZLegacyRates>, actor: Actor) {
  return {
    depositAmount: input.deposit !== undefined ? toMinorOrFail(input.deposit, actor, 'deposit') : 0,
    usualPrice: toMinorOrFail(input.price, actor, 'price'),
    weekendPrice: input.weekend_price != null ? toMinorOrFail(input.weekend_price, actor, 'weekend_price') : null,
    renewalPrice: input.renewal_price != null ? toMinorOrFail(input.renewal_price, actor, 'renewal_price') : null,
    datePrices: (input.date_prices ?? []).map((d, i) => ({ date: d.date, price: toMinorOrFail(d.price, actor, `date_prices.${i}.price`) })),
  };
}

/** `/manage/room/setPrice`, `/manage/room/countRoomPriceNew`: a room's prices and the price of a stay. */
export const roomPriceActions = [
  sessionAction({
    path: 'room/setPrice',
    input: ZLegacyRates.extend({ room_id: ZId }),
    services: [setRoomPrice],
    handle: async (ctx, input) => legacyPrice(await setRoomPrice(ctx, { roomId: input.room_id, ...ratesFromLegacy(input, ctx.actor) }), ctx.actor),
  }),

  sessionAction({
    path: 'room/countRoomPriceNew',
    input: z.object({ room_id: ZId, check_in_time: ZLegacyTime, check_out_time: ZLegacyTime, renew: ZFlag.default(false) }),
    services: [quote],
    fields: { kind: 'renew' },
    async handle(ctx, input) {
      const result = await quote(ctx, {
        roomId: input.room_id,
        checkInAt: instantOrFail(input.check_in_time, ctx.actor, 'check_in_time'),
        expectedCheckOutAt: instantOrFail(input.check_out_time, ctx.actor, 'check_out_time'),
        kind: input.renew ? 'renewal' : 'stay',
      });
      return {
        total: money(result.total, ctx.actor),
        deposit: money(result.depositAmount, ctx.actor),
        currency: result.currency,
        nights: result.nights.map((n) => ({ date: n.date, price: money(n.price, ctx.actor), source: n.source })),
      };
    },
  }),
];
