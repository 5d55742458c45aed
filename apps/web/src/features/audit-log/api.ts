import { keepPreviousData, type QueryClient } from '@tanstack/react-query';
import { isLocalDate } from '@console/shared';
import { trpc } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import { auditLogSearchSchema } from './audit-log-search';

/**
 * The audit log's api (issue 19 §5): the log's queries, its filters read from the URL, and the
 * route's loader. Nothing here changes the log. The route imports this module when it starts (with
 * the page's chunk: the route's code is in every page's first download) and asks for the URL's
 * entries (`ensureQueryData`, not awaited: the page shows its skeleton and its own load error).
 */
export const auditQueries = {
  /** A page of the log's entries, newest first; `enabled`: the days can be sent. */
  list: (input: AuditListInput, enabled: boolean) =>
    trpc.audit.list.queryOptions(input, { placeholderData: keepPreviousData, enabled, meta: { showsErrors: true } }),
  /** The members and API keys that appear in the log, for the "who" filter. */
  actors: () => trpc.audit.actors.queryOptions(undefined, { staleTime: 60_000 }),
};

export type AuditSearch = SearchOf<typeof auditLogSearchSchema>;
type AuditListInput = ReturnType<typeof auditFilters> & { page: number; pageSize: number };

/**
 * The filters and page as the URL holds them, read by the page and its loader rather than by the
 * route (whose search schema would be in every page's first download: bench/bundle-size.ts): what
 * it cannot take is dropped, as the routes' schemas do.
 */
export function readAuditSearch(raw: unknown): AuditSearch {
  const result = auditLogSearchSchema['~standard'].validate(raw);
  return 'value' in result ? result.value : readAuditSearch({});
}

/** The list's filters, as the list and its export take them: the URL's, with the days typed (`from`, `to`: empty for none). */
export function auditFilters(search: AuditSearch, days: { from: string; to: string }) {
  const [actorKind, actorId] = search.actor?.split(':') ?? [];
  return {
    actorType: search.actorType,
    actorAccountId: actorKind === 'account' ? Number(actorId) : undefined,
    actorApiKeyId: actorKind === 'apiKey' ? Number(actorId) : undefined,
    action: search.action,
    entityType: search.entityType,
    entityId: search.entityId,
    channel: search.channel,
    from: days.from || undefined,
    to: days.to || undefined,
  };
}

/**
 * The audit log route's loader: the entries of the URL's filters and page (the date fields start
 * with the URL's days), unless the days cannot be sent (a day that does not exist, an end before
 * the start). Not the actors of the "who" filter: their failure is a toast of the query's own, which
 * a failed start would show twice.
 */
export function prefetchAuditLog(queryClient: QueryClient, raw: unknown): void {
  const search = readAuditSearch(raw);
  const days = { from: search.from ?? '', to: search.to ?? '' };
  const canSend = [days.from, days.to].every((day) => day === '' || isLocalDate(day)) && (!days.from || !days.to || days.from <= days.to);
  if (!canSend) return;
  const input = { page: search.page, pageSize: search.pageSize, ...auditFilters(search, days) };
  void queryClient.ensureQueryData(auditQueries.list(input, true)).catch(() => undefined);
}
