import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { customerListInput, customerQueries, prefetchCustomers } from './api';
import { customerSearchSchema } from './customer-search';

/** The URL's search as the route reads it. */
function searchOf(raw: unknown) {
  const result = customerSearchSchema['~standard'].validate(raw);
  if (!('value' in result)) throw new Error('not a search');
  return result.value;
}

/** What the customers route's loader asks for, with a URL's search: the query keys it ensures. */
function prefetched(raw: unknown): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchCustomers(queryClient, searchOf(raw));
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("the customers route's loader", () => {
  it("starts the very query the list asks for: the URL's search, filters and page", () => {
    const raw = { page: 3, pageSize: 50, search: 'ann', state: 'frozen', sort: 'oldest' };
    const page = customerQueries.list(customerListInput(searchOf(raw)));
    expect(prefetched(raw)).toEqual([page.queryKey]);
    expect(JSON.stringify(page.queryKey)).toContain('"search":"ann"');
  });

  it("starts the drawer's customer too when the URL opens it, without changing the list's query", () => {
    const raw = { page: 2, id: 12 };
    expect(prefetched(raw)).toEqual([customerQueries.list(customerListInput(searchOf({ page: 2 }))).queryKey, customerQueries.detail(12).queryKey]);
  });

  it('sends no empty search: an empty box is every customer', () => {
    expect(prefetched({ search: '' })).toEqual([
      customerQueries.list({ page: 1, pageSize: searchOf({}).pageSize, search: undefined, state: 'all', sort: 'newest' }).queryKey,
    ]);
  });
});
