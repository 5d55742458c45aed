import { z } from 'zod';
import { ACCOUNT_CODE_KEYS, TAX_MODES, ZLedgerAccount } from '../journal';
import { MONEY_METHODS } from '../money';
import { ORDER_ENTRY_KINDS } from '../orders';
import { ZLocalDate } from '../primitives';

/** The trial balance of a business date (docs/journal.md). */
const ZMoney = z.number().int();

export const ZTrialBalanceRow = z.object({
  account: ZLedgerAccount,
  opening: ZMoney,
  debits: ZMoney,
  /** The day's credits, as a negative amount. */
  credits: ZMoney,
  closing: ZMoney,
});

const ZFigures = ZTrialBalanceRow.omit({ account: true });

/** A cashier shift as the trial balance names it: whose drawer, since when. */
export const ZJournalShift = z.object({ id: z.number().int(), cashier: z.string(), openedAt: z.string(), closedAt: z.string().nullable() });

/**
 * The money account of one way of paying: its figures, and the day's cashier shifts with their own
 * (a shift with a movement that day, or `shift` null for the way's lines of no shift); `others`
 * holds the rest (shifts of earlier days without a movement that day), so the parts sum to the way.
 */
export const ZTrialBalanceMoneyRow = ZFigures.extend({
  method: z.enum(MONEY_METHODS),
  shifts: z.array(ZFigures.extend({ shift: ZJournalShift.nullable() })),
  others: ZFigures,
});

/** A folio whose ledgers in the journal differ from its bill: what each says (debits positive, as the journal), and where it is. */
export const ZFolioOff = z.object({
  folioId: z.number().int(),
  /** The ledgers' sum in the journal. */
  journal: ZMoney,
  /** What the bill's entries say the ledgers should hold (the opposite of the bill's balance). */
  bill: ZMoney,
  stayId: z.number().int().nullable(),
  roomName: z.string().nullable(),
  guestId: z.number().int().nullable(),
  guestName: z.string().nullable(),
});

/** A customer whose balance in the journal differs from the one their entries give (both as money owed to them, positive). */
export const ZCustomerOff = z.object({ customerId: z.number().int(), name: z.string(), journal: ZMoney, entries: ZMoney });

export const ZTrialBalance = z.object({
  date: ZLocalDate,
  currency: z.string(),
  rows: z.array(ZTrialBalanceRow),
  totals: ZFigures,
  /** Room revenue booked for the night of this date, whenever it was posted. */
  roomRevenueOfNight: ZMoney,
  checks: z.object({
    /** Every account's closing summed is zero (every entry balances). */
    balanced: z.boolean(),
    /** Folios whose ledgers in the journal differ from the sum of their bill's entries at the day's end. */
    foliosOff: z.array(z.number().int()),
    /** Customers whose balance in the journal differs from the one their entries give. */
    customersOff: z.array(z.number().int()),
  }),
  /** All three checks hold. */
  ties: z.boolean(),
  /** The money account per way of paying and cashier shift. */
  money: z.array(ZTrialBalanceMoneyRow),
  /** The folios and customers of the checks, with what is off (the first 50 of each). */
  offFolios: z.array(ZFolioOff),
  offCustomers: z.array(ZCustomerOff),
  /** The day is closed (its report frozen). */
  closed: z.boolean(),
});
export type TTrialBalance = z.infer<typeof ZTrialBalance>;
export type TTrialBalanceMoneyRow = z.infer<typeof ZTrialBalanceMoneyRow>;

/** A journal line of the drill-down: the line, its entry, and what the entry was for. */
export const ZJournalLine = z.object({
  id: z.number().int(),
  entryId: z.number().int(),
  /** `order` (an order entry's posting), `deposit_to_guest`, `guest_to_receivable`. */
  source: z.string(),
  postedAt: z.string(),
  /** Debit positive, credit negative. */
  amount: ZMoney,
  method: z.enum(MONEY_METHODS).nullable(),
  shift: ZJournalShift.nullable(),
  serviceDate: z.string().nullable(),
  folioId: z.number().int().nullable(),
  stayId: z.number().int().nullable(),
  roomName: z.string().nullable(),
  guestId: z.number().int().nullable(),
  guestName: z.string().nullable(),
  customerId: z.number().int().nullable(),
  customerName: z.string().nullable(),
  /** The order entry it posts (null for a balance moved between a folio's ledgers). */
  order: z
    .object({ id: z.number().int(), kind: z.enum(ORDER_ENTRY_KINDS), method: z.string().nullable(), note: z.string(), operator: z.string().nullable() })
    .nullable(),
});
export type TJournalLine = z.infer<typeof ZJournalLine>;

export const ZJournalLinesOutput = z.object({
  items: z.array(ZJournalLine),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The sums of every line of the filter (not only the page's). */
  debits: ZMoney,
  credits: ZMoney,
});
export type TJournalLinesOutput = z.infer<typeof ZJournalLinesOutput>;

/** The hotel's chart-of-accounts codes. */
export const ZAccountCodes = z.object({
  codes: z.array(z.object({ key: z.enum(ACCOUNT_CODE_KEYS), code: z.string() })),
  /** When a code was last set (null: never). */
  updatedAt: z.string().nullable(),
});
export type TAccountCodes = z.infer<typeof ZAccountCodes>;

/** The tax rates in force now, per kind of revenue (null: none), included in the price or added, and since when; the city tax per person and night. */
const ZTaxRate = z.object({ ratePercent: z.number(), mode: z.enum(TAX_MODES), since: z.string() });
export const ZTaxRules = z.object({
  rooms: ZTaxRate.nullable(),
  extras: ZTaxRate.nullable(),
  city: z.object({ amountPerNight: z.number().int(), since: z.string() }).nullable(),
});
export type TTaxRules = z.infer<typeof ZTaxRules>;
