import type * as shared from '@console/shared';
import { LIMITS } from '@console/shared';
import { int, oneOf, optional, searchSchema, text, withDefault } from '../../lib/url-search';

// The route (routes/_auth/lockAccounts.tsx) validates the URL with these before the page's chunk is
// loaded: they live apart from the page, without zod (lib/url-search.ts), for the first download.
// The filters are packages/shared's, checked by the compiler (`satisfies`) and the test beside this file.

/** Which of the hotel's locks the list shows (lock.list `filter`). */
export const LOCK_LIST_FILTERS = ['all', 'unpaired', 'paired', 'gone'] as const satisfies typeof shared.LOCK_LIST_FILTERS;
export type LockListFilter = (typeof LOCK_LIST_FILTERS)[number];

/** The lock list's filter, account, search and page live in the URL: a reload or a shared link shows the same locks. */
export const lockAccountsSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  filter: withDefault(oneOf(LOCK_LIST_FILTERS), 'all'),
  // Matched literally by the server; a lock id of digits comes back from the URL as a number: it is still text.
  search: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
  /** One lock account of the hotel (its id). */
  account: optional(int({ min: 1, max: LIMITS.idMax })),
});

/** Values equal to these are left out of the URL. */
export const lockAccountsSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, filter: 'all', search: '' } as const;
