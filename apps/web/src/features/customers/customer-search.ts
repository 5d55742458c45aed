import { LIMITS } from '@console/shared';
import { CUSTOMER_SORTS, CUSTOMER_STATES } from '../../lib/shared-constants';
import { int, oneOf, optional, searchSchema, text, withDefault } from '../../lib/url-search';

// The route (routes/_auth/customer/customer.tsx) validates the URL with these before the page's
// chunk is loaded: they live apart from the page so that the page stays out of the first download,
// and are written without zod (lib/url-search.ts) for the same reason.

/** The list's filters live in the URL, so a reload or a shared link shows the same page. */
export const customerSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  // A search of digits comes back from the URL as a number: it is still text.
  search: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
  state: withDefault(oneOf(CUSTOMER_STATES), 'all'),
  sort: withDefault(oneOf(CUSTOMER_SORTS), 'newest'),
  id: optional(int({ min: 1 })),
});

/** Values equal to these are left out of the URL. */
export const customerSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, search: '', state: 'all', sort: 'newest' } as const;
