import { ZHotelInfoOutput, ZHotelUpdateOutput, ZTaxRules } from '@console/shared/dto';
import { z } from 'zod';
import { ZCityTaxInput, ZId, ZTaxRuleInput, ZUpdateHotelInput } from '@console/shared';
import { getHotelInfo, updateHotelInfo } from '../modules/hotel/hotel.service';
import { setCityTax, setTaxRule, taxRules } from '../modules/journal/tax-rules';
import { authedProcedure, router } from './init';

/** The hotel's information and settings (issue 9 §4): every member reads them, owners and administrators change them. */
export const hotelRouter = router({
  info: authedProcedure
    .input(z.object({ hotelId: ZId.optional() }).optional())

    .output(ZHotelInfoOutput)
    .query(({ ctx, input }) => getHotelInfo(ctx, input ?? {})),
  update: authedProcedure
    .input(ZUpdateHotelInput)

    .output(ZHotelUpdateOutput)
    .mutation(({ ctx, input }) => updateHotelInfo(ctx, input)),
  // The taxes: rates included in the price or added, the city tax (docs/journal.md "Taxes").
  taxRules: authedProcedure.output(ZTaxRules).query(({ ctx }) => taxRules(ctx)),
  setTaxRule: authedProcedure
    .input(ZTaxRuleInput)
    .output(ZTaxRules)
    .mutation(({ ctx, input }) => setTaxRule(ctx, input)),
  setCityTax: authedProcedure
    .input(ZCityTaxInput)
    .output(ZTaxRules)
    .mutation(({ ctx, input }) => setCityTax(ctx, input)),
});
