import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { LIMITS } from '@console/shared';
import { handleApiError, isNetworkError } from './api-errors';
import { currentLanguage } from './language';
import type { AppRouter } from './trpc-types';

/** Every call sends the `language` header of spec §9 and gives up after 40 s. */
function timedFetch(url: URL | RequestInfo, init?: RequestInit) {
  const timeout = AbortSignal.timeout(LIMITS.httpTimeoutMs);
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  return fetch(url, { ...init, signal, credentials: 'same-origin' });
}

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    // The live feed (`event.feed`, lib/live-events.ts) is a stream of server-sent events; every other call is batched.
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: '/trpc' }),
      false: httpBatchLink({
        url: '/trpc',
        maxURLLength: 2000,
        headers: () => ({ language: currentLanguage().header }),
        fetch: timedFetch,
      }),
    }),
  ],
});

/** One error path for every query and mutation (spec §8); see api-errors.ts. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => handleApiError(error, query.meta) }),
  mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => handleApiError(error, mutation.meta) }),
  defaultOptions: {
    queries: { staleTime: 10_000, retry: (count, error) => isNetworkError(error) && count < 1, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
