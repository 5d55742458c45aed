import { systemText } from '../../infra/system-text';

/**
 * The city tax (docs/journal.md "Taxes"): an amount per person and night that the hotel set
 * (`TaxRule` of `city`), charged on the visit's folio beside its room charges, whenever they are
 * brought to the stay's price (`syncRoomCharge`) and at check-out (`planSettlement`, for the nights
 * used). A night is charged once: for the guests of the stay when it is first charged, at the amount
 * then in force (a rule changed later changes no night already charged). A night the visit no longer
 * has (an early departure, dates moved) is given back: the city tax charges standing are corrected
 * and the nights kept are charged again as they were, with the new ones. The journal books each on
 * `tax_payable` under its rule (trigger JournalLine_tax).
 */

export interface NightAmount {
  date: string;
  amount: number;
}

/** A city tax charge standing on a folio (not corrected). */
export interface CityTaxCharge {
  id: number;
  amount: number;
  nights: NightAmount[];
  taxRuleId: number;
}

/** What the city tax of a folio stands on: its charges standing, the rule in force and the guests now. */
export interface CityTaxBasis {
  standing: CityTaxCharge[];
  rule: { id: number; amountPerNight: number } | null;
  persons: number;
}

/** What brings a folio's city tax to `nights` (the visit's nights; none when it charges no room): charges to correct, and one to post. */
export interface CityTaxPlan {
  corrections: CityTaxCharge[];
  charge: { amount: number; nights: NightAmount[]; taxRuleId: number } | null;
}

/** The rule, in one place, for the desk's postings and the check-out's plan alike. */
export function planCityTax(basis: CityTaxBasis, nights: readonly string[]): CityTaxPlan {
  const posted = new Map<string, number>();
  for (const charge of basis.standing) for (const n of charge.nights) posted.set(n.date, (posted.get(n.date) ?? 0) + n.amount);
  // Each night of the visit: what it was charged, or the guests now x the amount now.
  const wanted = new Map<string, number>();
  for (const date of nights) {
    const amount = posted.get(date) ?? (basis.rule ? basis.persons * basis.rule.amountPerNight : 0);
    if (amount > 0) wanted.set(date, amount);
  }
  const givenBack = [...posted].some(([date, amount]) => amount !== 0 && !wanted.has(date));
  const toCharge = givenBack ? [...wanted] : [...wanted].filter(([date]) => !posted.has(date));
  const total = toCharge.reduce((s, [, a]) => s + a, 0);
  const taxRuleId = basis.rule?.id ?? basis.standing.at(-1)?.taxRuleId ?? null;
  return {
    corrections: givenBack ? basis.standing : [],
    charge: total > 0 && taxRuleId !== null ? { amount: -total, nights: toCharge.map(([date, amount]) => ({ date, amount })), taxRuleId } : null,
  };
}

/** The notes of the city tax's entries: codes, read in each reader's language. */
export const cityTaxNotes = {
  charge: (nights: number) => systemText('orders.notes.cityTax', { nights }),
  recomputed: () => systemText('orders.notes.cityTaxRecomputed'),
};
