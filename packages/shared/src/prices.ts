import { z } from 'zod';
import { LIMITS } from './limits';
import { MONEY_METHODS } from './money';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, zInt } from './primitives';

/**
 * Prices and money at the desk (spec §5), shared by the web console and the server: integers in
 * minor units (the forms convert, money.ts); the service checks "not less than 1" in the hotel's currency.
 */

/** A way money changes hands at the desk (MONEY_METHODS): a deposit at check-in, a recharge, a refund's chosen way. */
export const ZMoneyMethod = z.enum(MONEY_METHODS, { error: 'validation.paymentMethodInvalid' });

/** An amount in minor units: an integer from 0 to LIMITS.amountMaxMinor. */
export const ZMinorAmount = zInt({ min: 0, max: LIMITS.amountMaxMinor }, 'validation.priceInvalid', 'validation.priceRequired');

export const ZDatePrice = z.object({ date: ZLocalDate, price: ZMinorAmount });
const ZRates = z.object({
  depositAmount: ZMinorAmount.default(0),
  usualPrice: ZMinorAmount,
  weekendPrice: ZMinorAmount.nullish().transform((v) => v ?? null),
  renewalPrice: ZMinorAmount.nullish().transform((v) => v ?? null),
  datePrices: z
    .array(ZDatePrice)
    .max(LIMITS.datePricesMax, { error: 'validation.tooManyDates' })
    .default([])
    .refine((list) => new Set(list.map((p) => p.date)).size === list.length, { error: 'validation.duplicateDate', ...WHEN_FIELDS_VALID }),
});
export const ZRoomPriceInput = ZRates.extend({ roomId: ZId });
export type TRoomPriceInput = z.input<typeof ZRoomPriceInput>;
export const ZPriceTemplateInput = ZRates.extend({
  name: z
    .string({ error: 'validation.templateNameRequired' })
    .trim()
    .min(1, { error: 'validation.templateNameRequired' })
    .max(LIMITS.templateNameMaxLength, { error: 'validation.textTooLong' }),
});
export type TPriceTemplateInput = z.input<typeof ZPriceTemplateInput>;
/** Creates a template, or replaces the one of `id`. */
export const ZSavePriceTemplateInput = ZPriceTemplateInput.extend({ id: ZId.optional() });
export type TSavePriceTemplateInput = z.input<typeof ZSavePriceTemplateInput>;
export const ZPriceTemplateIdInput = z.object({ id: ZId });
export const ZApplyPriceTemplateInput = z
  .object({
    templateId: ZId,
    roomIds: z.array(ZId, { error: 'validation.roomsInvalid' }).max(10_000, { error: 'validation.roomsInvalid' }).optional(),
    groupId: ZId.optional(),
  })
  .refine((v) => (v.roomIds?.length ?? 0) > 0 || v.groupId !== undefined, {
    error: 'validation.templateTargetRequired',
    path: ['roomIds'],
    ...WHEN_FIELDS_VALID,
  });
