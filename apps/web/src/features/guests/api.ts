import { keepPreviousData } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { guestsSearchSchema } from './guests-search';

/**
 * The guests' api (issue 19 §5): the guest list's query, its input read from the URL. The list has no
 * mutations of its own (a guest changes with their stay: the stays feature's). The route's loader
 * asks for the list as the route starts (`ensureQueryData`, not awaited: the page shows its skeleton
 * and its own load error as before).
 */
export const guestQueries = {
  /** A page of the guests of the hotel's stays, as `/room/guests`'s URL asks for them. */
  list: (search: SearchOf<typeof guestsSearchSchema>) =>
    trpc.stay.guests.queryOptions(
      { page: search.page, pageSize: search.pageSize, ...guestFilters(search) },
      { placeholderData: keepPreviousData, meta: { showsErrors: true } },
    ),
};

/** The list's filters, as the list and its export take them. */
export function guestFilters(search: SearchOf<typeof guestsSearchSchema>) {
  return { search: search.search || undefined, currentOnly: search.show === 'current' };
}
