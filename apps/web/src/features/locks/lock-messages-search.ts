import { LIMITS } from '@console/shared';
import { int, oneOf, optional, searchSchema, withDefault } from '../../lib/url-search';

// The route (routes/_auth/lock-messages.tsx) validates the URL with these before the page's chunk
// is loaded: they live apart from the page, without zod (lib/url-search.ts), for the first download.

/** All messages, or the unread ones only. */
export const LOCK_MESSAGE_SHOWS = ['all', 'unread'] as const;
export type LockMessageShow = (typeof LOCK_MESSAGE_SHOWS)[number];

/** The list's filters and page live in the URL, so a reload or a shared link shows the same page. */
export const lockMessagesSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  show: withDefault(oneOf(LOCK_MESSAGE_SHOWS), 'all'),
  roomId: optional(int({ min: 1 })),
});

/** Values equal to these are left out of the URL. */
export const lockMessagesSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, show: 'all' } as const;
