import { trpc } from '@/lib/trpc';

/** The unread count in the navbar is asked for again this often, and when the window gets the focus back. */
const UNREAD_REFRESH_MS = 30_000;

/**
 * The layout's api (issue 19 §5): the queries of the frame around every page (the user info, the
 * hotels to switch to, the lock provider's badge, the bell's unread count). Mutations are the tRPC
 * ones (`trpc.auth.switchHotel`).
 */
export const layoutQueries = {
  /** The signed-in user's info, refreshed at most every minute; a failure shows no error of its own. */
  me: () => trpc.auth.me.queryOptions(undefined, { staleTime: 60_000, meta: { showsErrors: true } }),
  /** The hotels of the signed-in account, asked each time the menu opens. */
  hotels: () => trpc.auth.hotels.queryOptions(undefined, { staleTime: 0 }),
  /** Which lock provider the server uses (it does not change while it runs). */
  lockProvider: () => trpc.lock.provider.queryOptions(undefined, { staleTime: Infinity, meta: { showsErrors: true } }),
  /** How many lock messages are unread, asked again every 30 s and when the window gets the focus. */
  unreadLockMessages: () =>
    trpc.lock.unreadMessages.queryOptions(undefined, { refetchInterval: UNREAD_REFRESH_MS, refetchOnWindowFocus: true, meta: { showsErrors: true } }),
};
