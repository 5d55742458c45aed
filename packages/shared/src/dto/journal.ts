import { z } from 'zod';
import { ZLedgerAccount } from '../journal';
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

export const ZTrialBalance = z.object({
  date: ZLocalDate,
  currency: z.string(),
  rows: z.array(ZTrialBalanceRow),
  totals: ZTrialBalanceRow.omit({ account: true }),
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
});
export type TTrialBalance = z.infer<typeof ZTrialBalance>;
