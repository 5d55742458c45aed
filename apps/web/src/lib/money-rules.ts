import type { z } from 'zod';
import { ZCustomerMobile, ZOrderAmount } from '@console/shared';
import { parseMoneyInput } from '@/lib/money';

/**
 * The shared money rules (packages/shared orders.ts) on what a money form holds: text in major
 * units, checked in minor units as the API will receive them, with the shared `validation.*` keys.
 */

/** Adds the first issue of `rule` on `value` at `path`; the parsed value when it passes. */
function checked<T extends z.ZodType>(rule: T, value: unknown, ctx: z.RefinementCtx, path: string): z.output<T> | undefined {
  const result = rule.safeParse(value);
  if (result.success) return result.data;
  ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'validation.amountInvalid', path: [path] });
  return undefined;
}

/** An amount typed in major units: required, positive, at most the ledger's maximum (ZOrderAmount). */
export function checkAmountText(text: string, currency: string, ctx: z.RefinementCtx, path = 'amount'): number | undefined {
  return checked(ZOrderAmount, parseMoneyInput(text, currency), ctx, path);
}

/** The mobile of a member paying from their balance: required, then ZCustomerMobile. */
export function checkPayerText(text: string, ctx: z.RefinementCtx, path = 'payer'): string | undefined {
  if (text.trim() === '') {
    ctx.addIssue({ code: 'custom', message: 'validation.customerRequired', path: [path] });
    return undefined;
  }
  return checked(ZCustomerMobile, text, ctx, path);
}

/** Any other shared rule (a reason, a note) on a field of a money form. */
export function checkField<T extends z.ZodType>(rule: T, value: unknown, ctx: z.RefinementCtx, path: string): z.output<T> | undefined {
  return checked(rule, value, ctx, path);
}
