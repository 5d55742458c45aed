import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ORDERS_PAGE_SIZE, orderFilters, orderQueries, prefetchOrders, readBalanceSearch } from './api';

/** What the Balance route's loader asks for, with a URL's search: the query keys it ensures. */
function prefetched(raw: unknown): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchOrders(queryClient, raw);
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("the Balance route's loader", () => {
  it("starts the very query the orders tab asks for: the URL's filters and page", () => {
    const raw = { page: 2, stay: 12, kind: 'refund', method: 'cash', from: '2026-11-01', to: '2026-11-30' };
    const search = readBalanceSearch(raw);
    const page = orderQueries.list({ page: 2, pageSize: ORDERS_PAGE_SIZE, ...orderFilters(search) });
    expect(prefetched(raw)).toEqual([page.queryKey]);
    expect(JSON.stringify(page.queryKey)).toContain('"stayId":12');
  });

  it('asks for nothing on another tab, or for days the page will not send (an end before the start)', () => {
    expect(prefetched({ tab: 'cash' })).toEqual([]);
    expect(prefetched({ tab: 'customer', stay: 3 })).toEqual([]);
    expect(prefetched({ from: '2026-11-30', to: '2026-11-01' })).toEqual([]);
  });

  it('reads a URL it cannot take as the first page of every order', () => {
    expect(prefetched({ tab: 'orders', page: 0, kind: 'gift' })).toEqual([
      orderQueries.list({ page: 1, pageSize: ORDERS_PAGE_SIZE, ...orderFilters(readBalanceSearch({})) }).queryKey,
    ]);
  });
});
