import { z } from 'zod';
import { ZApplyPriceTemplateInput, ZId, ZPriceTemplateInput, ZQuoteInput, ZRoomPriceInput } from '@console/shared';
import { applyPriceTemplate, deletePriceTemplate, getPriceTemplate, getRoomPrice, listPriceTemplates, quote, savePriceTemplate, setRoomPrice } from '../modules/price/price.service';
import { authedProcedure, router } from './init';

export const priceRouter = router({
  room: authedProcedure.input(z.object({ roomId: ZId })).query(({ ctx, input }) => getRoomPrice(ctx, input.roomId)),
  setRoom: authedProcedure.input(ZRoomPriceInput).mutation(({ ctx, input }) => setRoomPrice(ctx, input)),
  quote: authedProcedure.input(ZQuoteInput).query(({ ctx, input }) => quote(ctx, input)),
  templates: authedProcedure.query(({ ctx }) => listPriceTemplates(ctx)),
  template: authedProcedure.input(z.object({ id: ZId })).query(({ ctx, input }) => getPriceTemplate(ctx, input.id)),
  saveTemplate: authedProcedure.input(ZPriceTemplateInput.extend({ id: ZId.optional() })).mutation(({ ctx, input }) => savePriceTemplate(ctx, input)),
  deleteTemplate: authedProcedure.input(z.object({ id: ZId })).mutation(async ({ ctx, input }) => {
    await deletePriceTemplate(ctx, input.id);
    return { ok: true };
  }),
  applyTemplate: authedProcedure.input(ZApplyPriceTemplateInput).mutation(({ ctx, input }) => applyPriceTemplate(ctx, input)),
});
