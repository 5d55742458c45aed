import { REFUNDABLE_KINDS, type TMoneyMethod, type TOrderEntryKind, type TPaymentMethod } from '@console/shared';
import type { StoredText } from '../../infra/system-text';
import { cityTaxNotes, planCityTax, type CityTaxBasis, type NightAmount } from './city-tax-plan';

/**
 * What a set of ledger entries says, derived and never stored (docs/orders.md): the balance is
 * the sum of the amounts; an entry is corrected when a correction names it; what is left to refund
 * of a payment, deposit or recharge is its amount less its refunds that were not corrected (nothing
 * once it was corrected itself). The database's `OrderEntry_refundable` function says the same in
 * SQL and guards every insert; this is the view the services show and plan with.
 */
export interface LedgerLine {
  id: number;
  kind: TOrderEntryKind;
  amount: number;
  method: TPaymentMethod | null;
  linkedEntryId: number | null;
  /** Money taken from a customer's balance (method `balance`): the customer. */
  customerId?: number | null;
  /** A tax added on top: the charge it taxes (the database corrects it with that charge). */
  taxedEntryId?: number | null;
}

export const isRefundableKind = (kind: TOrderEntryKind) => (REFUNDABLE_KINDS as readonly string[]).includes(kind);

export interface LedgerFacts {
  balance: number;
  /** Entry id -> the id of the correction that reversed it. */
  correctedBy: Map<number, number>;
  /** Payment, deposit or recharge id -> what is left to refund of it. */
  refundable: Map<number, number>;
  /** Sum of the room charges not corrected, as a positive amount. */
  roomChargePosted: number;
  /** Sum of what is left to refund of the deposits. */
  depositHeld: number;
  /** Signed sums per kind (corrections on their own). */
  totals: Record<TOrderEntryKind, number>;
}

export function ledgerFacts(lines: readonly LedgerLine[]): LedgerFacts {
  const correctedBy = new Map<number, number>();
  const totals: Record<TOrderEntryKind, number> = { room_charge: 0, charge: 0, deposit: 0, payment: 0, refund: 0, recharge: 0, correction: 0 };
  let balance = 0;
  for (const line of lines) {
    balance += line.amount;
    totals[line.kind] += line.amount;
    if (line.kind === 'correction' && line.linkedEntryId !== null) correctedBy.set(line.linkedEntryId, line.id);
  }
  const refundable = new Map<number, number>();
  for (const line of lines) if (isRefundableKind(line.kind)) refundable.set(line.id, correctedBy.has(line.id) ? 0 : line.amount);
  for (const line of lines) {
    if (line.kind !== 'refund' || line.linkedEntryId === null || correctedBy.has(line.id)) continue;
    const left = refundable.get(line.linkedEntryId);
    if (left !== undefined && !correctedBy.has(line.linkedEntryId)) refundable.set(line.linkedEntryId, left + line.amount);
  }
  let roomChargePosted = 0;
  let depositHeld = 0;
  for (const line of lines) {
    if (line.kind === 'room_charge' && !correctedBy.has(line.id)) roomChargePosted -= line.amount;
    if (line.kind === 'deposit') depositHeld += refundable.get(line.id) ?? 0;
  }
  return { balance, correctedBy, refundable, roomChargePosted, depositHeld, totals };
}

/** How a refund goes back: money from a balance to the balance; other money as asked, else the way it came. */
export function refundMethod(source: { method: TPaymentMethod | null }, asked: TMoneyMethod | undefined, otherwise: TMoneyMethod = 'other'): TPaymentMethod {
  if (source.method === 'balance') return 'balance';
  return asked ?? source.method ?? otherwise;
}

/** What is owed by the guest (a negative balance) and what is due back to them (a positive one). */
export function owedAndDueBack(balance: number): { owed: number; dueBack: number } {
  return { owed: balance < 0 ? -balance : 0, dueBack: balance > 0 ? balance : 0 };
}

export interface PlannedEntry {
  kind: 'room_charge' | 'charge' | 'refund' | 'correction';
  /** Signed, as it is stored. */
  amount: number;
  method: TPaymentMethod | null;
  linkedEntryId: number | null;
  note: StoredText;
  /** A refund of money taken from a customer's balance: the customer it goes back to. */
  customerId?: number | null;
  /** The city tax's charge: its nights and rule. */
  nights?: NightAmount[];
  taxRuleId?: number;
}

/**
 * The taxes a settlement follows (docs/journal.md "Taxes"): the rate added on top of room charges in
 * force (the database adds it to each room charge posted), and the city tax with the visit's nights
 * at the departure.
 */
export interface SettlementTaxes {
  roomsAddedBp: number | null;
  cityTax: { basis: CityTaxBasis; nights: string[] } | null;
}

/** The tax a rate in basis points adds to a signed amount: rounded half away from zero, as the database's round(). */
export function addedTax(amount: number, rateBp: number): number {
  const exact = (Math.abs(amount) * rateBp) / 10_000;
  return Math.sign(amount) * Math.round(exact);
}

export interface SettlementDecision {
  /** What the stay owes for the room, computed by the pricing function (docs/orders.md). */
  roomChargeDue: number;
  deposit: 'refund' | 'keep';
  depositReason: string;
  refundMethod?: TMoneyMethod;
  /** The taxes it follows (none: a hotel without added taxes). */
  taxes?: SettlementTaxes;
  /** Notes of the entries the settlement writes: codes, read in each reader's language (infra/system-text.ts). */
  notes: { roomChargeRecomputed: StoredText; depositKept: StoredText; depositRefund: StoredText; refund: StoredText };
}

