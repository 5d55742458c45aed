import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import { stayQueries } from '../stays/api';
import type { RoomDetailTab } from './room-detail-search';

/**
 * The room page's api (issue 19 §5): the queries of `/room/$roomId` and its tabs, and what a change
 * of the room, its settings or its prices makes stale. Mutations are the tRPC ones (`trpc.room.*`,
 * `trpc.price.*`). The route's loader asks for the room (and the stays tab's first page when that
 * tab is open) as the route starts (`ensureQueryData`, not awaited: the page shows its skeleton and
 * its own load error as before). Kept free of zod and of packages/shared's runtime, like the route.
 */
export const roomDetailQueries = {
  /** The room with its current and next stays; the page shows its own load errors (and "not found"). */
  room: (roomId: number) => trpc.room.get.queryOptions({ id: roomId }, { meta: { showsErrors: true } }),
  /** The room's current stay with its guests, options and remark (nothing asked for while the room has none). */
  currentStay: (stayId: number | undefined) =>
    trpc.stay.get.queryOptions({ stayId: stayId ?? 0 }, { enabled: stayId !== undefined, meta: { showsErrors: true } }),
  /** A page of the room's stays, newest first (the stays tab). */
  stays: (roomId: number, page: number) => stayQueries.list({ roomId, page, pageSize: ROOM_STAYS_PAGE_SIZE }),
  /** The lock's unlock records of the room between two dates; the first page follows new records while it is shown. */
  unlockRecords: (input: { roomId: number; from?: string; to?: string; page: number; pageSize: number }, isValid: boolean) =>
    trpc.room.unlockRecords.queryOptions(input, {
      placeholderData: keepPreviousData,
      enabled: isValid,
      refetchInterval: input.page === 1 ? 5_000 : false,
      meta: { showsErrors: true },
    }),
  /** The room's lock by its name, as the lock panel reads it (nothing asked for while the room has no lock). */
  roomLock: (room: { id: number; lockId: string | null }) =>
    trpc.lock.status.queryOptions({ roomId: room.id }, { enabled: room.lockId !== null, meta: { showsErrors: true } }),
  /** Whether the hotel has any lock to pick (one lock of all of them). */
  anyLock: () => trpc.lock.list.queryOptions({ filter: 'all', page: 1, pageSize: 1 }, { staleTime: 60_000, meta: { showsErrors: true } }),
  /** The room's prices. */
  price: (roomId: number) => trpc.price.room.queryOptions({ roomId }, { meta: { showsErrors: true } }),
  /** The hotel's price templates, to apply one to the room. */
  priceTemplates: () => trpc.price.templates.queryOptions(undefined, { meta: { showsErrors: true } }),
};

/** Stays shown a page on the room's stays tab. */
export const ROOM_STAYS_PAGE_SIZE = 10;

/** The room route's loader: the room, and the first page of its stays when the URL opens the stays tab. */
export function prefetchRoomDetail(queryClient: QueryClient, roomId: number, tab: RoomDetailTab): void {
  void queryClient.ensureQueryData(roomDetailQueries.room(roomId)).catch(() => undefined);
  if (tab === 'stays') void queryClient.ensureQueryData(roomDetailQueries.stays(roomId, 1)).catch(() => undefined);
}

/** The room's status changed: the room board, the room page and every room list follow. */
export function invalidateRooms(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
}

/** The room's settings saved: the rooms, its lock (the lock panel, the hotel's lock list) and the groups' room counts. */
export function invalidateRoomSettings(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.lock.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() });
}

/** The room deleted: the rooms and the groups' room counts. */
export function invalidateRoomDeleted(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() });
}

/** The room's prices saved or a template applied: the prices and the rooms (the board shows prices). */
export function invalidateRoomPrices(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: trpc.price.pathKey() });
  void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
}
