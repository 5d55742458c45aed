import { LIMITS } from '@console/shared';
import { int, searchSchema, text, withDefault } from '../../lib/url-search';

// The route (routes/_auth/staff.tsx) validates the URL with this before the page's chunk is
// loaded: it lives apart from the page, without zod (lib/url-search.ts), for the first download.

/** The staff list's search and page live in the URL, so a reload or a shared link shows the same page. */
export const staffSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  // A search of digits (a mobile number) comes back from the URL as a number: it is still text.
  search: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
});

/** Values equal to these are left out of the URL. */
export const staffSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, search: '' } as const;
