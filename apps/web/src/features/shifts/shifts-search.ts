import { LIMITS } from '@console/shared';
import { int, optional, searchSchema, string, withDefault } from '../../lib/url-search';

// The page reads the URL with these (its route does not: the route's code is in every page's first
// download), as the other lists do.

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The shifts' page and the hotel days they were opened in: a reload or a shared link shows the same shifts. */
export const shiftsSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  from: optional(string({ pattern: LOCAL_DATE })),
  to: optional(string({ pattern: LOCAL_DATE })),
});

/** Values equal to these are left out of the URL. */
export const shiftsSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault } as const;
