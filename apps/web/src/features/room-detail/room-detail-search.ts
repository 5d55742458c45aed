import { oneOf, searchSchema, withDefault } from '../../lib/url-search';

// The route (routes/_auth/room/$roomId.tsx) validates the URL with this before the page's chunk
// is loaded: it lives apart from the page so that the page stays out of the first download, and is
// written without zod (lib/url-search.ts) for the same reason.

export const ROOM_DETAIL_TABS = ['stays', 'credentials', 'lock', 'unlock', 'settings', 'price', 'status'] as const;
export type RoomDetailTab = (typeof ROOM_DETAIL_TABS)[number];

/**
 * The open tab lives in the URL, so a reload or a shared link shows the same one. A link of before
 * issue 28 (`?tab=tenants`) opens the default tab, the stays: the same one.
 */
export const roomDetailSearchSchema = searchSchema({
  tab: withDefault(oneOf(ROOM_DETAIL_TABS), 'stays'),
});
