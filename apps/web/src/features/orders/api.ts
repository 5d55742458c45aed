import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import { balanceSearchSchema } from './balance-search';

/**
 * The orders' api (issue 19 §5): the Balance page's queries (the orders, a customer's balance, a
 * day's cash report), the orders' input read from the URL, and what a refund or a recharge makes
 * stale. Mutations are the tRPC ones (`trpc.order.*`). The route's loader asks for the orders as the
 * route starts (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error).
 */
export const orderQueries = {
  /** A page of the ledger's entries with the sums of all that match. */
  list: (input: OrderListInput) => trpc.order.list.queryOptions(input, { placeholderData: keepPreviousData, meta: { showsErrors: true } }),
  /** A customer's balance and entries, by mobile. */
  customerBalance: (mobile: string) => trpc.order.customerBalance.queryOptions({ mobile }, { meta: { showsErrors: true } }),
  /** A hotel date's cash report per operator and way of paying. */
  cashReport: (date: string) => trpc.order.cashReport.queryOptions({ date }, { meta: { showsErrors: true } }),
};

/** Orders shown a page. */
export const ORDERS_PAGE_SIZE = 20;

export type BalanceSearch = SearchOf<typeof balanceSearchSchema>;
type OrderListInput = ReturnType<typeof orderFilters> & { page: number; pageSize: number };

/** The tab, filters and page as the URL holds them (read by the page and its loader, not by the route's search validation: bench/bundle-size.ts). */
export function readBalanceSearch(raw: unknown): BalanceSearch {
  const result = balanceSearchSchema['~standard'].validate(raw);
  return 'value' in result ? result.value : readBalanceSearch({});
}

/** The orders' filters, as the list and its export take them. */
export function orderFilters(search: BalanceSearch) {
  return { stayId: search.stay, kinds: search.kind ? [search.kind] : undefined, method: search.method, from: search.from, to: search.to };
}

/**
 * The Balance route's loader (imported when the route starts, with the page): the orders of the URL's
 * filters and page, when the orders tab is open and its days can be sent.
 */
export function prefetchOrders(queryClient: QueryClient, raw: unknown): void {
  const search = readBalanceSearch(raw);
  if (search.tab !== 'orders' || (search.from && search.to && search.from > search.to)) return;
  void queryClient.ensureQueryData(orderQueries.list({ page: search.page, pageSize: ORDERS_PAGE_SIZE, ...orderFilters(search) })).catch(() => undefined);
}

/** A refund or a recharge makes every order query stale (the list, the sums, balances, the cash report). */
export const invalidateOrders = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.order.pathKey() });
