import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { customerSearchSchema } from './customer-search';

/**
 * The customers' api (issue 19 §5): the customer list's and a customer's queries, the list's input
 * read from the URL, and what freezing, unfreezing or deleting a customer makes stale. Mutations are
 * the tRPC ones (`trpc.customer.*`). The route's loader asks for the list (and the customer whose
 * drawer the URL opens) as the route starts (`ensureQueryData`, not awaited: the page shows its
 * skeleton and its own load error as before).
 */
export const customerQueries = {
  /** A page of the hotel's customers. */
  list: (input: CustomerListInput) => trpc.customer.list.queryOptions(input, { placeholderData: keepPreviousData, meta: { showsErrors: true } }),
  /** A customer's details for the drawer (undefined: the drawer is closed, nothing is asked for). */
  detail: (customerId: number | undefined) =>
    trpc.customer.get.queryOptions({ id: customerId ?? 0 }, { enabled: customerId !== undefined, meta: { showsErrors: true } }),
};

type CustomerSearch = SearchOf<typeof customerSearchSchema>;
type CustomerListInput = ReturnType<typeof customerListInput>;

/** The list's input as `/customer/customer`'s URL holds it. */
export function customerListInput(search: CustomerSearch) {
  return { page: search.page, pageSize: search.pageSize, search: search.search || undefined, state: search.state, sort: search.sort };
}

/** The customers route's loader: the list of the URL's filters and page, and the customer whose drawer the URL opens. */
export function prefetchCustomers(queryClient: QueryClient, search: CustomerSearch): void {
  void queryClient.ensureQueryData(customerQueries.list(customerListInput(search))).catch(() => undefined);
  if (search.id !== undefined) void queryClient.ensureQueryData(customerQueries.detail(search.id)).catch(() => undefined);
}

/** A customer frozen, unfrozen or deleted: every customer query (the list, a customer's details) is stale. */
export const invalidateCustomers = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.customer.pathKey() });
