import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LIMITS, ROOM_PAGE_SIZE_DEFAULT, ROOM_SORTS, ROOM_STATUSES } from '@console/shared';
import { searchInputs } from '../../lib/url-search-inputs.test-support';
import { ROOM_BOARD_VIEWS, roomBoardSearchSchema } from './room-board-search';
import { ROOM_DETAIL_TABS, roomDetailSearchSchema } from '../room-detail/room-detail-search';

// The schemas as they were written with zod, before lib/url-search.ts replaced it there: the URL
// must be read exactly as before.
const roomBoardBefore = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(ROOM_PAGE_SIZE_DEFAULT).default(ROOM_PAGE_SIZE_DEFAULT),
  status: z.enum(ROOM_STATUSES).optional().catch(undefined),
  search: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
  groupId: z.number().int().positive().optional().catch(undefined),
  sort: z.enum(ROOM_SORTS).catch('default').default('default'),
  view: z.enum(ROOM_BOARD_VIEWS).catch('tiles').default('tiles'),
});
const roomDetailBefore = z.object({ tab: z.enum(ROOM_DETAIL_TABS).catch('stays').default('stays') });

describe('URL search schemas of the front desk (without zod)', () => {
  it('read the room board URL as the zod schema did', () => {
    const inputs = searchInputs({
      page: [1, 3],
      pageSize: [20, 100],
      status: ROOM_STATUSES,
      search: ['101', 7],
      groupId: [1, 9],
      sort: ROOM_SORTS,
      view: ROOM_BOARD_VIEWS,
    });
    for (const input of inputs)
      expect(roomBoardSearchSchema['~standard'].validate(input), JSON.stringify(input)).toStrictEqual(roomBoardBefore['~standard'].validate(input));
  });

  it('read the room page URL as the zod schema did', () => {
    for (const input of searchInputs({ tab: ROOM_DETAIL_TABS })) {
      expect(roomDetailSearchSchema['~standard'].validate(input), JSON.stringify(input)).toStrictEqual(roomDetailBefore['~standard'].validate(input));
    }
  });

  it('open the stays tab from a link of before issue 28 (?tab=tenants)', () => {
    expect(roomDetailSearchSchema['~standard'].validate({ tab: 'tenants' })).toStrictEqual({ value: { tab: 'stays' } });
  });
});
