import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ROOM_CHOICE_PAGE_SIZE, cardQueries, prefetchRoomCard } from './api';
import { selectRoomsSearchSchema } from './admin/card-admin-search';

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

describe('the rooms to choose for a card, read from the URL', () => {
  const keyOf = (raw: unknown) => {
    const result = selectRoomsSearchSchema['~standard'].validate(raw);
    if (!('value' in result)) throw new Error('not a search');
    return JSON.stringify(cardQueries.roomChoice(result.value).queryKey);
  };

  it("asks for the URL's page and search, by name, a fixed page size whatever the kind of card", () => {
    const key = keyOf({ kind: 'universal', page: 4, search: '10' });
    for (const part of ['"page":4', '"search":"10"', '"sort":"name_asc"', `"pageSize":${ROOM_CHOICE_PAGE_SIZE}`]) expect(key).toContain(part);
    expect(keyOf({ kind: 'management', page: 4, search: '10' })).toBe(key);
  });

  it('sends no empty search', () => {
    expect(keyOf({})).not.toContain('"search"');
  });
});
