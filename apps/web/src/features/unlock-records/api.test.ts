import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { prefetchUnlockRecords, unlockRecordQueries } from './api';
import { unlockRecordsSearchSchema } from './unlock-records-search';

/** The URL's search as the route validates it. */
function searchOf(raw: Record<string, unknown>) {
  const result = unlockRecordsSearchSchema['~standard'].validate(raw);
  if (!('value' in result)) throw new Error('search not taken');
  return result.value;
}

/** What the unlock records route's loader asks for, with a URL's search: the query keys it ensures. */
function prefetched(raw: Record<string, unknown>): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchUnlockRecords(queryClient, searchOf(raw));
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

describe("the unlock records route's loader", () => {
  it("starts the very query the page asks for on arrival: the date fields hold the URL's days", () => {
    const raw = { page: 2, person: 'Li', credential: 'password:12', from: '2026-11-01', to: '2026-11-30' };
    const search = searchOf(raw);
    // What the page asks for: its date fields start with the URL's days.
    const page = unlockRecordQueries.list(search, { from: search.from ?? '', to: search.to ?? '' }, true);
    expect(prefetched(raw)).toEqual([page.queryKey]);
    expect(JSON.stringify(page.queryKey)).toContain('"person":"Li"');
    expect(JSON.stringify(page.queryKey)).toContain('"from":"2026-11-01"');
  });

  it('asks for the records of the room filtered by', () => {
    const search = searchOf({ roomId: 7 });
    expect(prefetched({ roomId: 7 })).toEqual([unlockRecordQueries.list(search, { from: '', to: '' }, true).queryKey]);
    expect(JSON.stringify(prefetched({ roomId: 7 }))).toContain('"roomId":7');
  });

  it('asks for no records when the page will not send its days (a day that does not exist, an end before the start)', () => {
    expect(prefetched({ from: '2026-02-30' })).toEqual([]);
    expect(prefetched({ from: '2026-11-30', to: '2026-11-01' })).toEqual([]);
  });
});
