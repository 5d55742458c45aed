import { LIMITS } from '@console/shared';
import { LOCAL_DATE_REGEX, STAY_FILTERS } from '../../lib/shared-constants';
import { int, oneOf, optional, searchSchema, string, text, withDefault } from '../../lib/url-search';

// The route (routes/_auth/room/tenant.tsx) validates the URL with these before the page's chunk
// is loaded: they live apart from the page so that the page stays out of the first download, and
// are written without zod (lib/url-search.ts) for the same reason.

/** A calendar date of the hotel (`YYYY-MM-DD`) kept in the URL; anything else is dropped. */
const urlDate = () => optional(string({ pattern: LOCAL_DATE_REGEX, accept: (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) }));

/** The list's filters live in the URL, so a reload or a shared link shows the same page. */
export const stayListSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  state: withDefault(oneOf(STAY_FILTERS), 'all'),
  from: urlDate(),
  to: urlDate(),
  roomId: optional(int({ min: 1 })),
  // A search of digits (a mobile, an ID number) comes back from the URL as a number: it is still text.
  guest: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
});

/** Values equal to these are left out of the URL. */
export const stayListSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, state: 'all', guest: '' } as const;
