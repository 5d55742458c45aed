import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { lockAccountsSearchSchema } from './lock-accounts-search';

/**
 * The lock accounts' api (issue 19 §5): the queries of the lock accounts page (the accounts, the
 * hotel's locks, the rooms a lock can be paired with), and what each change makes stale. Mutations
 * are the tRPC ones (`trpc.lockAccount.*`, `trpc.lock.pair`). The route's loader asks for the
 * accounts as the route starts (`ensureQueryData`, not awaited: the page shows its skeleton and its
 * own load error as before).
 */
export const lockAccountQueries = {
  /** The install's lock cloud, the hotel's lock accounts and its card-number order. */
  accounts: () => trpc.lockAccount.list.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** A page of the hotel's locks, with the URL's filter, search and account. */
  locks: (search: SearchOf<typeof lockAccountsSearchSchema>) =>
    trpc.lock.list.queryOptions(
      { page: search.page, pageSize: search.pageSize, filter: search.filter, search: search.search || undefined, accountId: search.account },
      { placeholderData: keepPreviousData, meta: { showsErrors: true } },
    ),
  /** Whether the owner completed Seam's page to link a lock brand's account: asked every 3 s while it is pending. */
  seamLinkState: (accountId: number, linkId: string | undefined) =>
    trpc.lockAccount.seamLinkState.queryOptions(
      { accountId, linkId: linkId ?? '-' },
      { enabled: linkId !== undefined, refetchInterval: (query) => (query.state.data?.state === 'pending' ? 3_000 : false), meta: { showsErrors: true } },
    ),
  /** The actor's rooms a lock can be paired with, searched by name; asked while the picker is open. */
  pairableRooms: (search: string, isOpen: boolean) =>
    trpc.lock.pairableRooms.queryOptions({ search: search || undefined }, { enabled: isOpen, placeholderData: keepPreviousData, meta: { showsErrors: true } }),
};

/** After any change of an account: the accounts, and the locks (their account's state, counts). */
export function invalidateLockAccounts(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.lockAccount.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.pathKey() });
}

/** After locks were got or paired: the accounts, the locks and the rooms (their lock). */
export function invalidateLocksAndRooms(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.lockAccount.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
}

/** The hotel's card-number order saved: the accounts' answer, which holds it, is asked again. */
export const invalidateLockAccountList = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.lockAccount.list.queryKey() });

/**
 * The lock accounts route's loader: the accounts, then, when the page will show the hotel's locks
 * (a lock cloud is set and the hotel has an account), the locks of the URL's filters and page.
 */
export function prefetchLockAccounts(queryClient: QueryClient, search: SearchOf<typeof lockAccountsSearchSchema>): void {
  void queryClient
    .ensureQueryData(lockAccountQueries.accounts())
    .then((data) => {
      if (data.region !== null && data.items.length > 0) return queryClient.ensureQueryData(lockAccountQueries.locks(search));
    })
    .catch(() => undefined);
}
