import {
  ZPriceRoomOutput,
  ZPriceSetRoomOutput,
  ZPriceQuoteOutput,
  ZPriceTemplatesOutput,
  ZPriceTemplateOutput,
  ZPriceSaveTemplateOutput,
  ZPriceDeleteTemplateOutput,
  ZPriceApplyTemplateOutput,
} from '@console/shared/dto';
import { ZApplyPriceTemplateInput, ZPriceTemplateIdInput, ZQuoteInput, ZRoomIdInput, ZRoomPriceInput, ZSavePriceTemplateInput } from '@console/shared';
import {
  applyPriceTemplate,
  deletePriceTemplate,
  getPriceTemplate,
  getRoomPrice,
  listPriceTemplates,
  quote,
  savePriceTemplate,
  setRoomPrice,
} from '../modules/price/price.service';
import { authedProcedure, router } from './init';

export const priceRouter = router({
  room: authedProcedure
    .input(ZRoomIdInput)

    .output(ZPriceRoomOutput)
    .query(({ ctx, input }) => getRoomPrice(ctx, input)),
  setRoom: authedProcedure
    .input(ZRoomPriceInput)

    .output(ZPriceSetRoomOutput)
    .mutation(({ ctx, input }) => setRoomPrice(ctx, input)),
  quote: authedProcedure
    .input(ZQuoteInput)

    .output(ZPriceQuoteOutput)
    .query(({ ctx, input }) => quote(ctx, input)),
  templates: authedProcedure.output(ZPriceTemplatesOutput).query(({ ctx }) => listPriceTemplates(ctx)),
  template: authedProcedure
    .input(ZPriceTemplateIdInput)

    .output(ZPriceTemplateOutput)
    .query(({ ctx, input }) => getPriceTemplate(ctx, input)),
  saveTemplate: authedProcedure
    .input(ZSavePriceTemplateInput)

    .output(ZPriceSaveTemplateOutput)
    .mutation(({ ctx, input }) => savePriceTemplate(ctx, input)),
  deleteTemplate: authedProcedure
    .input(ZPriceTemplateIdInput)

    .output(ZPriceDeleteTemplateOutput)
    .mutation(async ({ ctx, input }) => {
      await deletePriceTemplate(ctx, input);
      return { ok: true };
    }),
  applyTemplate: authedProcedure
    .input(ZApplyPriceTemplateInput)

    .output(ZPriceApplyTemplateOutput)
    .mutation(({ ctx, input }) => applyPriceTemplate(ctx, input)),
});
