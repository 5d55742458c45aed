import { z } from 'zod';
import { ZOk } from './common';

export const ZRoomPriceDto = z.object({
  roomId: z.number(),
  depositAmount: z.number(),
  usualPrice: z.number(),
  weekendPrice: z.number().nullable(),
  renewalPrice: z.number().nullable(),
  priceTemplateId: z.number().nullable(),
  datePrices: z.array(z.object({ date: z.string(), price: z.number() })),
  currency: z.string(),
});
export type TRoomPriceDto = z.infer<typeof ZRoomPriceDto>;

export const ZPriceTemplateDto = z.object({
  id: z.number(),
  name: z.string(),
  depositAmount: z.number(),
  usualPrice: z.number(),
  weekendPrice: z.number().nullable(),
  renewalPrice: z.number().nullable(),
  datePrices: z.array(z.object({ date: z.string(), price: z.number() })),
  roomCount: z.number(),
});
export type TPriceTemplateDto = z.infer<typeof ZPriceTemplateDto>;

export const ZPriceRoomOutput = ZRoomPriceDto;
export const ZPriceSetRoomOutput = ZRoomPriceDto;
export const ZPriceQuoteOutput = z.object({
  depositAmount: z.number(),
  currency: z.string(),
  total: z.number(),
  nights: z.array(z.object({ date: z.string(), price: z.number(), source: z.enum(['date', 'renewal', 'weekend', 'usual']) })),
});
export const ZPriceTemplatesOutput = z.array(ZPriceTemplateDto);
export const ZPriceTemplateOutput = ZPriceTemplateDto;
export const ZPriceSaveTemplateOutput = ZPriceTemplateDto;
export const ZPriceDeleteTemplateOutput = ZOk;
export const ZPriceApplyTemplateOutput = z.object({ rooms: z.number() });
