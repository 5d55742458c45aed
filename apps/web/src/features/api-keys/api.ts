import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { LIMITS } from '@console/shared';
import { trpc } from '@/lib/trpc';

/**
 * The API keys' api (issue 19 §5): the key list's query, and what creating or revoking a key makes
 * stale. Mutations are the tRPC ones (`trpc.apiKey.*`). The route's loader asks for the first page
 * as the route starts (`ensureQueryData`, not awaited: the page shows its skeleton and its own load
 * error as before).
 */
export const apiKeyQueries = {
  /** A page of the hotel's API keys: the live ones, or all with the revoked and expired. */
  list: (input: ApiKeyListInput) => trpc.apiKey.list.queryOptions(input, { placeholderData: keepPreviousData, meta: { showsErrors: true } }),
};

/** What the page shows first: the first page of live keys, at the usual page size. */
export const FIRST_API_KEYS: ApiKeyListInput = { page: 1, pageSize: LIMITS.pageSizeDefault, all: false };

interface ApiKeyListInput {
  page: number;
  pageSize: number;
  all: boolean;
}

/** A key created or revoked: every key list is asked again. */
export const invalidateApiKeys = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.pathKey() });
