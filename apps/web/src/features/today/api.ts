import { trpc } from '@/lib/trpc';

/**
 * The today board's api (issue 19 §5): its one query, the hotel's day at a glance. The board has no
 * mutations (its figures change with the stays and rooms, whose changes make `trpc.today` stale:
 * the stays feature's `invalidateStays`). The route's loader asks for it as the route starts
 * (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error as before).
 */
export const todayQueries = {
  /** The day's figures, refreshed every minute. */
  board: () => trpc.today.get.queryOptions(undefined, { refetchInterval: 60_000, meta: { showsErrors: true } }),
};
