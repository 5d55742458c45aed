import { PAYMENT_METHODS, type TOrderEntryKind, type TPaymentMethod } from '@console/shared';
import type { TCashLine, TDayFigures } from '@console/shared/dto';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';
import { addTo, emptyLine } from '../orders/cash-lines';
import { entriesSql, extrasSql, figuresSql, standingSql, type FigureStatement } from './figures-sql';

/**
 * A span of days' figures (docs/reports.md), computed from the stays and the ledger in a few
 * statements however many days (`figures-sql.ts`), and the derived ones (occupancy, ADR, RevPAR).
 */

type Db = TPrisma | Tx;

const n = (v: bigint | number | null | undefined) => Number(v ?? 0);

const run = <T>(db: Db, q: FigureStatement) => db.$queryRawUnsafe<T[]>(q.text, ...q.values);

/** What the hotel stood at at a day's end: bills owing and deposits held (`standingSql`). */
export type Standing = Pick<TDayFigures, 'owing' | 'depositsHeld'>;

/** Bills owing and deposits held at the end of each day of `dates` (`ends`: each one's end), in their order. */
export async function standingByDay(db: Db, hotelId: number, dates: string[], ends: Date[]): Promise<Standing[]> {
  const rows = await run<{ i: bigint; owing_count: bigint; owing_total: bigint; held: bigint }>(db, standingSql(hotelId, dates, ends).standing);
  const of = new Map(rows.map((r) => [n(r.i), r]));
  return dates.map((_, k) => {
    const row = of.get(k + 1);
    return { owing: { count: n(row?.owing_count), total: n(row?.owing_total) }, depositsHeld: n(row?.held) };
  });
}

/** A day's other revenue and the taxes its prices include (the journal's revenue_extras and tax_payable of its business date). */
export interface DayExtras {
  charges: number;
  taxes: number;
}

/** The other revenue and included taxes of each business date of `dates` (`extrasSql`), in their order. */
export async function extrasByDay(db: Db, hotelId: number, dates: string[]): Promise<DayExtras[]> {
  if (dates.length === 0) return [];
  const rows = await run<{ i: bigint; account: 'revenue_extras' | 'tax_payable'; amount: bigint }>(db, extrasSql(hotelId, dates));
  const of = new Map(rows.map((r) => [`${r.account}:${n(r.i)}`, n(r.amount)]));
  // Never -0 (nothing counted).
  return dates.map((_, k) => ({ charges: of.get(`revenue_extras:${k + 1}`) || 0, taxes: of.get(`tax_payable:${k + 1}`) || 0 }));
}

/**
 * The figures of [from, to): a room is sold for the day when a guest is in it at the day's end (the
 * night); bills owing and deposits held as the journal stood at the day's end.
 */
export async function dayFigures(
  db: Db,
  hotelId: number,
  date: string,
  from: Date,
  to: Date,
  kept?: { sums: EntrySum[][]; stands: Standing[]; extras: DayExtras[] },
): Promise<TDayFigures> {
  return (await rangeFigures(db, hotelId, [from, to], [date], kept && Promise.resolve(kept)))[0]!;
}

/** A row of `figuresSql`'s `stays`: a kind of count, its day (`i`, from 1) and how many. */
type StayCount = { kind: 'first' | 'after' | 'arrival' | 'departure' | 'no_show' | 'ended'; i: number | null; n: bigint; arrived: bigint | null };

/** Each day's stay figures from `stays`' rows: the rooms sold as the running sum of stays counted from a day less those no longer. */
function stayFigures(rows: StayCount[], days: number) {
  const of = new Map(rows.filter((r) => r.i !== null).map((r) => [`${r.kind}:${r.i}`, r]));
  const count = (kind: StayCount['kind'], i: number) => n(of.get(`${kind}:${i}`)?.n);
  let sold = 0;
  return Array.from({ length: days }, (_, k) => {
    const i = k + 1;
    sold += count('first', i) - count('after', i);
    return {
      sold,
      stayOvers: sold - n(of.get(`first:${i}`)?.arrived),
      arrivals: count('arrival', i),
      departures: count('departure', i),
      noShows: count('no_show', i),
      cancellations: count('ended', i),
    };
  });
}

/** A day's ledger entries summed by kind and way of paying (a correction: with the kind it corrects). */
export interface EntrySum {
  kind: TOrderEntryKind;
  method: TPaymentMethod | null;
  corrects: TOrderEntryKind | null;
  amount: number;
  count: number;
}

/** The entries of each business date of `dates` summed (`figuresSql`'s `entries`), one list a day. */
export async function entrySums(db: Db, hotelId: number, dates: string[]): Promise<EntrySum[][]> {
  const rows = await run<{ i: number; kind: TOrderEntryKind; method: TPaymentMethod | null; corrects: TOrderEntryKind | null; amount: bigint; count: bigint }>(
    db,
    entriesSql(hotelId, dates),
  );
  const days: EntrySum[][] = Array.from({ length: dates.length }, () => []);
  for (const r of rows) days[n(r.i) - 1]?.push({ kind: r.kind, method: r.method, corrects: r.corrects, amount: n(r.amount), count: n(r.count) });
  return days;
}

