import { ZApplyPriceTemplateInput, ZPriceTemplateIdInput, ZQuoteInput, ZRoomIdInput, ZRoomPriceInput, ZSavePriceTemplateInput } from '@console/shared';
import { applyPriceTemplate, deletePriceTemplate, getPriceTemplate, getRoomPrice, listPriceTemplates, quote, savePriceTemplate, setRoomPrice } from '../modules/price/price.service';
import { authedProcedure, router } from './init';

export const priceRouter = router({
  room: authedProcedure.input(ZRoomIdInput).query(({ ctx, input }) => getRoomPrice(ctx, input)),
  setRoom: authedProcedure.input(ZRoomPriceInput).mutation(({ ctx, input }) => setRoomPrice(ctx, input)),
  quote: authedProcedure.input(ZQuoteInput).query(({ ctx, input }) => quote(ctx, input)),
  templates: authedProcedure.query(({ ctx }) => listPriceTemplates(ctx)),
  template: authedProcedure.input(ZPriceTemplateIdInput).query(({ ctx, input }) => getPriceTemplate(ctx, input)),
  saveTemplate: authedProcedure.input(ZSavePriceTemplateInput).mutation(({ ctx, input }) => savePriceTemplate(ctx, input)),
  deleteTemplate: authedProcedure.input(ZPriceTemplateIdInput).mutation(async ({ ctx, input }) => {
    await deletePriceTemplate(ctx, input);
    return { ok: true };
  }),
  applyTemplate: authedProcedure.input(ZApplyPriceTemplateInput).mutation(({ ctx, input }) => applyPriceTemplate(ctx, input)),
});
