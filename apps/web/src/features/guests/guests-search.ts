import { LIMITS } from '@console/shared';
import { int, oneOf, searchSchema, text, withDefault } from '../../lib/url-search';

// The route (routes/_auth/room/guests.tsx) validates the URL with this before the page's chunk is
// loaded: it lives apart from the page, without zod (lib/url-search.ts), for the first download.

export const GUEST_SHOWS = ['all', 'current'] as const;

/** The guest list's search, filter and page live in the URL, so a reload or a shared link shows the same page. */
export const guestsSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  // A search of digits (a mobile, an ID number) comes back from the URL as a number: it is still text.
  search: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
  show: withDefault(oneOf(GUEST_SHOWS), 'all'),
});

/** Values equal to these are left out of the URL. */
export const guestsSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, search: '', show: 'all' } as const;
