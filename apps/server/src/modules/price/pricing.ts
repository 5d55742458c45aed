import { addDays, localDate, weekday } from '@console/shared';

/**
 * The one pricing function of the console (docs/pricing.md). A stay is charged per night, a
 * night being a calendar date of the hotel's time zone from the check-in date up to the day
 * before the check-out date; a stay that starts and ends on the same date is one night. Each
 * night costs, in this order of precedence:
 *   1. the price set for that specific date,
 *   2. the weekend price, for the nights of Friday and Saturday, when the room has one,
 *   3. the usual price.
 * Everything is an integer in minor units; dates are plain calendar dates, so a night across a
 * daylight-saving change is still one night.
 */
export interface Rates {
  usualPrice: number;
  weekendPrice: number | null;
  /** Price per night of a renewal "at the set price"; null: renewals use the nightly rates. */
  renewalPrice: number | null;
  /** `YYYY-MM-DD` -> price. */
  datePrices: ReadonlyMap<string, number>;
}

export type NightSource = 'date' | 'weekend' | 'usual' | 'renewal';

export interface PriceQuote {
  total: number;
  nights: { date: string; price: number; source: NightSource }[];
}

/** Friday and Saturday nights are weekend nights. */
export const WEEKEND_NIGHTS = new Set([5, 6]);

export function nightsOf(checkIn: Date, checkOut: Date, timeZone: string): string[] {
  const first = localDate(checkIn, timeZone);
  const last = localDate(checkOut, timeZone);
  const nights: string[] = [first];
  for (let date = addDays(first, 1); date < last; date = addDays(date, 1)) nights.push(date);
  return nights;
}

export function priceNight(date: string, rates: Rates): { price: number; source: NightSource } {
  const specific = rates.datePrices.get(date);
  if (specific !== undefined) return { price: specific, source: 'date' };
  if (rates.weekendPrice !== null && WEEKEND_NIGHTS.has(weekday(date))) return { price: rates.weekendPrice, source: 'weekend' };
  return { price: rates.usualPrice, source: 'usual' };
}

/** The price of a stay from `checkIn` to `checkOut` in `timeZone`. */
export function priceStay(checkIn: Date, checkOut: Date, timeZone: string, rates: Rates): PriceQuote {
  const nights = nightsOf(checkIn, checkOut, timeZone).map((date) => ({ date, ...priceNight(date, rates) }));
  return { total: nights.reduce((sum, n) => sum + n.price, 0), nights };
}

/**
 * The price of extending a stay from `from` (its current check-out) to `to`: the nights the
 * extension adds. When the stay already ends on the new date (a later hour), nothing is added.
 * With a renewal price, every added night costs that price.
 */
export function priceRenewal(from: Date, to: Date, timeZone: string, rates: Rates): PriceQuote {
  const start = localDate(from, timeZone);
  const end = localDate(to, timeZone);
  const nights: PriceQuote['nights'] = [];
  for (let date = start; date < end; date = addDays(date, 1)) {
    nights.push(rates.renewalPrice !== null ? { date, price: rates.renewalPrice, source: 'renewal' } : { date, ...priceNight(date, rates) });
  }
  return { total: nights.reduce((sum, n) => sum + n.price, 0), nights };
}
