import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { IN_FLIGHT_REFETCH_MS, isInFlight } from '@/lib/credentials';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { cardListSearchSchema } from './admin/card-admin-search';

/**
 * The cards' api (issue 19 §5): the queries of the card lists and of the card keys page, and what a
 * change of a card or of the keys makes stale. Mutations are the tRPC ones (`trpc.card.*`). The
 * routes' loaders ask for the page's data as the route starts (`ensureQueryData`, not awaited: the
 * page shows its skeleton and its own load error as before).
 */
export const cardQueries = {
  /** A page of the hotel's management or universal cards, followed while a card is being taken off its locks. */
  adminList: (kind: 'management' | 'universal', search: SearchOf<typeof cardListSearchSchema>) =>
    trpc.card.list.queryOptions(
      { kind, scope: search.scope, page: search.page, pageSize: search.pageSize, search: search.search || undefined },
      {
        placeholderData: keepPreviousData,
        meta: { showsErrors: true },
        // A card being taken off its locks: followed until every lock has it on its denylist.
        refetchInterval: (q) => (q.state.data?.items.some((c) => c.grants.some((g) => isInFlight(g.deliveryState))) ? IN_FLIGHT_REFETCH_MS : false),
      },
    ),
  /** The hotel's card key sets (never their keys). */
  keySets: () => trpc.card.keySets.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** Each lock's state with the hotel's card keys, followed while keys are on their way. */
  keyStates: () =>
    trpc.card.keyStates.queryOptions(undefined, {
      meta: { showsErrors: true },
      refetchInterval: (q) => (q.state.data?.some((s) => s.deliveryState !== 'never' && isInFlight(s.deliveryState)) ? IN_FLIGHT_REFETCH_MS : false),
    }),
};

/** A card issued, written, returned, revoked or lost, or a key set created or deleted: every card query is stale. */
export const invalidateCards = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.card.pathKey() });
/** Keys sent to the locks: the key sets' lock counts change. */
export const invalidateKeySets = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.card.keySets.queryKey() });
