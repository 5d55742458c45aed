import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import type { SectionInput } from '@/components/credential-section';
import { IN_FLIGHT_REFETCH_MS, isInFlight, refetchWhileInFlight } from '@/lib/credentials';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import type { SearchOf } from '@/lib/url-search';
import type { cardListSearchSchema, selectRoomsSearchSchema } from './admin/card-admin-search';

/**
 * The cards' api (issue 19 §5): the queries of the card lists (the admin lists, a room's, a stay's),
 * of the card keys page, of room card encryption and of the card writers and readers, and what a
 * change of a card, of the keys or of a dispenser makes stale. Mutations are the tRPC ones (`trpc.card.*`). The
 * routes' loaders ask for the page's data as the route starts (`ensureQueryData`, not awaited: the
 * page shows its skeleton and its own load error as before).
 */
export const cardQueries = {
  /** A page of the hotel's management or universal cards, followed while a card is being taken off its locks. */
  adminList: (kind: 'management' | 'universal', search: SearchOf<typeof cardListSearchSchema>) =>
    trpc.card.list.queryOptions(
      { kind, scope: search.scope, page: search.page, pageSize: search.pageSize, search: search.search || undefined },
      {
        placeholderData: keepPreviousData,
        meta: { showsErrors: true },
        // A card being taken off its locks: followed until every lock has it on its denylist.
        refetchInterval: (q) => (q.state.data?.items.some((c) => c.grants.some((g) => isInFlight(g.deliveryState))) ? IN_FLIGHT_REFETCH_MS : false),
      },
    ),
  /** The hotel's card key sets (never their keys). */
  keySets: () => trpc.card.keySets.queryOptions(undefined, { meta: { showsErrors: true } }),
  /** Each lock's state with the hotel's card keys, followed while keys are on their way. */
  keyStates: () =>
    trpc.card.keyStates.queryOptions(undefined, {
      meta: { showsErrors: true },
      refetchInterval: (q) => (q.state.data?.some((s) => s.deliveryState !== 'never' && isInFlight(s.deliveryState)) ? IN_FLIGHT_REFETCH_MS : false),
    }),
  /** Each shared door's state with the hotel's card keys (room cards name the doors their room is served by), followed the same way. */
  doorKeyStates: () =>
    trpc.card.doorKeyStates.queryOptions(undefined, {
      meta: { showsErrors: true },
      refetchInterval: (q) => (q.state.data?.some((s) => s.deliveryState !== 'never' && isInFlight(s.deliveryState)) ? IN_FLIGHT_REFETCH_MS : false),
    }),
  /** A page of a room's cards under its Credentials tab, followed while a lock is still being told. */
  roomSection: (roomId: number, input: SectionInput) =>
    trpc.card.list.queryOptions(
      { roomId, ...input },
      { placeholderData: keepPreviousData, refetchInterval: refetchWhileLocksWork, meta: { showsErrors: true } },
    ),
  /** The guest page's cards of a stay, every state, followed while a lock is still being told. */
  stayCards: (stayId: number) =>
    trpc.card.list.queryOptions(
      { stayId, scope: 'all', page: 1, pageSize: GUEST_CARDS_SHOWN },
      { refetchInterval: refetchWhileLocksWork, meta: { showsErrors: true } },
    ),
  /** Whether a stay has room cards in use (the writing dialog then asks: a new card or another one). */
  stayCardsInUse: (stayId: number, enabled: boolean) =>
    trpc.card.list.queryOptions({ stayId, kind: 'room', scope: 'active', page: 1, pageSize: 1 }, { enabled, meta: { showsErrors: true } }),
  /** The encoders of the card system a room's door belongs to (Seam `acs`), asked while the encode dialog is open. */
  encoders: (roomId: number, enabled: boolean) => trpc.card.encoders.queryOptions({ roomId }, { enabled, meta: { showsErrors: true } }),
  /** Room card encryption's room (undefined: none chosen). */
  room: (roomId: number | undefined) => trpc.room.get.queryOptions({ id: roomId ?? 0 }, { enabled: roomId !== undefined, meta: { showsErrors: true } }),
  /** The cards in use of room card encryption's room: every kind that opens it. */
  roomCardsInUse: (roomId: number) => trpc.card.list.queryOptions({ roomId, scope: 'active', pageSize: 20 }, { meta: { showsErrors: true } }),
  /** A page of the hotel's rooms to choose a management or universal card's rooms from. */
  roomChoice: (search: SearchOf<typeof selectRoomsSearchSchema>) =>
    trpc.room.list.queryOptions(
      { page: search.page, pageSize: ROOM_CHOICE_PAGE_SIZE, search: search.search || undefined, sort: 'name_asc' },
      { placeholderData: keepPreviousData, meta: { showsErrors: true } },
    ),
  /** Whether rooms fit on one card, asked of the server (which knows their lock numbers) when it cannot be decided here. */
  roomFit: (sortedRoomIds: number[], enabled: boolean) =>
    trpc.card.roomFit.queryOptions({ roomIds: sortedRoomIds }, { enabled, placeholderData: keepPreviousData, staleTime: 30_000 }),
  /** A card's issue and guest before a card is written (never from the cache; the writer says the failure). */
  lookupBeforeWriting: (cardNumber: string) => trpc.card.lookup.queryOptions({ cardNumber }, { staleTime: 0 }),
  /** A card read on the desk reader: its guest (never from the cache; the button says the failure). */
  lookupRead: (cardNumber: string) => trpc.card.lookup.queryOptions({ cardNumber }, { staleTime: 0, meta: { showsErrors: true } }),
  /** The hotel's card dispensers, for the writing dialog. */
  dispensers: (enabled: boolean) => trpc.dispenser.list.queryOptions(undefined, { enabled }),
};

