import { LIMITS } from '@console/shared';
import { LOCAL_DATE_REGEX } from '../../lib/shared-constants';
import { int, optional, searchSchema, string, withDefault } from '../../lib/url-search';

// The page reads the URL with these (its route does not: the route's code is in every page's first
// download), as the other lists do.

/** The shifts' page and the hotel days they were opened in: a reload or a shared link shows the same shifts. */
export const shiftsSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  from: optional(string({ pattern: LOCAL_DATE_REGEX })),
  to: optional(string({ pattern: LOCAL_DATE_REGEX })),
});

/** Values equal to these are left out of the URL. */
export const shiftsSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault } as const;
