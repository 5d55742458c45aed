import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { cardQueries, prefetchRoomCard } from './api';

/** What room card encryption's loader asks for, with the URL's room: the query keys it ensures. */
function prefetched(roomId: number | undefined): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchRoomCard(queryClient, roomId);
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("room card encryption's loader", () => {
  it("starts the very queries the page asks for: the URL's room and its cards in use", () => {
    const keys = prefetched(7);
    expect(keys).toEqual([cardQueries.room(7).queryKey, cardQueries.roomCardsInUse(7).queryKey]);
    expect(JSON.stringify(keys[0])).toContain('"id":7');
    expect(JSON.stringify(keys[1])).toContain('"roomId":7');
  });

  it('asks for nothing while no room is chosen', () => {
    expect(prefetched(undefined)).toEqual([]);
  });
});
