import type { RouterOutputs } from '@/lib/trpc-types';

/** A room as the board lists it. */
export type RoomItem = RouterOutputs['room']['list']['items'][number];
