import { LIMITS } from '@console/shared';
import { int, oneOf, optional, searchSchema, text, withDefault } from '../../../lib/url-search';

// The routes validate the URL with these before the pages' chunks are loaded: without zod
// (lib/url-search.ts), for the first download.

/** Management and universal card lists: which cards (active, past, all), the search and the page, in the URL. */
export const cardListSearchSchema = searchSchema({
  scope: withDefault(oneOf(['active', 'history', 'all'] as const), 'active'),
  page: withDefault(int({ min: 1 }), 1),
  pageSize: withDefault(int({ min: 1, max: LIMITS.pageSizeMax }), LIMITS.pageSizeDefault),
  search: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
});
export const cardListSearchDefaults = { scope: 'active', page: 1, pageSize: LIMITS.pageSizeDefault, search: '' } as const;

/** Choosing rooms (`selectRoomList`): for which kind of card, the search and the page. */
export const selectRoomsSearchSchema = searchSchema({
  kind: withDefault(oneOf(['management', 'universal'] as const), 'management'),
  page: withDefault(int({ min: 1 }), 1),
  search: withDefault(text({ max: LIMITS.searchMaxLength }), ''),
});
export const selectRoomsSearchDefaults = { kind: 'management', page: 1, search: '' } as const;

/** Room card encryption: the room chosen (a link may bring one). */
export const roomCardSearchSchema = searchSchema({
  roomId: optional(int({ min: 1 })),
});
