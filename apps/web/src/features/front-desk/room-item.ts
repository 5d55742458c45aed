import type { RouterOutputs } from '@/lib/trpc-types';

/** A room as the board lists it. */
export type RoomItem = RouterOutputs['room']['list']['items'][number];

/**
 * A room without a guest in it can take one, a reservation ahead included: whether the stay fits is
 * decided by the server by time overlap alone (a room reserved from tomorrow is sold tonight). A
 * room under maintenance takes no guest.
 */
export function boardCanCheckIn(room: Pick<RoomItem, 'status'>): boolean {
  return room.status === 'vacant' || room.status === 'dirty' || room.status === 'reserved';
}

/** What the board can do with a room, from its menu (each needs the front-desk permission). */
export interface RoomActionHandlers {
  onCheckIn(room: RoomItem): void;
  /** A new reservation of this room (for any dates: the dialog asks). */
  onReserve(room: RoomItem): void;
  onCheckOut(stayId: number): void;
  /** The guest of a reservation has come: the reservation becomes a stay in progress. */
  onArrive(stayId: number): void;
  /** The guest of a reservation will not come. */
  onCancelReservation(stayId: number): void;
  /** Housekeeping is done: a dirty room becomes clean (vacant when nobody stays). */
  onMarkClean(room: RoomItem): void;
  /** A reservation's key is not on the lock in time: an offline code now, or its credentials sent again. */
  onFixKey(stayId: number): void;
}
