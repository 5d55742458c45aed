import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { lockMessagesSearchSchema } from './lock-messages-search';

/**
 * The locks' api (issue 19 §5): the lock messages' queries, their input read from the URL, and
 * what marking or deleting messages makes stale. Mutations are the tRPC ones (`trpc.lock.*`). The
 * route's loader asks for the list as the route starts (`ensureQueryData`, not awaited: the page
 * shows its skeleton and its own load error as before).
 */
export const lockQueries = {
  /** A page of the locks' alarms and notices, with the unread count. */
  messages: (search: SearchOf<typeof lockMessagesSearchSchema>) =>
    trpc.lock.messages.queryOptions(
      { page: search.page, pageSize: search.pageSize, roomId: search.roomId, unreadOnly: search.show === 'unread' },
      { placeholderData: keepPreviousData, meta: { showsErrors: true } },
    ),
};

/** A message marked read or deleted: the list and the navbar's unread count follow. */
export function invalidateLockMessages(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.lock.messages.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.unreadMessages.pathKey() });
}
