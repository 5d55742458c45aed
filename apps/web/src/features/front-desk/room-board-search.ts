import { z } from 'zod';
import { LIMITS, ROOM_PAGE_SIZE_DEFAULT, ROOM_SORTS, ROOM_STATUSES } from '@console/shared';

// The route (routes/_auth/room/index.tsx) validates the URL with these before the page's chunk
// is loaded: they live apart from the page so that the page stays out of the first download.

export const ROOM_BOARD_VIEWS = ['tiles', 'table'] as const;

/** The board's filters live in the URL, so a reload or a shared link shows the same rooms. */
export const roomBoardSearchSchema = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(ROOM_PAGE_SIZE_DEFAULT).default(ROOM_PAGE_SIZE_DEFAULT),
  status: z.enum(ROOM_STATUSES).optional().catch(undefined),
  // A search of digits (a room number) comes back from the URL as a number: it is still text.
  search: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
  groupId: z.number().int().positive().optional().catch(undefined),
  sort: z.enum(ROOM_SORTS).catch('default').default('default'),
  view: z.enum(ROOM_BOARD_VIEWS).catch('tiles').default('tiles'),
});

/** Values equal to these are left out of the URL. */
export const roomBoardSearchDefaults = { page: 1, pageSize: ROOM_PAGE_SIZE_DEFAULT, search: '', sort: 'default', view: 'tiles' } as const;
