import { keepPreviousData, skipToken, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { refetchWhileInFlight } from '@/lib/credentials';
import { trpc } from '@/lib/trpc';
import type { RouterInputs, RouterOutputs } from '@/lib/trpc-types';
import { readUserInfo } from '@/lib/user-info';
import type { SearchOf } from '@/lib/url-search';
import type { stayListSearchSchema } from './stay-list-search';

/**
 * The stays' api (issue 19 §5): the queries of the stay list, the breakfast list and the guest page,
 * of a stay's card (its bill, credentials, cards, key page and messages) and of the stay dialogs, and
 * what a change of a stay or of its bill makes stale. Mutations are the tRPC ones
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
  /** A stay as it is now (never from the cache): its state decides what an action on it does. */
  current: (stayId: number) => trpc.stay.get.queryOptions({ stayId }, { staleTime: 0 }),
  /** The room the stay list is filtered on, named from the URL's id (undefined: none). */
  filterRoom: (roomId: number | undefined) =>
    trpc.room.get.queryOptions({ id: roomId ?? 0 }, { enabled: roomId !== undefined, staleTime: 60_000, meta: { handledCodes: ['NOT_FOUND'] } }),
  /** A room as it is now (a board loaded a while ago may be stale), for the check-in's dirty-room notice. */
  roomNow: (roomId: number) => trpc.room.get.queryOptions({ id: roomId }, { staleTime: 0, meta: { showsErrors: true } }),
  /** The room a stay is moving to (undefined: none chosen yet). */
  moveTarget: (roomId: number | undefined) => trpc.room.get.queryOptions({ id: roomId ?? 0 }, { enabled: roomId !== undefined }),
  /** What the guest of a stay holds now (passwords, cards, faces). */
  keys: (stayId: number) => trpc.stay.keys.queryOptions({ stayId }),
  /** A stay's bill (its folio). */
  folio: (stayId: number) => trpc.order.folio.queryOptions({ stayId }),
  /** A stay's bill as it is now, asked for before the check-out's prompt (which says its failures). */
  checkOutFolio: (stayId: number, enabled: boolean) => trpc.order.folio.queryOptions({ stayId }, { enabled, staleTime: 0, meta: { showsErrors: true } }),
  /** The balance of the member who pays with it (the field says a mobile that names nobody). */
  payerBalance: (mobile: string, enabled: boolean) => trpc.order.customerBalance.queryOptions({ mobile }, { enabled, retry: false }),
  /** The hotel's default check-in and check-out times for the stay forms (the database's defaults if they cannot be read). */
  hotelClock: () => trpc.hotel.info.queryOptions(undefined, { staleTime: 60_000, retry: 1 }),
  /** The hotel's default times for a new reservation, while its dialog is open. */
  reservationTimes: (enabled: boolean) => trpc.hotel.info.queryOptions(undefined, { enabled, staleTime: 300_000 }),
  /** What "change dates" would do (nights, price, the bill's room charge, a room taken named: shown in the dialog); null asks for nothing. */
  reschedulePreview: (input: RouterInputs['stay']['reschedulePreview'] | null) =>
    trpc.stay.reschedulePreview.queryOptions(input ?? skipToken, { retry: false, placeholderData: keepPreviousData, meta: { showsErrors: true } }),
  /** The pricing function's quote of a stay's times; null asks for nothing (times not valid, or still changing). */
  priceQuote: (input: RouterInputs['price']['quote'] | null) =>
    trpc.price.quote.queryOptions(input ?? skipToken, { placeholderData: keepPreviousData, staleTime: 60_000, meta: { handledCodes: ['VALIDATION'] } }),
  /** The faces of the face database found by the main guest's mobile or ID number; null asks for nothing. */
  guestFaces: (keys: RouterInputs['face']['ofGuest'] | null) =>
    trpc.face.ofGuest.queryOptions(keys ?? { mobile: '' }, { enabled: keys !== null, staleTime: 30_000 }),
  /** Whether a room has room cards in use, when cards are asked for at check-in. */
  roomCardsInUse: (roomId: number, enabled: boolean) =>
    trpc.card.list.queryOptions({ roomId, kind: 'room', scope: 'active', page: 1, pageSize: 1 }, { enabled, staleTime: 30_000, meta: { showsErrors: true } }),
  /** The stay's active passwords as its card shows them (followed while in flight); the message log watches the same query. */
  passwords: (stayId: number) =>
    trpc.password.list.queryOptions(
      { stayId, scope: 'active', page: 1, pageSize: STAY_CARD_SHOWN },
      { refetchInterval: refetchWhileInFlight, meta: { showsErrors: true } },
    ),
  /** The stay's active face authorisations as its card shows them (followed while in flight). */
  faces: (stayId: number) =>
    trpc.face.authorizations.queryOptions(
      { stayId, scope: 'active', page: 1, pageSize: STAY_CARD_SHOWN },
      { refetchInterval: refetchWhileInFlight, meta: { showsErrors: true } },
    ),
  /** The stay's room cards in use as its card shows them. */
  cards: (stayId: number) => trpc.card.list.queryOptions({ stayId, scope: 'active', page: 1, pageSize: STAY_CARD_SHOWN }, { meta: { showsErrors: true } }),
  /** The guest's key page link of a stay, for those who manage it. */
  keyPage: (stayId: number, enabled: boolean) => trpc.keyPage.get.queryOptions({ stayId }, { enabled, meta: { showsErrors: true } }),
  /**
   * The messages a stay's guest was sent, followed while one is on its way (queued, being sent; held
   * by the hotel's e-mail limit: every minute) or while `awaitsMessages`
   * says that a code was confirmed a moment ago and its messages have not come yet.
   */
  messages: (stayId: number, awaitsMessages: (log: StayMessageLog | undefined) => boolean) =>
    trpc.guestMessage.log.queryOptions(
      { stayId },
      {
        refetchInterval: (query) =>
          query.state.data?.some((m) => m.state === 'queued' || m.state === 'sending') || awaitsMessages(query.state.data)
            ? MESSAGES_REFETCH_MS
            : // A message held by the hotel's hourly e-mail limit goes out later: looked at now and then.
              query.state.data?.some((m) => m.state === 'held')
              ? HELD_REFETCH_MS
              : false,
        meta: { showsErrors: true },
      },
    ),
};

