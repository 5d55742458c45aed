import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { lockMessagesSearchSchema } from './lock-messages-search';

/**
 * The locks' api (issue 19 §5): the lock messages' queries (the list, the room it is filtered to),
 * their input read from the URL, and what marking or deleting messages makes stale. Mutations are
 * the tRPC ones (`trpc.lock.*`). The route's loader asks for the list as the route starts
 * (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error as before).
 */
export const lockQueries = {
  /** A page of the locks' alarms and notices, with the unread count. */
  messages: (search: SearchOf<typeof lockMessagesSearchSchema>) =>
    trpc.lock.messages.queryOptions(
      { page: search.page, pageSize: search.pageSize, roomId: search.roomId, unreadOnly: search.show === 'unread' },
      { placeholderData: keepPreviousData, meta: { showsErrors: true } },
    ),
  /** The room the list is filtered to, named from the URL's id (a reload, a shared link); a room gone is no error shown. */
  filterRoom: (roomId: number | undefined) =>
    trpc.room.get.queryOptions({ id: roomId ?? 0 }, { enabled: roomId !== undefined, staleTime: 60_000, meta: { handledCodes: ['NOT_FOUND'] } }),
};

/** The route's loader: the URL's page of messages, and the room it is filtered to (when it is). */
export function prefetchLockMessages(queryClient: QueryClient, search: SearchOf<typeof lockMessagesSearchSchema>): void {
  void queryClient.ensureQueryData(lockQueries.messages(search)).catch(() => undefined);
  if (search.roomId !== undefined) void queryClient.ensureQueryData(lockQueries.filterRoom(search.roomId)).catch(() => undefined);
}

/** A message marked read or deleted: the list and the navbar's unread count follow. */
export function invalidateLockMessages(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.lock.messages.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.unreadMessages.pathKey() });
}
