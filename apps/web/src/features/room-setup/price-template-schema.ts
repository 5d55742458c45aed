import { z } from 'zod';
import { minPriceMinor, ZDatePrice, ZPriceTemplateInput } from '@console/shared';
import { parseMoneyInput } from '@/lib/money';

const shape = ZPriceTemplateInput.shape;

/** A transform that runs a shared rule on the converted value and reports its issues in place. */
function checkedBy<T extends z.ZodType>(rule: T) {
  return (value: unknown, ctx: z.RefinementCtx): z.output<T> => {
    const result = rule.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  };
}

/**
 * The template form: people type major units of the hotel's currency, the API takes integers in
 * minor units. Each field is converted, then checked with the shared rule of that field
 * (ZPriceTemplateInput) and the "not less than 1" of spec §5 (minPriceMinor).
 */
export function templateFormSchema(currency: string) {
  const min = minPriceMinor(currency);
  const moneyText = z.string().transform((text, ctx) => {
    const minor = parseMoneyInput(text, currency);
    if (minor !== undefined && Number.isNaN(minor)) {
      ctx.addIssue({ code: 'custom', message: 'validation.priceInvalid' });
      return z.NEVER;
    }
    return minor;
  });
  const atLeastMin = (v: number | null) => v === null || v >= min;
  const price = <T extends z.ZodType<number | null>>(rule: T) => moneyText.transform(checkedBy(rule)).refine(atLeastMin, { message: 'validation.priceMin' });
  return z.object({
    name: shape.name,
    depositAmount: moneyText.transform(checkedBy(shape.depositAmount)),
    usualPrice: price(shape.usualPrice),
    weekendPrice: price(shape.weekendPrice),
    renewalPrice: price(shape.renewalPrice),
    datePrices: z.array(z.object({ date: ZDatePrice.shape.date, price: price(ZDatePrice.shape.price) })).transform(checkedBy(shape.datePrices)),
  });
}

export type TemplateForm = z.input<ReturnType<typeof templateFormSchema>>;
