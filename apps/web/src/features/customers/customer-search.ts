import { z } from 'zod';
import { CUSTOMER_SORTS, CUSTOMER_STATES, LIMITS } from '@console/shared';

// The route (routes/_auth/customer/customer.tsx) validates the URL with these before the page's
// chunk is loaded: they live apart from the page so that the page stays out of the first download.

/** The list's filters live in the URL, so a reload or a shared link shows the same page. */
export const customerSearchSchema = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(LIMITS.pageSizeDefault).default(LIMITS.pageSizeDefault),
  // A search of digits comes back from the URL as a number: it is still text.
  search: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
  state: z.enum(CUSTOMER_STATES).catch('all').default('all'),
  sort: z.enum(CUSTOMER_SORTS).catch('newest').default('newest'),
  id: z.number().int().positive().optional().catch(undefined),
});

/** Values equal to these are left out of the URL. */
export const customerSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, search: '', state: 'all', sort: 'newest' } as const;
