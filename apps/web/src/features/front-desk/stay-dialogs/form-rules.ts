import { z } from 'zod';
import { GENDERS, LIMITS, ZGuestInput, minPriceMinor, type TGuestInput } from '@console/shared';
import { fromInputValue } from '@/lib/hotel-time';
import { parseMoneyInput } from '@/lib/money';

/**
 * Form values are what the inputs hold (text); these rules are those of the shared schemas of
 * packages/shared, with the same `validation.*` message keys, checked on that text.
 */

/** The largest amount the API takes (ZMinorAmount), in minor units. */
const MAX_MINOR = 100_000_000_00;

export const GUEST_FIELD_MAX = { name: 64, nationality: 64, idNumber: 32, mobile: 20, email: 254 } as const;

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
    const result = ZGuestInput.safeParse(toGuestInput(guest));
    if (result.success) return;
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
export type TGuestForm = z.infer<typeof ZGuestForm>;

export const emptyGuest: TGuestForm = { name: '', gender: 'unknown', nationality: '', birthDate: '', idNumber: '', mobile: '', email: '' };

/** The API's guest of a guest form row (blank optional fields are left out). */
export function toGuestInput(guest: TGuestForm): TGuestInput {
  return {
    name: guest.name,
    gender: guest.gender,
    nationality: guest.nationality,
    birthDate: guest.birthDate || null,
    idNumber: guest.idNumber.trim() || null,
    mobile: guest.mobile.trim() || null,
    email: guest.email.trim() || null,
  };
}

/** A value, or the message key (validation.*) of what is wrong with it. */
export type Checked<T> = { value: T } | { error: string };

/** The instant of a datetime-local value in the hotel's zone, or the message key of what is wrong. */
export function checkDateTime(value: string, timeZone: string): Checked<string> {
  if (!value.trim()) return { error: 'validation.dateTimeRequired' };
  const iso = fromInputValue(value, timeZone);
  return iso ? { value: iso } : { error: 'validation.dateTimeInvalid' };
}

/** Whether a stay from `from` to `to` (ISO instants) is long enough (LIMITS.minStayHours). */
export function isLongEnough(from: string, to: string): boolean {
  return Date.parse(to) - Date.parse(from) >= LIMITS.minStayHours * 3_600_000;
}

/**
 * An amount typed in major units, in minor units, or the message key of what is wrong.
 * `price`: required and not less than 1 (spec §5); otherwise blank means 0.
 */
export function checkMoney(text: string, currency: string, kind: 'price' | 'amount'): Checked<number> {
  const minor = parseMoneyInput(text, currency);
  if (minor === undefined) return kind === 'price' ? { error: 'validation.priceRequired' } : { value: 0 };
  if (Number.isNaN(minor) || minor < 0 || minor > MAX_MINOR) return { error: 'validation.priceInvalid' };
  if (kind === 'price' && minor < minPriceMinor(currency)) return { error: 'validation.priceMin' };
  return { value: minor };
}

/** Adds the message of a failed check at `path`; the checked value otherwise. */
export function take<T>(ctx: z.RefinementCtx, path: (string | number)[], result: Checked<T>): T | undefined {
  if ('error' in result) {
    ctx.addIssue({ code: 'custom', message: result.error, path });
    return undefined;
  }
  return result.value;
}