/** A stay's card shows this many of its passwords, faces and cards; the rest are on the room's Credentials tab. */
export const STAY_CARD_SHOWN = 10;
const MESSAGES_REFETCH_MS = 2_000;
const HELD_REFETCH_MS = 60_000;

type StayMessageLog = RouterOutputs['guestMessage']['log'];

export interface StayListInput {
  page: number;
  pageSize: number;
  state?: SearchOf<typeof stayListSearchSchema>['state'];
  from?: string;
  to?: string;
  roomId?: number;
  guest?: string;
}

/** The stay list's input as `/room/tenant`'s URL holds it. */
export function stayListInput(search: SearchOf<typeof stayListSearchSchema>): StayListInput {
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

/**
 * After any change of a stay, the room board, the room details, the stay lists, the today board,
 * the timeline and the bill are reloaded (a renewal or a room change moves the room charge). Every
 * other tab hears of it through the live feed (lib/live-events.ts).
 */
export async function invalidateStays(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [trpc.order, trpc.room, trpc.stay, trpc.today, trpc.timeline].map((router) => queryClient.invalidateQueries({ queryKey: router.pathKey() })),
  );
}

/** After money was recorded or a bill settled: the bill, the order list and the cash report, and the board's "due" mark, the stay lists and the today board. */
export async function invalidateStayMoney(queryClient: QueryClient): Promise<void> {
  await Promise.all([trpc.order, trpc.room, trpc.stay, trpc.today].map((router) => queryClient.invalidateQueries({ queryKey: router.pathKey() })));
}

/** A guest's breakfasts were served: that morning's breakfast list. */
export const invalidateBreakfast = (queryClient: QueryClient, date: string) =>
  queryClient.invalidateQueries({ queryKey: trpc.stay.breakfast.queryKey({ date }) });

/** A new key page link: the stay's link is the new one at once (the old one stops). */
export function storeKeyPageLink(queryClient: QueryClient, stayId: number, link: RouterOutputs['keyPage']['get']['link']): void {
  queryClient.setQueryData(trpc.keyPage.get.queryKey({ stayId }), { link });
}

/** How many messages the stay's log holds in the cache (0 before its first answer). */
export const cachedMessageCount = (queryClient: QueryClient, stayId: number) =>
  queryClient.getQueryData(trpc.guestMessage.log.queryKey({ stayId }))?.length ?? 0;
/** The stay's messages are asked for again (a code confirmed, a message sent again). */
export const invalidateStayMessages = (queryClient: QueryClient, stayId: number) =>
  queryClient.invalidateQueries({ queryKey: trpc.guestMessage.log.queryKey({ stayId }) });

/**
 * Asks again for lists the credentials just issued belong to. A list whose first answer is still
 * on its way (the stay card mounts while the credential is being issued) is cancelled first:
 * invalidating alone would wait for that answer, read before the credential existed.
 */
async function refetchFresh(queryClient: QueryClient, queryKey: QueryKey) {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
/** A password issued at check-in (or its attempt failed): every password list, fresh. */
export const refetchPasswords = (queryClient: QueryClient) => refetchFresh(queryClient, trpc.password.pathKey());
/** Faces authorised at check-in: every face list, fresh. */
export const refetchFaces = (queryClient: QueryClient) => refetchFresh(queryClient, trpc.face.pathKey());

/** A stay's keys moved or changed (a room change, a renewal): every credential list follows the locks. */
export function invalidateStayKeys(queryClient: QueryClient): void {
  for (const router of [trpc.password, trpc.face, trpc.card]) void queryClient.invalidateQueries({ queryKey: router.pathKey() });
}
