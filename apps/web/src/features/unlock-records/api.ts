import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { isLocalDate } from '@console/shared';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import type { unlockRecordsSearchSchema } from './unlock-records-search';

type RecordsSearch = SearchOf<typeof unlockRecordsSearchSchema>;

/**
 * The unlock records' api (issue 19 §5): the records' query, the room the URL filters by, and the
 * route's loader, which asks for the records as the route starts (`ensureQueryData`, not awaited:
 * the page shows its skeleton and its own load error as before). Nothing here changes records.
 */
export const unlockRecordQueries = {
  /**
   * A page of records with the URL's person, credential and room, between the days typed (`from`,
   * `to`: the date fields' texts, empty for none); the first page is asked again every 10 s.
   * `enabled`: the days can be sent (each a day, the end not before the start).
   */
  list: (search: RecordsSearch, days: { from: string; to: string }, enabled: boolean) =>
    trpc.lock.recordsByPerson.queryOptions(
      {
        page: search.page,
        pageSize: search.pageSize,
        person: search.person || undefined,
        credential: search.credential,
        roomId: search.roomId,
        from: days.from || undefined,
        to: days.to || undefined,
      },
      { placeholderData: keepPreviousData, enabled, refetchInterval: search.page === 1 ? 10_000 : false, meta: { showsErrors: true } },
    ),
  /** The room the records are filtered by (its name for the picker); none asks for nothing. */
  room: (roomId: number | undefined) =>
    trpc.room.get.queryOptions({ id: roomId ?? 0 }, { enabled: roomId !== undefined, staleTime: 60_000, meta: { handledCodes: ['NOT_FOUND'] } }),
};

/**
 * The route's loader: the records of the URL's filters and page (the date fields start with the
 * URL's days), unless the days cannot be sent (a day that does not exist, an end before the
 * start). Not the filter's room: its failure is a toast of the query's own, which a failed start
 * would show twice.
 */
export function prefetchUnlockRecords(queryClient: QueryClient, search: RecordsSearch): void {
  const days = { from: search.from ?? '', to: search.to ?? '' };
  const canSend = [days.from, days.to].every((day) => day === '' || isLocalDate(day)) && (!days.from || !days.to || days.from <= days.to);
  if (canSend) void queryClient.ensureQueryData(unlockRecordQueries.list(search, days, true)).catch(() => undefined);
}
