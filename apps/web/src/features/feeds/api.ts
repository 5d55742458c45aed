import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/**
 * The calendar feeds' api (issue 19 §5): the queries of the calendar feeds page (the feeds, the
 * rooms and groups a feed is for, a room's export address), and what a change makes stale.
 * Mutations are the tRPC ones (`trpc.feed.*`). The route's loader asks for the feeds as the route
 * starts (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error as before).
 */
export const feedQueries = {
  /** The hotel's channel calendars with their state. */
  list: () => trpc.feed.list.queryOptions({}, { meta: { showsErrors: true } }),
  /** The hotel's rooms (the first 100), for a feed's target and the export's room. */
  rooms: () => trpc.room.list.queryOptions({ page: 1, pageSize: 100 }),
  /** The hotel's room groups, for a feed's target. */
  groups: () => trpc.roomGroup.list.queryOptions(),
  /** A room's export address; no room chosen asks for nothing. */
  exportUrl: (roomId: number | null) => trpc.feed.exportUrl.queryOptions({ roomId: roomId ?? 0 }, { enabled: roomId !== null }),
};

/** A feed added, changed, deleted or read: every feed query is asked again. */
export const invalidateFeeds = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.feed.pathKey() });
/** A room's export address made anew: the export addresses are asked again. */
export const invalidateExportUrls = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.feed.exportUrl.pathKey() });
