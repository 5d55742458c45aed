import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, localDate, weekday, zonedToInstant } from '@console/shared';
import { WEEKEND_NIGHTS, nightsOf, priceRenewal, priceStay, type Rates } from './pricing';

const ZONES = ['Asia/Shanghai', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Pacific/Auckland', 'UTC'];
const rates = (overrides: Partial<Rates> = {}): Rates => ({
  usualPrice: 10_000,
  weekendPrice: 15_000,
  renewalPrice: null,
  datePrices: new Map(),
  ...overrides,
});
const at = (local: string, zone: string) => zonedToInstant(local, zone)!;

describe('pricing examples', () => {
  it('charges Friday and Saturday nights at the weekend price', () => {
    // Thursday 2026-11-19 14:00 to Monday 2026-11-23 12:00: Thu, Fri, Sat, Sun nights.
    const quote = priceStay(at('2026-11-19T14:00', 'Asia/Shanghai'), at('2026-11-23T12:00', 'Asia/Shanghai'), 'Asia/Shanghai', rates());
    expect(quote.nights.map((n) => [n.date, n.source])).toEqual([
      ['2026-11-19', 'usual'],
      ['2026-11-20', 'weekend'],
      ['2026-11-21', 'weekend'],
      ['2026-11-22', 'usual'],
    ]);
    expect(quote.total).toBe(50_000);
  });

  it('lets a specific date win over the weekend and usual prices', () => {
    const r = rates({
      datePrices: new Map([
        ['2026-11-21', 30_000],
        ['2026-11-22', 5_000],
      ]),
    });
    const quote = priceStay(at('2026-11-20T14:00', 'Asia/Shanghai'), at('2026-11-23T12:00', 'Asia/Shanghai'), 'Asia/Shanghai', r);
    expect(quote.nights.map((n) => n.price)).toEqual([15_000, 30_000, 5_000]);
  });

  it('uses the usual price on weekends when the room has no weekend price', () => {
    const quote = priceStay(at('2026-11-20T14:00', 'UTC'), at('2026-11-22T12:00', 'UTC'), 'UTC', rates({ weekendPrice: null }));
    expect(quote.total).toBe(20_000);
  });

  it('charges a same-day stay (hourly) as one night', () => {
    expect(priceStay(at('2026-11-20T10:00', 'UTC'), at('2026-11-20T14:00', 'UTC'), 'UTC', rates()).nights).toHaveLength(1);
  });

  it('counts nights in the hotel time zone, not in UTC', () => {
    // 23:30 in Shanghai is 15:30 UTC: the night belongs to the Shanghai date.
    const checkIn = new Date('2026-11-20T15:30:00Z');
    expect(nightsOf(checkIn, new Date('2026-11-21T04:00:00Z'), 'Asia/Shanghai')).toEqual(['2026-11-20']);
    expect(nightsOf(checkIn, new Date('2026-11-21T04:00:00Z'), 'America/New_York')).toEqual(['2026-11-20']);
  });

  it('keeps a night across a daylight-saving change one night', () => {
    // Europe/Berlin leaves summer time on 2026-10-25 (a 25-hour day); New York starts it on 2026-03-08.
    expect(nightsOf(at('2026-10-24T15:00', 'Europe/Berlin'), at('2026-10-26T11:00', 'Europe/Berlin'), 'Europe/Berlin')).toEqual(['2026-10-24', '2026-10-25']);
    expect(nightsOf(at('2026-03-07T15:00', 'America/New_York'), at('2026-03-09T11:00', 'America/New_York'), 'America/New_York')).toEqual([
      '2026-03-07',
      '2026-03-08',
    ]);
  });

  it('prices a renewal by the nights it adds, or at the renewal price', () => {
    const from = at('2026-11-22T12:00', 'UTC');
    expect(priceRenewal(from, at('2026-11-24T12:00', 'UTC'), 'UTC', rates()).total).toBe(20_000);
    expect(priceRenewal(from, at('2026-11-24T12:00', 'UTC'), 'UTC', rates({ renewalPrice: 8_000 })).total).toBe(16_000);
    expect(priceRenewal(from, at('2026-11-22T18:00', 'UTC'), 'UTC', rates()).total).toBe(0);
  });
});

const zone = fc.constantFrom(...ZONES);
const localStart = fc.record({ day: fc.integer({ min: 0, max: 700 }), hour: fc.integer({ min: 0, max: 23 }), minute: fc.integer({ min: 0, max: 59 }) });
const anyRates = fc.record({
  usualPrice: fc.integer({ min: 100, max: 1_000_000 }),
  weekendPrice: fc.option(fc.integer({ min: 100, max: 1_000_000 }), { nil: null }),
  renewalPrice: fc.constant(null),
  dates: fc.array(fc.tuple(fc.integer({ min: 0, max: 760 }), fc.integer({ min: 100, max: 1_000_000 })), { maxLength: 40 }),
});
const toRates = (r: { usualPrice: number; weekendPrice: number | null; renewalPrice: null; dates: [number, number][] }): Rates => ({
  usualPrice: r.usualPrice,
  weekendPrice: r.weekendPrice,
  renewalPrice: null,
  datePrices: new Map(r.dates.map(([d, p]) => [addDays('2026-01-01', d), p])),
});
function instant(start: { day: number; hour: number; minute: number }, tz: string, plusMinutes = 0) {
  const base = at(`${addDays('2026-01-01', start.day)}T${String(start.hour).padStart(2, '0')}:${String(start.minute).padStart(2, '0')}`, tz);
  return new Date(base.getTime() + plusMinutes * 60_000);
}

describe('pricing properties', () => {
  it('charges one night per calendar date of the hotel, at least one', () => {
    fc.assert(
      fc.property(zone, localStart, fc.integer({ min: 60, max: 60 * 24 * 60 }), (tz, start, minutes) => {
        const checkIn = instant(start, tz);
        const checkOut = instant(start, tz, minutes);
        const nights = nightsOf(checkIn, checkOut, tz);
        expect(nights.length).toBe(Math.max(1, daysBetween(localDate(checkIn, tz), localDate(checkOut, tz))));
        expect(new Set(nights).size).toBe(nights.length);
      }),
    );
  });

  it('totals the price of each night, taking specific dates, then weekends, then the usual price', () => {
    fc.assert(
      fc.property(zone, localStart, fc.integer({ min: 60, max: 60 * 24 * 40 }), anyRates, (tz, start, minutes, raw) => {
        const r = toRates(raw);
        const quote = priceStay(instant(start, tz), instant(start, tz, minutes), tz, r);
        for (const night of quote.nights) {
          const expected = r.datePrices.get(night.date) ?? (r.weekendPrice !== null && WEEKEND_NIGHTS.has(weekday(night.date)) ? r.weekendPrice : r.usualPrice);
          expect(night.price).toBe(expected);
        }
        expect(quote.total).toBe(quote.nights.reduce((s, n) => s + n.price, 0));
      }),
    );
  });

  it('gives a stay split at a night boundary the price of its two parts (renewal = extension)', () => {
    fc.assert(
      fc.property(zone, localStart, fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), anyRates, (tz, start, first, second, raw) => {
        const r = toRates(raw);
        const checkIn = instant(start, tz);
        const middle = at(`${addDays(localDate(checkIn, tz), first)}T12:00`, tz);
        const end = at(`${addDays(localDate(checkIn, tz), first + second)}T12:00`, tz);
        const whole = priceStay(checkIn, end, tz, r).total;
        expect(priceStay(checkIn, middle, tz, r).total + priceRenewal(middle, end, tz, r).total).toBe(whole);
      }),
    );
  });

  it('never charges less than the cheapest rate times the nights, nor more than the dearest', () => {
    fc.assert(
      fc.property(zone, localStart, fc.integer({ min: 60, max: 60 * 24 * 40 }), anyRates, (tz, start, minutes, raw) => {
        const r = toRates(raw);
        const all = [r.usualPrice, ...(r.weekendPrice !== null ? [r.weekendPrice] : []), ...r.datePrices.values()];
        const quote = priceStay(instant(start, tz), instant(start, tz, minutes), tz, r);
        expect(quote.total).toBeGreaterThanOrEqual(Math.min(...all) * quote.nights.length);
        expect(quote.total).toBeLessThanOrEqual(Math.max(...all) * quote.nights.length);
      }),
    );
  });
});
