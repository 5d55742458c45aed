import { CARD_RULES } from '@console/shared';

/**
 * Whether the rooms chosen for a universal or management card fit on one card
 * (docs/card-format.md "Rooms"): at most 7 rooms anywhere (list), any number of rooms within 96
 * consecutive room lock numbers (window), or all rooms. The console does not know the rooms' lock
 * numbers (the server gives them when a room's first card is written), so between 8 and 96 rooms
 * it can only say that they fit if their numbers are close together; the server decides when the
 * card is written (cards.errors.tooManyRooms).
 */
export const LISTED_ROOMS_MAX: number = CARD_RULES.listedRoomsMax;
export const WINDOW_ROOMS_MAX = 96;

export type RoomFit =
  /** Nothing chosen yet. */
  | 'none'
  /** All rooms: always one card. */
  | 'all'
  /** Up to 7 rooms: always one card. */
  | 'fits'
  /** 8 to 96 rooms: one card only if their lock numbers lie within 96 consecutive numbers. */
  | 'maybe'
  /** More than 96 rooms: never on one card (choose all rooms, or several cards). */
  | 'tooMany';

export function roomFit(count: number, allRooms: boolean): RoomFit {
  if (allRooms) return 'all';
  if (count <= 0) return 'none';
  if (count <= LISTED_ROOMS_MAX) return 'fits';
  if (count <= WINDOW_ROOMS_MAX) return 'maybe';
  return 'tooMany';
}

/** A choice the card cannot be written with (the write button waits for another choice). */
export function blocksWriting(fit: RoomFit): boolean {
  return fit === 'none' || fit === 'tooMany';
}
