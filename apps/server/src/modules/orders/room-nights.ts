import { localDate } from '@console/shared';
import type { Tx } from '../../db/transaction';
import { loadRates } from '../price/price.service';
import { nightsOf, priceNight, type Rates } from '../price/pricing';
import type { Poster, Visit } from './folio';

/**
 * The nights a room charge is for (docs/journal.md): the journal books room revenue by the night
 * it is for, whatever day the charge is posted. A visit's room charges stand at its price
 * (`target`), spread over its nights in proportion to each night's rate in the room the guest had
 * that night (the pricing function's); a charge posted brings what is booked per night to that
 * spread, so its nights are the differences.
 */
export interface NightAmount {
  date: string;
  amount: number;
}

/** `total` split in proportion to `weights` in whole minor units, the remainder on the first nights; evenly when the weights are all zero. */
export function spreadByWeights(total: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((s, w) => s + w, 0);
  const shares = sum > 0 ? weights : weights.map(() => 1);
  const whole = sum > 0 ? sum : weights.length;
  const amounts = shares.map((w) => Math.trunc((total * w) / whole));
  let left = total - amounts.reduce((s, a) => s + a, 0);
  const step = Math.sign(left);
  for (let i = 0; left !== 0; i = (i + 1) % amounts.length) {
    if (shares[i]! > 0) {
      amounts[i]! += step;
      left -= step;
    }
  }
  return amounts;
}

/**
 * What each night should carry when the visit's room charges stand at `target`. `fixed`: nights of
 * days already closed and what the journal books for them, which never change (docs/journal.md): the
 * rest of the target is spread over the open nights; when none is open, the difference is spread over
 * them all (and booked on the open business date by the database).
 */
export async function nightSchedule(
  tx: Tx,
  visit: Visit,
  timeZone: string,
  target: number,
  fixed = new Map<string, number>(),
  known?: KnownRates,
): Promise<NightAmount[]> {
  const end = visit.current.checkedOutAt ?? visit.current.expectedCheckOutAt;
  const nights = nightsOf(visit.first.checkInAt, end, timeZone);
  // The room of each night: the last stay of the visit begun on or before it (a room change continues the visit).
  const starts = visit.stays.map((s) => ({ stay: s, from: localDate(s.checkInAt, timeZone) }));
  const rates = new Map<number, Rates>(known ? [[known.roomId, known.rates]] : []);
  const weights: number[] = [];
  for (const date of nights) {
    const { stay } = starts.filter((s) => s.from <= date).at(-1) ?? starts[0]!;
    if (!rates.has(stay.roomId)) rates.set(stay.roomId, await loadRates(tx, stay.roomId, timeZone, visit.first.checkInAt, end));
    weights.push(priceNight(date, rates.get(stay.roomId)!).price);
  }
  const kept = [...fixed.values()].reduce((s, a) => s + a, 0);
  const open = nights.flatMap((date, i) => (fixed.has(date) ? [] : [i]));
  if (open.length === 0) {
    const extra = spreadByWeights(target - kept, weights);
    return nights.map((date, i) => ({ date, amount: (fixed.get(date) ?? 0) + extra[i]! }));
  }
  const spread = spreadByWeights(
    target - kept,
    open.map((i) => weights[i]!),
  );
  const amounts = new Map(open.map((i, k) => [nights[i]!, spread[k]!]));
  return nights.map((date) => ({ date, amount: amounts.get(date) ?? fixed.get(date)! }));
}

/**
 * The rates of the room of a stay just priced (check-in, a reservation made at the desk), read for
 * its quote over the same nights: its charge is spread by the rates it was priced at, not read again.
 */
export interface KnownRates {
  roomId: number;
  rates: Rates;
}

/**
 * Of `dates`, the days the hotel has closed; and whether a city tax is in force, which the posting
 * asks next (`syncCityTax`): one statement for both on a check-in's path.
 */
async function postingFacts(tx: Tx, hotelId: number, dates: string[]): Promise<{ closed: Set<string>; cityTax: boolean }> {
  const [row] = await tx.$queryRaw<{ closed: string[]; cityTax: boolean }[]>`
    SELECT ARRAY(SELECT "date" FROM "DayClose" WHERE "hotelId" = ${hotelId} AND "date" = ANY(${dates}::text[]))::text[] AS "closed",
      EXISTS (SELECT 1 FROM "TaxRule" WHERE "hotelId" = ${hotelId} AND "appliesTo" = 'city' AND "retiredAt" IS NULL) AS "cityTax"`;
  return { closed: new Set(row?.closed ?? []), cityTax: row?.cityTax ?? false };
}

/** The room revenue a folio's journal books per night now (positive amounts). */
async function bookedNights(tx: Tx, hotelId: number, folioId: number): Promise<Map<string, number>> {
  const rows = await tx.$queryRaw<{ date: string; amount: bigint }[]>`
    SELECT l."serviceDate" AS "date", -sum(l."amount") AS "amount"
    FROM "JournalLine" l JOIN "JournalEntry" e ON e."id" = l."journalEntryId"
    WHERE e."hotelId" = ${hotelId} AND e."folioId" = ${folioId} AND l."account" = 'revenue_rooms'
    GROUP BY l."serviceDate"`;
  return new Map(rows.map((r) => [r.date, Number(r.amount)]));
}

/**
 * The nights of a room charge that brings a visit's room charges to `target`: each night's share
 * of it less what the folio's journal books for that night already (`folioId` null: a folio this
 * transaction made, which books nothing yet). They sum to what the charge
 * charges when the room charges stood at the sum of what is booked.
 */
export async function roomChargeNights(
  tx: Tx,
  poster: Poster,
  visit: Visit,
  folioId: number | null,
  target: number,
  known?: KnownRates,
): Promise<{ nights: NightAmount[]; cityTax: boolean }> {
  const timeZone = poster.timeZone ?? (await tx.hotel.findUniqueOrThrow({ where: { id: poster.hotelId }, select: { timeZone: true } })).timeZone;
  const booked = folioId === null ? new Map<string, number>() : await bookedNights(tx, poster.hotelId, folioId);
  const end = visit.current.checkedOutAt ?? visit.current.expectedCheckOutAt;
  const { closed, cityTax } = await postingFacts(tx, poster.hotelId, [...new Set([...nightsOf(visit.first.checkInAt, end, timeZone), ...booked.keys()])]);
  // A closed day's nights keep what they book.
  const fixed = new Map([...booked].filter(([date]) => closed.has(date)));
  for (const date of closed) if (!fixed.has(date)) fixed.set(date, 0);
  const schedule = await nightSchedule(tx, visit, timeZone, target, fixed, known);
  const nights = schedule.map((n) => ({ date: n.date, amount: n.amount - (booked.get(n.date) ?? 0) }));
  // Nights booked that the visit no longer has (its dates moved): given back, unless their day is closed.
  for (const [date, amount] of booked) if (!closed.has(date) && !schedule.some((n) => n.date === date)) nights.push({ date, amount: -amount });
  return { nights: nights.filter((n) => n.amount !== 0), cityTax };
}
