import { z } from 'zod';
import { WHEN_FIELDS_VALID, ZId, ZPriceTemplateInput } from '@console/shared';
import type { Actor } from '../../context';
import {
  applyPriceTemplate,
  deletePriceTemplate,
  getPriceTemplate,
  listPriceTemplates,
  savePriceTemplate,
  type PriceTemplateDto,
} from '../../modules/price/price.service';
import { sessionAction } from './action';
import { money } from './convert';
import { ZLegacyRates, ratesFromLegacy } from './room/prices';

function legacyTemplate(t: PriceTemplateDto, actor: Actor) {
  return {
    id: t.id,
    name: t.name,
    deposit: money(t.depositAmount, actor),
    price: money(t.usualPrice, actor),
    weekend_price: money(t.weekendPrice, actor),
    renewal_price: money(t.renewalPrice, actor),
    date_prices: t.datePrices.map((d) => ({ date: d.date, price: money(d.price, actor) })),
    room_count: t.roomCount,
  };
}

/** `/manage/priceTemplate/*`: price templates. */
export const priceTemplateActions = [
  sessionAction({
    path: 'priceTemplate/lists',
    input: z.object({}),
    services: [listPriceTemplates],
    handle: async (ctx) => (await listPriceTemplates(ctx)).map((t) => legacyTemplate(t, ctx.actor)),
  }),

  sessionAction({
    path: 'priceTemplate/info',
    input: z.object({ id: ZId }),
    services: [getPriceTemplate],
    handle: async (ctx, input) => legacyTemplate(await getPriceTemplate(ctx, { id: input.id }), ctx.actor),
  }),

  sessionAction({
    path: 'priceTemplate/add',
    input: ZLegacyRates.extend({ id: ZId.optional(), name: ZPriceTemplateInput.shape.name }),
    services: [savePriceTemplate],
    handle: async (ctx, input) =>
      legacyTemplate(await savePriceTemplate(ctx, { id: input.id, name: input.name, ...ratesFromLegacy(input, ctx.actor) }), ctx.actor),
  }),

  sessionAction({
    path: 'priceTemplate/delete',
    input: z.object({ id: ZId }),
    services: [deletePriceTemplate],
    async handle(ctx, input) {
      await deletePriceTemplate(ctx, { id: input.id });
      return null;
    },
  }),

  sessionAction({
    path: 'priceTemplate/setPriceTemplate',
    input: z
      .object({
        template_id: ZId,
        room_ids: z.array(ZId, { error: 'validation.roomsInvalid' }).max(10_000, { error: 'validation.roomsInvalid' }).optional(),
        category_id: ZId.optional(),
      })
      .refine((v) => (v.room_ids?.length ?? 0) > 0 || v.category_id !== undefined, {
        error: 'validation.templateTargetRequired',
        path: ['room_ids'],
        ...WHEN_FIELDS_VALID,
      }),
    services: [applyPriceTemplate],
    async handle(ctx, input) {
      const result = await applyPriceTemplate(ctx, { templateId: input.template_id, roomIds: input.room_ids, groupId: input.category_id });
      return { rooms: result.rooms };
    },
  }),
];
