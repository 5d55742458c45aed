import { z } from 'zod';
import { ZId } from '@console/shared';
import type { Actor } from '../../context';
import { applyPriceTemplate, deletePriceTemplate, getPriceTemplate, listPriceTemplates, savePriceTemplate, type PriceTemplateDto } from '../../modules/price/price.service';
import { sessionAction } from './action';
import { money } from './convert';
import { ZLegacyRates, ratesFromLegacy } from './room';

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

/** `/manage/priceTemplate/*`. */
export const priceTemplateActions = [
  sessionAction('priceTemplate/lists', z.object({}), async (ctx) => (await listPriceTemplates(ctx)).map((t) => legacyTemplate(t, ctx.actor))),
  sessionAction('priceTemplate/info', z.object({ id: ZId }), async (ctx, input) => legacyTemplate(await getPriceTemplate(ctx, input.id), ctx.actor)),
  sessionAction('priceTemplate/add', ZLegacyRates.extend({ id: ZId.optional(), name: z.string({ error: 'validation.templateNameRequired' }) }), async (ctx, input) =>
    legacyTemplate(await savePriceTemplate(ctx, { id: input.id, name: input.name, ...ratesFromLegacy(input, ctx.actor) }), ctx.actor),
  ),
  sessionAction('priceTemplate/delete', z.object({ id: ZId }), async (ctx, input) => {
    await deletePriceTemplate(ctx, input.id);
    return null;
  }),
  sessionAction('priceTemplate/setPriceTemplate', z.object({ template_id: ZId, room_ids: z.array(ZId).optional(), category_id: ZId.optional() }), async (ctx, input) => {
    const result = await applyPriceTemplate(ctx, { templateId: input.template_id, roomIds: input.room_ids, groupId: input.category_id });
    return { rooms: result.rooms };
  }),
];
