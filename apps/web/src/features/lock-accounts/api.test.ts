import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { lockAccountQueries, prefetchLockAccounts } from './api';
import { lockAccountsSearchSchema } from './lock-accounts-search';

/** The URL's search as the route validates it. */
function searchOf(raw: Record<string, unknown>) {
  const result = lockAccountsSearchSchema['~standard'].validate(raw);
  if (!('value' in result)) throw new Error('search not taken');
  return result.value;
}

/** What the lock accounts route's loader asks for, the accounts being `accounts`: the query keys it ensures. */
async function prefetched(raw: Record<string, unknown>, accounts: { region: string | null; items: unknown[] }): Promise<unknown[]> {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(accounts as never);
  prefetchLockAccounts(queryClient, searchOf(raw));
  await vi.waitFor(() => expect(ensure).toHaveBeenCalled());
  await new Promise((resolve) => setTimeout(resolve, 0));
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("the lock accounts route's loader", () => {
  it("asks for the accounts, then the very page of locks the page asks for: the URL's filter, search, account and page", async () => {
    const raw = { page: 2, filter: 'unpaired', search: 'Door', account: 3 };
    const locks = lockAccountQueries.locks(searchOf(raw)).queryKey;
    expect(await prefetched(raw, { region: 'cn', items: [{ id: 3 }] })).toEqual([lockAccountQueries.accounts().queryKey, locks]);
    expect(JSON.stringify(locks)).toContain('"accountId":3');
  });

  it('asks for no locks when the page lists none: no lock cloud set, or no account', async () => {
    expect(await prefetched({}, { region: null, items: [{ id: 3 }] })).toEqual([lockAccountQueries.accounts().queryKey]);
    expect(await prefetched({}, { region: 'cn', items: [] })).toEqual([lockAccountQueries.accounts().queryKey]);
  });
});
