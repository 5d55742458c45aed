import { CARD_RULES } from '@console/shared';

/**
 * Whether the rooms chosen for a universal or management card fit on one card
 * (docs/card-format.md "Rooms"): at most 7 rooms anywhere (list), any number of rooms within 96
 * consecutive room lock numbers (window), or all rooms. Only the server knows the rooms' lock
 * numbers, so between 8 and 96 rooms the console asks it (`card.roomFit`): the rooms lie close
 * enough together (near) or not (far); until it answers, they may fit (maybe).
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
  /** 8 to 96 rooms: one card only if their lock numbers lie within 96 consecutive numbers (not known yet). */
  | 'maybe'
  /** 8 to 96 rooms within 96 consecutive lock numbers: one card. */
  | 'near'
  /** 8 to 96 rooms spread over more than 96 lock numbers: not one card. */
  | 'far'
  /** More than 96 rooms: never on one card (choose all rooms, or several cards). */
  | 'tooMany';

/** `server`: the server's answer for these rooms (`card.roomFit`), when it has given one. */
export function roomFit(count: number, allRooms: boolean, server?: { fits: boolean } | null): RoomFit {
  if (allRooms) return 'all';
  if (count <= 0) return 'none';
  if (count <= LISTED_ROOMS_MAX) return 'fits';
  if (count <= WINDOW_ROOMS_MAX) return server ? (server.fits ? 'near' : 'far') : 'maybe';
  return 'tooMany';
}

/** A choice the card cannot be written with (the write button waits for another choice). */
export function blocksWriting(fit: RoomFit): boolean {
  return fit === 'none' || fit === 'tooMany' || fit === 'far';
}

/** Rooms that cannot be one card, whatever their numbers or because of them. */
export function cannotBeOneCard(fit: RoomFit): boolean {
  return fit === 'tooMany' || fit === 'far';
}
