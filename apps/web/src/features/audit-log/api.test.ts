import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { auditFilters, auditQueries, prefetchAuditLog, readAuditSearch } from './api';

/** What the audit log route's loader asks for, with a URL's search: the query keys it ensures. */
function prefetched(raw: unknown): unknown[] {
  const queryClient = new QueryClient();
  const ensure = vi.spyOn(queryClient, 'ensureQueryData').mockResolvedValue(undefined as never);
  prefetchAuditLog(queryClient, raw);
  return ensure.mock.calls.map(([options]) => options.queryKey);
}

/** The list's key as the page asks for it on arrival: its date fields hold the URL's days. */
function pageKey(raw: unknown) {
  const search = readAuditSearch(raw);
  const days = { from: search.from ?? '', to: search.to ?? '' };
  return auditQueries.list({ page: search.page, pageSize: search.pageSize, ...auditFilters(search, days) }, true).queryKey;
}

describe("the audit log route's loader", () => {
  it("starts the very query the page asks for: the URL's filters and page", () => {
    const raw = { page: 3, actor: 'apiKey:4', action: 'room.update', channel: 'legacy', from: '2026-11-01', to: '2026-11-30' };
    expect(prefetched(raw)).toEqual([pageKey(raw)]);
    expect(JSON.stringify(pageKey(raw))).toContain('"actorApiKeyId":4');
  });

  it('reads a URL it cannot take as the first page of every entry', () => {
    expect(prefetched({ page: 0, channel: 'fax' })).toEqual([pageKey({})]);
  });

  it('asks for no entries when the page will not send its days (a day that does not exist, an end before the start)', () => {
    expect(prefetched({ from: '2026-02-30' })).toEqual([]);
    expect(prefetched({ from: '2026-11-30', to: '2026-11-01' })).toEqual([]);
  });
});
