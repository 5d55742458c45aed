import { keepPreviousData } from '@tanstack/react-query';
import { SEARCH_GROUP_LIMIT } from '@console/shared';
import { trpc } from '@/lib/trpc';

/**
 * The search box's api (issue 28 §3): one query, the text as typed (once it has stopped changing).
 * The previous answer stays on screen while the next one comes; a failure is shown in the box.
 */
export const searchQueries = {
  query: (text: string) =>
    trpc.search.query.queryOptions(
      { text, limit: SEARCH_GROUP_LIMIT.default },
      // The box says what went wrong itself (search-dialog.tsx): no toast besides.
      { placeholderData: keepPreviousData, staleTime: 15_000, retry: false, meta: { showsErrors: true } },
    ),
};
