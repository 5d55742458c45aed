// No zod here: the console's first download formats money (lib/money.ts), and a module is bundled
// whole (ZMoneyMethod lives in prices.ts).

/**
 * Money is an integer in the minor unit of the hotel's currency (fen, cents; yen have none).
 * Forms and legacy clients use major units (299.5 yuan); these helpers convert, exactly.
 */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** 299.5 CNY -> 29950; null when the amount has more decimals than the currency allows. */
export function toMinor(amount: number, currency: string): number | null {
  if (!Number.isFinite(amount)) return null;
  const factor = 10 ** minorDigits(currency);
  const minor = Math.round(amount * factor);
  return Math.abs(minor - amount * factor) < 1e-6 ? minor : null;
}

export function fromMinor(minor: number, currency: string): number {
  return minor / 10 ** minorDigits(currency);
}

/** The smallest price allowed (spec §5: not less than 1), in minor units. */
export function minPriceMinor(currency: string): number {
  return 10 ** minorDigits(currency);
}

/** Ways money changes hands at the desk: what a recharge, a refund's chosen way, a deposit at check-in and a settlement's refunds take. */
export const MONEY_METHODS = ['cash', 'bank_card', 'wechat', 'alipay', 'transfer', 'other'] as const;
export type TMoneyMethod = (typeof MONEY_METHODS)[number];
