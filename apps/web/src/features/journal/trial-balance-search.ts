import { LEDGER_ACCOUNTS, MONEY_METHODS } from '@console/shared';
import { LOCAL_DATE_REGEX } from '../../lib/shared-constants';
import { int, oneOf, optional, searchSchema, string, withDefault } from '../../lib/url-search';

// The page reads the URL with these (its route does not: the route's code is in every page's first
// download), as the reports do.

/**
 * The trial balance's day, and the row it drills down to (an account; for money, a way of paying
 * and a shift of it, `none` for its lines of no shift) with the page of its lines: a reload or a
 * shared link shows the same. No day: the hotel's today.
 */
export const trialBalanceSearchSchema = searchSchema({
  date: optional(string({ pattern: LOCAL_DATE_REGEX })),
  account: optional(oneOf(LEDGER_ACCOUNTS)),
  method: optional(oneOf(MONEY_METHODS)),
  shift: optional(string({ pattern: /^(none|[1-9]\d{0,9})$/ })),
  page: withDefault(int({ min: 1 }), 1),
});

/** Values equal to these are left out of the URL. */
export const trialBalanceSearchDefaults = { page: 1 } as const;
