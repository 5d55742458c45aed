import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { lockQueries, prefetchLockMessages } from './api';
import { lockMessagesSearchDefaults } from './lock-messages-search';

/** What the lock messages route's loader asks for, with a URL's search: the query keys it ensures. */
function prefetched(search: Parameters<typeof prefetchLockMessages>[1]): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchLockMessages(queryClient, search);
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("the lock messages route's loader", () => {
  it("starts the very queries the page asks for: the URL's page of messages and the room it is filtered to", () => {
    const search = { ...lockMessagesSearchDefaults, page: 3, show: 'unread' as const, roomId: 12 };
    expect(prefetched(search)).toEqual([lockQueries.messages(search).queryKey, lockQueries.filterRoom(12).queryKey]);
    expect(JSON.stringify(lockQueries.messages(search).queryKey)).toContain('"unreadOnly":true');
  });

  it('asks for no room when the list is not filtered to one', () => {
    const search = { ...lockMessagesSearchDefaults, show: 'all' as const };
    expect(prefetched(search)).toEqual([lockQueries.messages(search).queryKey]);
  });
});
