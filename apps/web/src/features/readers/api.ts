import type { QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/**
 * The desk devices' api (issue 19 §5): the queries of the readers and dispensers pages, and what
 * each change makes stale. Mutations are the tRPC ones (`trpc.reader.*`, `trpc.dispenser.*`). The
 * routes' loaders ask for the lists as the route starts (`ensureQueryData`, not awaited: the page
 * shows its skeleton and its own load error as before).
 */
export const readerQueries = {
  /** The hotel's registered card readers with their bound accounts. */
  readers: () => trpc.reader.list.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The hotel's registered card dispensers. */
  dispensers: () => trpc.dispenser.list.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** The registered dispensers as a desk's status check reads them to find its own (the list without the page's meta). */
  knownDispensers: () => trpc.dispenser.list.queryOptions(),
  /** The hotel's members a reader can be bound to; asked only for those who manage the hotel. */
  staff: (enabled: boolean) => trpc.password.staff.queryOptions(undefined, { enabled, meta: { showsErrors: true } }),
};

/** A change of a reader (register, bind, unbind, rename, delete) makes every reader query stale. */
export const invalidateReaders = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.reader.pathKey() });
/** A change of a dispenser (add, rename, delete, a status check) makes every dispenser query stale. */
export const invalidateDispensers = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.dispenser.pathKey() });
/** A dispenser's status recorded: the dispenser list is asked again. */
export const invalidateDispenserList = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.dispenser.list.queryKey() });
