import { z } from 'zod';
import {
  GENDERS,
  MONEY_METHODS,
  ZGuestInput,
  ZMinorAmount,
  addStayLength,
  daysBetween,
  isLongEnoughStay,
  localDate,
  minPriceMinor,
  type TGuestInput,
  type TMoneyMethod,
  type TStayLengthUnit,
} from '@console/shared';
import { fromInputValue } from '@/lib/hotel-time';
import { parseMoneyInput } from '@/lib/money';

/**
 * Form values are what the inputs hold (text); the rules are those of the shared schemas of
 * packages/shared (ZGuestInput, ZMinorAmount, ZCheckInInput's fields, LIMITS), with the same
 * `validation.*` message keys, checked on what the API will receive. No limit is written here.
 */

/** Adds the issues of a shared rule on `value` at `path`; the parsed value when it passes. */
export function checkedBy<T extends z.ZodType>(rule: T, value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): z.output<T> | undefined {
  const result = rule.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path] });
  return undefined;
}

export const ZGuestForm = z
  .object({
    name: z.string(),
    gender: z.enum(GENDERS),
    nationality: z.string(),
    birthDate: z.string(),
    idNumber: z.string(),
    mobile: z.string(),
    email: z.string(),
  })
  .superRefine((guest, ctx) => {
    // The shared guest rules themselves, on what the API will receive.
    checkedBy(ZGuestInput, toGuestInput(guest), ctx);
  });
export type TGuestForm = z.infer<typeof ZGuestForm>;

export const emptyGuest: TGuestForm = { name: '', gender: 'unknown', nationality: '', birthDate: '', idNumber: '', mobile: '', email: '' };

/** The API's guest of a guest form row (blank optional fields are left out). */
export function toGuestInput(guest: TGuestForm): TGuestInput {
  return {
    name: guest.name,
    gender: guest.gender,
    nationality: guest.nationality,
    birthDate: guest.birthDate.trim() || null,
    idNumber: guest.idNumber.trim() || null,
    mobile: guest.mobile.trim() || null,
    email: guest.email.trim() || null,
  };
}

/** A value, or the message key (validation.*) of what is wrong with it. */
export type Checked<T> = { value: T } | { error: string };

/** The instant of a `YYYY-MM-DDTHH:mm` value in the hotel's zone, or the message key of what is wrong. */
export function checkDateTime(value: string, timeZone: string): Checked<string> {
  if (!value.trim()) return { error: 'validation.dateTimeRequired' };
  const iso = fromInputValue(value, timeZone);
  return iso ? { value: iso } : { error: 'validation.dateTimeInvalid' };
}

/** Whether a stay from `from` to `to` (ISO instants) is long enough: the shared rule of ZQuoteInput and ZCheckInInput. */
export function isLongEnough(from: string, to: string): boolean {
  return isLongEnoughStay(new Date(from), new Date(to));
}

/**
 * An amount typed in major units, in minor units, or the message key of what is wrong: the shared
 * ZMinorAmount, and for a `price` "required and not less than 1" (spec §5, minPriceMinor). Otherwise
 * blank means 0.
 */
export function checkMoney(text: string, currency: string, kind: 'price' | 'amount'): Checked<number> {
  const minor = parseMoneyInput(text, currency);
  if (minor === undefined) return kind === 'price' ? { error: 'validation.priceRequired' } : { value: 0 };
  const result = ZMinorAmount.safeParse(Number.isNaN(minor) ? text : minor);
  if (!result.success) return { error: result.error.issues[0]?.message ?? 'validation.priceInvalid' };
  if (kind === 'price' && result.data < minPriceMinor(currency)) return { error: 'validation.priceMin' };
  return { value: result.data };
}

/** Adds the message of a failed check at `path`; the checked value otherwise. */
export function take<T>(ctx: z.RefinementCtx, path: (string | number)[], result: Checked<T>): T | undefined {
  if ('error' in result) {
    ctx.addIssue({ code: 'custom', message: result.error, path });
    return undefined;
  }
  return result.value;
}

/**
 * How many `unit`s a stay from `from` to `to` (instants) lasts, as the front desk counts them: days
 * are nights (the hotel's calendar dates between the two, as the pricing counts them), hours and
 * months are the fewest that reach the check-out. At least 1.
 */
export function stayLength(from: Date, to: Date, unit: TStayLengthUnit, timeZone: string): number {
  if (to <= from) return 1;
  if (unit === 'hour') return Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 3_600_000));
  if (unit === 'day') return Math.max(1, daysBetween(localDate(from, timeZone), localDate(to, timeZone)));
  let n = 1;
  while (n < 1200 && addStayLength(from, n, unit, timeZone) < to) n += 1;
  return n;
}

/** How a deposit was paid, as a form holds it: '' until the clerk chooses (nothing is assumed). */
export const ZDepositMethodField = z.union([z.enum(MONEY_METHODS), z.literal('')]);

/**
 * The deposit taken (issue 26): an amount is recorded only with the way it was paid, which the
 * clerk chooses; the room's deposit is shown as a suggestion, never filled in for them.
 */
export function checkDeposit(ctx: z.RefinementCtx, amountText: string, method: string, currency: string): void {
  const deposit = take(ctx, ['depositAmount'], checkMoney(amountText, currency, 'amount'));
  if (deposit !== undefined && deposit > 0 && method === '')
    ctx.addIssue({ code: 'custom', message: 'validation.paymentMethodInvalid', path: ['depositMethod'] });
}

/** The deposit of the API's input: none, or an amount with its way of paying. */
export function depositInput(amount: number, method: z.infer<typeof ZDepositMethodField>): { depositAmount: number; depositMethod?: TMoneyMethod } {
  return amount > 0 && method !== '' ? { depositAmount: amount, depositMethod: method } : { depositAmount: 0 };
}