/**
 * The figures of consecutive days, day i being [bounds[i-1], bounds[i]), in three statements however
 * many days (`figuresSql`), with the bills owing and deposits held at each day's end (`standingSql`);
 * the ledger's sums and the standing of days that are over from `kept` when given (kept-sums.ts).
 */
export async function rangeFigures(
  db: Db,
  hotelId: number,
  bounds: Date[],
  dates: string[],
  kept?: Promise<{ sums: EntrySum[][]; stands: Standing[]; extras: DayExtras[] }>,
): Promise<TDayFigures[]> {
  const sql = figuresSql(hotelId, bounds, dates);
  const [rooms, stays, entriesByDay, stands, nights, extras] = await Promise.all([
    run<{ i: bigint; total: bigint; out_of_order: bigint }>(db, sql.rooms),
    run<StayCount>(db, sql.stays).then((rows) => stayFigures(rows, bounds.length - 1)),
    kept ? kept.then((k) => k.sums) : entrySums(db, hotelId, dates),
    kept ? kept.then((k) => k.stands) : standingByDay(db, hotelId, dates, bounds.slice(1)),
    run<{ i: bigint; amount: bigint }>(db, sql.nights),
    kept ? kept.then((k) => k.extras) : extrasByDay(db, hotelId, dates),
  ]);
  const nightOf = new Map(nights.map((r) => [n(r.i), n(r.amount)]));
  const days = bounds.length - 1;
  const roomsOf = new Map(rooms.map((r) => [n(r.i), r]));
  const entriesOf = new Map(entriesByDay.map((e, k) => [k + 1, e]));
  return Array.from({ length: days }, (_, k) => {
    const i = k + 1;
    const room = roomsOf.get(i);
    const stay = stays[k]!;
    // Room revenue: the journal's, by the night it is for; other revenue and the taxes included in the
    // price: the journal's of the business date (each net of the tax it includes).
    const roomCharges = nightOf.get(i) ?? 0;
    const { charges, taxes } = extras[k]!;
    const lines = new Map<TPaymentMethod, TCashLine>();
    for (const g of entriesOf.get(i) ?? []) {
      if (g.method === null) continue;
      const line = lines.get(g.method) ?? emptyLine(g.method);
      lines.set(g.method, line);
      addTo(line, g.kind, g.amount, g.count);
    }
    const methods = PAYMENT_METHODS.filter((m) => lines.has(m)).map((m) => lines.get(m)!);
    const total = n(room?.total);
    const outOfOrder = n(room?.out_of_order);
    return figuresOf({
      rooms: { total, outOfOrder, available: Math.max(0, total - outOfOrder), sold: stay.sold },
      arrivals: stay.arrivals,
      departures: stay.departures,
      stayOvers: stay.stayOvers,
      noShows: stay.noShows,
      cancellations: stay.cancellations,
      // Never -0 (nothing counted).
      roomCharges: roomCharges || 0,
      charges: charges || 0,
      taxes: taxes || 0,
      methods,
      ...stands[k]!,
    });
  });
}

/** The derived figures (occupancy, ADR, RevPAR, received, refunded) of the counted ones. */
export function figuresOf(c: {
  rooms: TDayFigures['rooms'];
  arrivals: number;
  departures: number;
  stayOvers: number;
  noShows: number;
  cancellations: number;
  roomCharges: number;
  charges: number;
  /** The taxes included in the price, owed (tax_payable's credits of the day). */
  taxes: number;
  methods: TCashLine[];
  owing: TDayFigures['owing'];
  depositsHeld: number;
}): TDayFigures {
  // Money taken from a customer's balance came in with the recharge: not received again.
  const handed = c.methods.filter((l) => l.method !== 'balance');
  return {
    rooms: c.rooms,
    occupancy: c.rooms.available ? Math.round((c.rooms.sold * 1000) / c.rooms.available) / 10 : 0,
    adr: c.rooms.sold ? Math.round(c.roomCharges / c.rooms.sold) : 0,
    revpar: c.rooms.available ? Math.round(c.roomCharges / c.rooms.available) : 0,
    arrivals: c.arrivals,
    departures: c.departures,
    stayOvers: c.stayOvers,
    noShows: c.noShows,
    cancellations: c.cancellations,
    revenue: { roomCharges: c.roomCharges, charges: c.charges, total: c.roomCharges + c.charges, taxes: c.taxes },
    methods: c.methods,
    received: handed.reduce((s, l) => s + l.deposits + l.payments + l.recharges, 0),
    // Never -0 (a sum of nothing negated).
    refunded: 0 - handed.reduce((s, l) => s + l.refunds, 0) || 0,
    owing: c.owing,
    depositsHeld: c.depositsHeld,
  };
}
