import { z } from 'zod';
import { ZLocalDate } from './primitives';

/**
 * The journal (issue 36, docs/journal.md): every movement of money is an entry of lines over
 * accounts that sum to zero. The trial balance of a hotel's business date: for each account,
 * what it held before the day, the day's debits and credits, and what it holds after, with the
 * checks that the books tie.
 */

/** The journal's accounts; amounts are debits when positive, credits when negative. */
export const LEDGER_ACCOUNTS = ['guest', 'deposit', 'receivable', 'customer_balance', 'revenue_rooms', 'revenue_extras', 'money'] as const;
export const ZLedgerAccount = z.enum(LEDGER_ACCOUNTS);
export type TLedgerAccount = z.infer<typeof ZLedgerAccount>;

export const ZTrialBalanceInput = z.object({ date: ZLocalDate });
