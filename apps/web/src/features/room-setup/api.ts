import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/**
 * The room setup's api (issue 19 §5): the queries of the room groups and price templates pages, and
 * what a change there makes stale. Mutations are the tRPC ones (`trpc.roomGroup.*`, `trpc.price.*`).
 * The routes' loaders ask for the list as the route starts (`ensureQueryData`, not awaited: the page
 * shows its skeleton and its own load error as before).
 */
export const roomSetupQueries = {
  /** The hotel's room groups, in the order the API gives them. */
  groups: () => trpc.roomGroup.list.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The hotel's price templates. */
  priceTemplates: () => trpc.price.templates.queryOptions(undefined, { meta: { showsErrors: true } }),
};

/** A group added, renamed, reordered or deleted: the groups, and the rooms (their group, the board's sections). */
export const invalidateRoomGroups = (queryClient: QueryClient) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() })]);

/** A template saved, deleted or applied: the templates and prices, and the rooms (the board shows prices). */
export const invalidatePriceTemplates = (queryClient: QueryClient) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: trpc.price.pathKey() }), queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() })]);
