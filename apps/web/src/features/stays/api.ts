import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import { readUserInfo } from '@/lib/user-info';
import type { SearchOf } from '@/lib/url-search';
import type { tenantSearchSchema } from './stay-list-search';

/**
 * The stays' api (issue 19 §5): the queries of the stay list, the breakfast list and the guest page,
 * and what a change of a stay or of its bill makes stale. Mutations are the tRPC ones
 * (`trpc.stay.*`, `trpc.order.*` for the bill). The routes' loaders ask for the page's list as the
 * route starts (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error
 * as before). Kept free of zod and of packages/shared's runtime: the routes are in the first download.
 */
export const stayQueries = {
  /** A page of the hotel's stays (`/room/tenant`, a room's stays tab). */
  list: (input: StayListInput) => trpc.stay.list.queryOptions(input, { placeholderData: keepPreviousData, meta: { showsErrors: true } }),
  /** The stays with breakfast on the morning of a hotel date. */
  breakfast: (date: string) => trpc.stay.breakfast.queryOptions({ date }, { meta: { showsErrors: true } }),
  /** A guest with their stays (`/room/thetouristsDetails`); 0 (no guest in the URL) asks for nothing. */
  guest: (guestId: number) =>
    trpc.stay.guest.queryOptions({ guestId: guestId > 0 ? guestId : 1 }, { enabled: guestId > 0, meta: { handledCodes: ['NOT_FOUND'], showsErrors: true } }),
};

export interface StayListInput {
  page: number;
  pageSize: number;
  state?: SearchOf<typeof tenantSearchSchema>['state'];
  from?: string;
  to?: string;
  roomId?: number;
  guest?: string;
}

/** The stay list's input as `/room/tenant`'s URL holds it. */
export function stayListInput(search: SearchOf<typeof tenantSearchSchema>): StayListInput {
  return {
    page: search.page,
    pageSize: search.pageSize,
    state: search.state,
    from: search.from,
    to: search.to,
    roomId: search.roomId,
    guest: search.guest || undefined,
  };
}

/** Today in the hotel's zone (`YYYY-MM-DD`), as the breakfast page takes it when its URL has no date. */
export function hotelToday(): string {
  const timeZone = readUserInfo()?.hotel.timeZone ?? 'UTC';
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

/** After any change of a stay, the room board, the room details, the stay lists and the today board are reloaded. */
export async function invalidateStays(queryClient: QueryClient): Promise<void> {
  await Promise.all([trpc.room, trpc.stay, trpc.today].map((router) => queryClient.invalidateQueries({ queryKey: router.pathKey() })));
}

/** After money was recorded or a bill settled: the bill, the order list and the cash report, and the board's "due" mark, the stay lists and the today board. */
export async function invalidateStayMoney(queryClient: QueryClient): Promise<void> {
  await Promise.all([trpc.order, trpc.room, trpc.stay, trpc.today].map((router) => queryClient.invalidateQueries({ queryKey: router.pathKey() })));
}

/** A stay's keys moved or changed (a room change, a renewal): every credential list follows the locks. */
export function invalidateStayKeys(queryClient: QueryClient): void {
  for (const router of [trpc.password, trpc.face, trpc.card]) void queryClient.invalidateQueries({ queryKey: router.pathKey() });
}