export interface SettlementPlan {
  entries: PlannedEntry[];
  roomCharge: { posted: number; due: number };
  deposit: { held: number; refunded: number; kept: number };
  /** Money handed back: the refunds the plan writes. */
  refunded: number;
  /**
   * The part of `refunded` handed back in money (not to a customer's balance, where money from a
   * balance always goes): its way is the clerk's to name (`refundMethod`), never assumed.
   */
  handedBack: number;
  /** What the guest still has to pay for the folio to balance (then it is settled by a payment). */
  owed: number;
  /**
   * Due back but not refundable from any entry. The balance is the deposits and payments left to
   * refund less the charges standing, so this stays 0; the caller refuses to settle otherwise.
   */
  unreturnable: number;
}

/**
 * The entries that settle a folio, planned from its entries:
 * 1. the room charge is brought to what is due: a shortfall is charged; an excess is corrected
 *    (every room charge still standing reversed) and the due amount charged again;
 * 2. the deposit still held is kept (one charge saying why) or refunded, as far as the guest is
 *    not owing: a deposit first covers the bill, the rest goes back;
 * 3. money still due back is refunded from the payments, newest first;
 * 4. what is left to pay is `owed` (a payment the caller records).
 * Refunds go back the way `refundMethod` names (the clerk's choice: a settlement that hands money
 * back refuses to go on without it), else the way the money came (a legacy client's check-out);
 * money taken from a customer's balance always goes back to that balance.
 */
export function planSettlement(lines: readonly LedgerLine[], decision: SettlementDecision): SettlementPlan {
  const facts = ledgerFacts(lines);
  const entries: PlannedEntry[] = [];
  let balance = facts.balance;
  const add = (entry: PlannedEntry) => {
    entries.push(entry);
    balance += entry.amount;
  };

  let posted = facts.roomChargePosted;
  const due = decision.roomChargeDue;
  const roomsBp = decision.taxes?.roomsAddedBp ?? null;
  if (posted > due) {
    for (const line of lines) {
      if (line.kind !== 'room_charge' || facts.correctedBy.has(line.id)) continue;
      add({ kind: 'correction', amount: -line.amount, method: null, linkedEntryId: line.id, note: decision.notes.roomChargeRecomputed });
      // The database corrects the taxes added on it with it (trigger OrderEntry_tax_added).
      for (const tax of lines) if (tax.taxedEntryId === line.id && !facts.correctedBy.has(tax.id)) balance -= tax.amount;
    }
    posted = 0;
  }
  if (due > posted) {
    const amount = -(due - posted);
    add({
      kind: 'room_charge',
      amount,
      method: null,
      linkedEntryId: null,
      note: posted > 0 || facts.roomChargePosted > 0 ? decision.notes.roomChargeRecomputed : '',
    });
    // And adds the tax on it, when a rate is added on top of room charges.
    if (roomsBp !== null) balance += addedTax(amount, roomsBp);
  }
  // The city tax of the nights used (an early departure gives the others back).
  if (decision.taxes?.cityTax) {
    const city = planCityTax(decision.taxes.cityTax.basis, due > 0 ? decision.taxes.cityTax.nights : []);
    for (const c of city.corrections) add({ kind: 'correction', amount: -c.amount, method: null, linkedEntryId: c.id, note: cityTaxNotes.recomputed() });
    if (city.charge) add({ kind: 'charge', method: null, linkedEntryId: null, note: cityTaxNotes.charge(city.charge.nights.length), ...city.charge });
  }

  const newestFirst = (kind: 'deposit' | 'payment') =>
    lines.filter((l) => l.kind === kind && (facts.refundable.get(l.id) ?? 0) > 0).sort((a, b) => b.id - a.id);
  let handedBack = 0;
  const refundFrom = (sources: LedgerLine[], amount: number, note: StoredText) => {
    let left = amount;
    for (const source of sources) {
      if (left <= 0) break;
      const take = Math.min(left, facts.refundable.get(source.id) ?? 0);
      if (take <= 0) continue;
      add({
        kind: 'refund',
        amount: -take,
        method: refundMethod(source, decision.refundMethod, 'cash'),
        linkedEntryId: source.id,
        note,
        customerId: source.customerId ?? null,
      });
      if (source.method !== 'balance') handedBack += take;
      left -= take;
    }
    return amount - left;
  };

  const held = facts.depositHeld;
  let depositRefunded = 0;
  let depositKept = 0;
  if (decision.deposit === 'keep' && held > 0) {
    add({ kind: 'charge', amount: -held, method: null, linkedEntryId: null, note: decision.notes.depositKept });
    depositKept = held;
  } else if (decision.deposit === 'refund' && held > 0 && balance > 0) {
    depositRefunded = refundFrom(newestFirst('deposit'), Math.min(held, balance), decision.notes.depositRefund);
  }
  let paymentsRefunded = 0;
  if (balance > 0) paymentsRefunded = refundFrom(newestFirst('payment'), balance, decision.notes.refund);
  return {
    entries,
    roomCharge: { posted: facts.roomChargePosted, due },
    deposit: { held, refunded: depositRefunded, kept: depositKept },
    refunded: depositRefunded + paymentsRefunded,
    handedBack,
    owed: balance < 0 ? -balance : 0,
    unreturnable: balance > 0 ? balance : 0,
  };
}
