import { LIMITS } from '@console/shared';
import { LOCAL_DATE_REGEX } from '../../lib/shared-constants';
import { int, optional, searchSchema, string, text, withDefault } from '../../lib/url-search';

// The route (routes/_auth/unlock-records.tsx) validates the URL with this before the page's chunk
// is loaded: it lives apart from the page, without zod (lib/url-search.ts), for the first download.

/**
 * The search lives in the URL: a person's name, or one credential (`?credential=password:12`, so
 * that other screens can link to "records of this password"), a room, a period, the page.
 */
export const unlockRecordsSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  person: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
  credential: optional(string({ pattern: /^(password|face|card):[1-9]\d{0,9}$/ })),
  roomId: optional(int({ min: 1 })),
  from: optional(string({ pattern: LOCAL_DATE_REGEX })),
  to: optional(string({ pattern: LOCAL_DATE_REGEX })),
});

/** Values equal to these are left out of the URL. */
export const unlockRecordsSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, person: '' } as const;