/** The guest page shows this many of a stay's cards. */
const GUEST_CARDS_SHOWN = 20;
/** Rooms to choose from, a page. */
export const ROOM_CHOICE_PAGE_SIZE = 20;

/** A list of cards asks again every 1.5 s while one of its locks is still being told (a lost card's denylisting, for instance). */
function refetchWhileLocksWork(query: { state: { data?: { items: readonly CardIssue[] } } }): number | false {
  return refetchWhileInFlight({ state: { data: query.state.data && { items: query.state.data.items.flatMap((c) => c.grants) } } });
}
type CardIssue = RouterOutputs['card']['list']['items'][number];

/** Room card encryption's loader: the room of the URL and its cards in use, as the page asks for them (nothing without a room). */
export function prefetchRoomCard(queryClient: QueryClient, roomId: number | undefined): void {
  if (roomId === undefined) return;
  void queryClient.ensureQueryData(cardQueries.room(roomId)).catch(() => undefined);
  void queryClient.ensureQueryData(cardQueries.roomCardsInUse(roomId)).catch(() => undefined);
}

/** A card issued, written, returned, revoked or lost, or a key set created or deleted: every card query is stale. */
export const invalidateCards = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.card.pathKey() });
/** Keys sent to the locks: the key sets' lock counts change. */
export const invalidateKeySets = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.card.keySets.queryKey() });
/** Keys sent to the locks: each lock's state as the server answered, at once. */
export const storeKeyStates = (queryClient: QueryClient, states: RouterOutputs['card']['syncKeys']) =>
  queryClient.setQueryData(trpc.card.keyStates.queryKey(), states);
/** Keys sent: the rooms' locks' states come with the answer (`storeKeyStates`), the shared doors' are asked again. */
export const invalidateDoorKeyStates = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.card.doorKeyStates.queryKey() });
/** A dispenser's stock recorded: the dispensers are asked for again. */
export const invalidateDispensers = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.dispenser.list.queryKey() });
