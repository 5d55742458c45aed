import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { sharedQueries } from '@/lib/queries';
import { frontDeskQueries, prefetchRoomBoard } from './api';
import { roomBoardSearchSchema, roomListInput } from './room-board-search';

/** The URL's search as the route reads it. */
function searchOf(raw: unknown) {
  const result = roomBoardSearchSchema['~standard'].validate(raw);
  if (!('value' in result)) throw new Error('not a search');
  return result.value;
}

/** What the room board's loader asks for, with a URL's search (through the route's loader deps): the query keys it ensures. */
function prefetched(raw: unknown): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchRoomBoard(queryClient, roomListInput(searchOf(raw)));
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("the room board's loader", () => {
  it("starts the very queries the board asks for: the URL's rooms, the room groups and the shared doors (drawn above the tiles, so asked for with them)", () => {
    const raw = { page: 2, pageSize: 50, status: 'dirty', search: '101', groupId: 3, sort: 'name_asc', view: 'table' };
    const keys = prefetched(raw);
    expect(keys).toEqual([
      frontDeskQueries.rooms(roomListInput(searchOf(raw))).queryKey,
      frontDeskQueries.groups().queryKey,
      sharedQueries.sharedDoors().queryKey,
    ]);
    expect(JSON.stringify(keys[0])).toContain('"search":"101"');
  });

  it('asks for the same rooms whatever the view (tiles or table), and sends no empty search', () => {
    expect(prefetched({ view: 'table' })).toEqual(prefetched({}));
    expect(JSON.stringify(prefetched({})[0])).not.toContain('"search"');
  });
});
