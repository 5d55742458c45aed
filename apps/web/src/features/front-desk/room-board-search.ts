import { LIMITS } from '@console/shared';
import { ROOM_PAGE_SIZE_DEFAULT, ROOM_SORTS, ROOM_STATUSES } from '../../lib/shared-constants';
import { int, oneOf, optional, searchSchema, text, withDefault, type SearchOf } from '../../lib/url-search';

// The route (routes/_auth/room/index.tsx) validates the URL with these before the page's chunk
// is loaded: they live apart from the page so that the page stays out of the first download, and
// are written without zod (lib/url-search.ts) for the same reason.

export const ROOM_BOARD_VIEWS = ['tiles', 'table'] as const;

/** The board's filters live in the URL, so a reload or a shared link shows the same rooms. */
export const roomBoardSearchSchema = searchSchema({
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), ROOM_PAGE_SIZE_DEFAULT),
  status: optional(oneOf(ROOM_STATUSES)),
  // A search of digits (a room number) comes back from the URL as a number: it is still text.
  search: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
  groupId: optional(int({ min: 1 })),
  sort: withDefault(oneOf(ROOM_SORTS), 'default'),
  view: withDefault(oneOf(ROOM_BOARD_VIEWS), 'tiles'),
});

/** Values equal to these are left out of the URL. */
export const roomBoardSearchDefaults = { page: 1, pageSize: ROOM_PAGE_SIZE_DEFAULT, search: '', sort: 'default', view: 'tiles' } as const;

/**
 * What the board asks `room.list` for, from its URL: the page and the route's loader build it
 * alike, so the loader's request is the one the page then reads (the same query key).
 */
export function roomListInput(search: SearchOf<typeof roomBoardSearchSchema>) {
  return {
    page: search.page,
    pageSize: search.pageSize,
    status: search.status,
    search: search.search || undefined,
    groupId: search.groupId,
    sort: search.sort,
  };
}
