import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { sharedQueries } from '@/lib/queries';
import { trpc } from '@/lib/trpc';
import type { RouterInputs } from '@/lib/trpc-types';
import type { roomListInput } from './room-board-search';

/**
 * The front desk's api (issue 19 §5): the room board's queries (the rooms of the URL's filters and
 * page, the room groups), the today board's arrivals, and what a change of the rooms makes stale.
 * Mutations are the tRPC ones (`trpc.room.*`; the stay actions are the stays feature's). The board's
 * loader asks for the rooms and groups as the route starts (`ensureQueryData`, not awaited: the page
 * shows its skeleton and its own load error as before). Kept light: the board is a budgeted page
 * (bench/bundle-size.ts).
 */
export const frontDeskQueries = {
  /** A page of the board's rooms, as the URL's filters ask for them (`roomListInput`). */
  rooms: (input: ReturnType<typeof roomListInput>) => trpc.room.list.queryOptions(input, { placeholderData: keepPreviousData, meta: { showsErrors: true } }),
  /** The hotel's room groups (the board's group filter). */
  groups: () => trpc.roomGroup.list.queryOptions(),
  /** The day's arrivals (today's, or another hotel date's), refreshed every minute as the today board is. */
  arrivals: (input: RouterInputs['stay']['arrivals']) => trpc.stay.arrivals.queryOptions(input, { refetchInterval: 60_000, meta: { showsErrors: true } }),
};

/**
 * The room board's loader: the rooms of the URL's filters and page, the room groups and the shared
 * doors, asked for together (one batched request, one answer): the shared-door strip above the tiles
 * is on the page when they are, never drawn after them, pushing a room's menu away under the clerk's
 * pointer (a click on "New reservation" landed on "Check in", issue 37 §1).
 */
export function prefetchRoomBoard(queryClient: QueryClient, input: ReturnType<typeof roomListInput>): void {
  void queryClient.ensureQueryData(frontDeskQueries.rooms(input)).catch(() => undefined);
  void queryClient.ensureQueryData(frontDeskQueries.groups()).catch(() => undefined);
  void queryClient.ensureQueryData(sharedQueries.sharedDoors()).catch(() => undefined);
}

/** A room added or its status changed: every room query (the board, the room pages) is stale. */
export const invalidateRooms = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
/** A room added: the room groups are asked for again. */
export const invalidateRoomGroups = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: trpc.roomGroup.pathKey() });
