import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';

/**
 * The lock panel's api (issue 19 §5): the queries of a room's lock tab (its state, what it holds)
 * and of the room form's lock picker, and what a change of the lock makes stale. Mutations are the
 * tRPC ones (`trpc.lock.*`).
 */
/** Locks the picker shows a page. */
export const LOCK_PICKER_PAGE_SIZE = 20;

export const lockPanelQueries = {
  /** The room's lock as the provider last reported it. */
  status: (roomId: number) => trpc.lock.status.queryOptions({ roomId }, { meta: { showsErrors: true } }),
  /** What the lock holds, read live only when asked (a read goes to the lock cloud), never kept or retried. */
  contents: (roomId: number, isRequested: boolean) =>
    trpc.lock.contents.queryOptions({ roomId }, { enabled: isRequested, staleTime: 0, retry: false, meta: { showsErrors: true } }),
  /** A page of the hotel's unpaired locks as the lock picker searches them, asked for while it is open. */
  unpairedLocks: (search: string, isOpen: boolean) =>
    trpc.lock.list.queryOptions(
      { filter: 'unpaired', search: search || undefined, page: 1, pageSize: LOCK_PICKER_PAGE_SIZE },
      { enabled: isOpen, placeholderData: keepPreviousData, meta: { showsErrors: true } },
    ),
};

/** The room's lock changed as the server sees it: this panel, the page's heading, the board, the bell and the lock messages. */
export function invalidateRoomLock(queryClient: QueryClient, roomId: number): void {
  void queryClient.invalidateQueries({ queryKey: trpc.lock.status.queryKey({ roomId }) });
  void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.unreadMessages.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.messages.pathKey() });
}

/** The lock's state read afresh (and put in the panel's query): the board's lock marks and the bell follow. */
export function invalidateLockRefreshed(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.unreadMessages.pathKey() });
}
