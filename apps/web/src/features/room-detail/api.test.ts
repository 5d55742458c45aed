import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ROOM_STAYS_PAGE_SIZE, prefetchRoomDetail, roomDetailQueries } from './api';
import type { RoomDetailTab } from './room-detail-search';

/** What the room route's loader asks for: the query keys it ensures. */
function prefetched(roomId: number, tab: RoomDetailTab): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchRoomDetail(queryClient, roomId, tab);
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("the room route's loader", () => {
  it('starts the very queries the page asks for: the room, and the first page of its stays on the stays tab', () => {
    expect(prefetched(7, 'stays')).toEqual([roomDetailQueries.room(7).queryKey, roomDetailQueries.stays(7, 1).queryKey]);
    // The keys the page's components use, as tRPC names them: the room by its id, its stays' first page.
    expect(roomDetailQueries.room(7).queryKey).toEqual([['room', 'get'], { input: { id: 7 }, type: 'query' }]);
    expect(roomDetailQueries.stays(7, 1).queryKey).toEqual([
      ['stay', 'list'],
      { input: { roomId: 7, page: 1, pageSize: ROOM_STAYS_PAGE_SIZE }, type: 'query' },
    ]);
  });

  it('asks only for the room on another tab', () => {
    expect(prefetched(7, 'price')).toEqual([roomDetailQueries.room(7).queryKey]);
    expect(prefetched(3, 'settings')).toEqual([[['room', 'get'], { input: { id: 3 }, type: 'query' }]]);
  });
});
