import type { Tx } from '../../db/transaction';
import type { TPrisma } from '../../db/client';
import { cityTaxNotes, planCityTax, type CityTaxBasis, type NightAmount } from './city-tax-plan';
import { nightsOf } from '../price/pricing';
import { appendEntry, type Poster, type Visit } from './folio';
import type { SettlementTaxes } from './ledger-facts';

/** The city tax basis of a folio, for the stay `stayId` (its guests). */
export async function cityTaxBasis(tx: TPrisma | Tx, hotelId: number, folioId: number | null, stayId: number): Promise<CityTaxBasis> {
  const [rule, rows] = await Promise.all([
    tx.taxRule.findFirst({ where: { hotelId, appliesTo: 'city', retiredAt: null }, select: { id: true, amountPerNight: true } }),
    folioId === null
      ? []
      : tx.orderEntry.findMany({
          where: { hotelId, folioId, kind: 'charge', taxRule: { appliesTo: 'city' }, linkedBy: { none: { kind: 'correction' } } },
          select: { id: true, amount: true, nights: true, taxRuleId: true },
          orderBy: { id: 'asc' },
        }),
  ]);
  const persons = rule ? Math.max(1, await tx.stayGuest.count({ where: { hotelId, stayId } })) : 0;
  return {
    standing: rows.map((r) => ({ id: r.id, amount: r.amount, nights: (r.nights ?? []) as unknown as NightAmount[], taxRuleId: r.taxRuleId! })),
    rule: rule?.amountPerNight ? { id: rule.id, amountPerNight: rule.amountPerNight } : null,
    persons,
  };
}

/**
 * Brings a visit's city tax to its nights (none when its room charges stand at nothing: a visit not
 * begun, or ended unbegun), inside the caller's transaction; returns the entries written.
 * `hasTaxCharges`: the folio holds tax charges (the caller read its entries): without any, and with no
 * city tax in force, there is nothing to do, at the cost of one statement on the check-in's path (none
 * when the caller read `cityTaxInForce` already).
 */
export async function syncCityTax(
  tx: Tx,
  poster: Poster,
  visit: Visit,
  folioId: number,
  charged: boolean,
  hasTaxCharges: boolean,
  cityTaxInForce?: boolean,
): Promise<number[]> {
  const { hotelId } = poster;
  const inForce = async () =>
    cityTaxInForce ?? (await tx.taxRule.findFirst({ where: { hotelId, appliesTo: 'city', retiredAt: null }, select: { id: true } })) !== null;
  if (!hasTaxCharges && !(await inForce())) return [];
  const basis = await cityTaxBasis(tx, hotelId, folioId, visit.current.id);
  if (!basis.rule && basis.standing.length === 0) return [];
  const { timeZone } = await tx.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { timeZone: true } });
  const end = visit.current.checkedOutAt ?? visit.current.expectedCheckOutAt;
  const plan = planCityTax(basis, charged ? nightsOf(visit.first.checkInAt, end, timeZone) : []);
  const on = { stayId: visit.current.id, roomId: visit.current.roomId, folioId };
  const ids: number[] = [];
  for (const c of plan.corrections) {
    ids.push(
      await appendEntry(tx, poster, { kind: 'correction', amount: -c.amount, method: null, note: cityTaxNotes.recomputed(), linkedEntryId: c.id, ...on }),
    );
  }
  if (plan.charge) {
    const { amount, nights, taxRuleId } = plan.charge;
    ids.push(await appendEntry(tx, poster, { kind: 'charge', amount, method: null, note: cityTaxNotes.charge(nights.length), nights, taxRuleId, ...on }));
  }
  return ids;
}

/**
 * The taxes a settlement of `visit`'s folio follows at a departure at `departureAt`: the rate added on
 * top of room charges, and the city tax of the nights up to the departure (planSettlement).
 */
export async function settlementTaxes(db: TPrisma | Tx, hotelId: number, folioId: number | null, visit: Visit, departureAt: Date): Promise<SettlementTaxes> {
  const [rooms, basis, hotel] = await Promise.all([
    db.taxRule.findFirst({ where: { hotelId, appliesTo: 'rooms', mode: 'added', retiredAt: null }, select: { rateBp: true } }),
    cityTaxBasis(db, hotelId, folioId, visit.current.id),
    db.hotel.findUniqueOrThrow({ where: { id: hotelId }, select: { timeZone: true } }),
  ]);
  const city = basis.rule || basis.standing.length ? { basis, nights: nightsOf(visit.first.checkInAt, departureAt, hotel.timeZone) } : null;
  return { roomsAddedBp: rooms?.rateBp ?? null, cityTax: city };
}
