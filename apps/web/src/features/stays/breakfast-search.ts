import { LOCAL_DATE_REGEX } from '../../lib/shared-constants';
import { optional, searchSchema, string } from '../../lib/url-search';

// The route (routes/_auth/room/breakfast.tsx) validates the URL with this before the page's chunk
// is loaded: it lives apart from the page so that the page stays out of the first download, and is
// written without zod (lib/url-search.ts) for the same reason.

/** `?date=YYYY-MM-DD` (a hotel date); without one, today in the hotel's zone. */
export const breakfastSearchSchema = searchSchema({
  date: optional(string({ pattern: LOCAL_DATE_REGEX, accept: (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) })),
});
