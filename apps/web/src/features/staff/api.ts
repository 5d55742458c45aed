import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { staffSearchSchema } from './staff-search';

/**
 * The staff's api (issue 19 §5): the staff list's query, and what a change of a member makes stale.
 * Mutations are the tRPC ones (`trpc.staff.*`). The route's loader asks for the URL's page as the
 * route starts (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error
 * as before).
 */
export const staffQueries = {
  /** A page of the hotel's members, with the URL's search. */
  list: (search: SearchOf<typeof staffSearchSchema>) =>
    trpc.staff.list.queryOptions(
      { page: search.page, pageSize: search.pageSize, search: search.search || undefined },
      { placeholderData: keepPreviousData, meta: { showsErrors: true } },
    ),
};

/** A member added, changed, frozen or removed: every staff query is asked again. */
export const invalidateStaff = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.staff.pathKey() });
