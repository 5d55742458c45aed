import { addDays, zonedToInstant, type TOrderEntryKind, type TPaymentMethod } from '@console/shared';

/**
 * Money by way of paying, as the cash report, a cashier shift and a day's report count it, and the
 * hotel calendar day they count it in. A module of its own: the ledger's writer (folio.ts) needs the
 * shifts, which need these, and the readers (order-list.ts) need the writer.
 */

/** The instants a hotel calendar day starts and ends (the next one's start): a day across a DST change is 23 or 25 hours. */
export function hotelDay(date: string, timeZone: string): { from: Date; to: Date } {
  return { from: zonedToInstant(`${date} 00:00`, timeZone)!, to: zonedToInstant(`${addDays(date, 1)} 00:00`, timeZone)! };
}

/** Money of one operator in one way (cash, card...), by kind; `net` is what they hand over. */
export interface CashLine {
  method: TPaymentMethod;
  deposits: number;
  payments: number;
  recharges: number;
  /** Negative: money given back. */
  refunds: number;
  /** Reversals of entries recorded by mistake (signed). */
  corrections: number;
  net: number;
  count: number;
}

export const emptyLine = (method: TPaymentMethod): CashLine => ({
  method,
  deposits: 0,
  payments: 0,
  recharges: 0,
  refunds: 0,
  corrections: 0,
  net: 0,
  count: 0,
});
const KIND_FIELD: Partial<Record<TOrderEntryKind, keyof Omit<CashLine, 'method' | 'net' | 'count'>>> = {
  deposit: 'deposits',
  payment: 'payments',
  recharge: 'recharges',
  refund: 'refunds',
  correction: 'corrections',
};

export function addTo(line: CashLine, kind: TOrderEntryKind, amount: number, count: number) {
  const field = KIND_FIELD[kind];
  if (field) line[field] += amount;
  line.net += amount;
  line.count += count;
}
