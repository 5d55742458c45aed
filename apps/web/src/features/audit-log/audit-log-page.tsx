import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { ScrollText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AUDIT_AREAS, auditActionKey } from '@console/shared';
import { PeriodError, PeriodFields } from '@/components/period-fields';
import { ExportButton } from '@/components/export-button';
import { ClearFiltersButton, ListPage, urlPagination } from '@/components/list-page';
import { QuickRangeButtons } from '@/components/quick-range-buttons';
import { RefreshButton } from '@/components/refresh-button';
import { EmptyState } from '@/components/ui/empty-state';
import { useHotelSettings } from '@/lib/hotel-settings';
import { withoutDefaults } from '@/lib/url-defaults';
import { usePeriodDraft } from '@/lib/use-date-draft';
import { auditFilters, auditQueries, readAuditSearch, type AuditSearch } from './api';
import { AuditEntryDialog } from './audit-entry-dialog';
import { AuditFilters, FilterBadge } from './audit-filters';
import type { AuditItem } from './audit-labels';
import { auditLogSearchDefaults } from './audit-log-search';
import { AuditTable } from './audit-table';

const route = getRouteApi('/_auth/auditLog');

/**
 * `/auditLog`: the hotel's audit log (issue 9 §6), newest first: who acted (a member, an API key, a
 * job, or nobody yet), the action (its area named in the operator's language, the action itself
 * beside it), its target, the face it came through and the address; filtered by who, area or
 * action, target, face and the hotel's days; each entry's before and after in a dialog. For
 * owners and administrators (`audit.read`).
 */
export function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const raw = route.useSearch();
  const search = useMemo(() => readAuditSearch(raw), [raw]);
  const navigate = route.useNavigate();
  const { timeZone } = useHotelSettings();
  // The entry shown stays while its dialog closes; the focus then goes back to the row's button.
  const [shown, setShown] = useState<{ entry: AuditItem; opener: HTMLElement | null; open: boolean } | null>(null);
  const setSearch = (patch: Partial<AuditSearch>) =>
    void navigate({ search: (prev) => withoutDefaults({ ...readAuditSearch(prev), ...patch }, auditLogSearchDefaults), replace: true });

  // The days as typed (the URL takes whole days only): a text that is not a day is said under the fields.
  const { from, setFrom, to, setTo, periodError } = usePeriodDraft(search, (patch) => setSearch({ ...patch, page: 1 }));

  // The list's filters, as the list and its export take them.
  const filters = auditFilters(search, { from, to });
  const list = useQuery(auditQueries.list({ page: search.page, pageSize: search.pageSize, ...filters }, periodError === null));
  const actors = useQuery(auditQueries.actors());
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => withoutDefaults({ ...readAuditSearch(prev), page: lastPage }, auditLogSearchDefaults), replace: true });
  }, [isPastEnd, lastPage, navigate]);

  const isArea = search.action === undefined || (AUDIT_AREAS as readonly string[]).includes(search.action);
  // The filters in words: an action's label (an entry's, else the locale's), a target as an entry names it.
  const actionWords = (action: string) =>
    items.find((i) => i.action === action)?.actionLabel ?? (i18n.exists(auditActionKey(action)) ? t(auditActionKey(action)) : action);
  const targetWords = (type: string, id: string) =>
    items.find((i) => i.target.type === type && i.target.id === id)?.target.label ?? `${t(`auditLog.targets.${type}`, { defaultValue: type })} #${id}`;
  const hasTarget = search.entityType !== undefined && search.entityId !== undefined;
  const activeFilters = [search.actorType, search.actor, search.action, search.entityType, search.channel, from || to || undefined].filter(
    (v) => v !== undefined,
  ).length;
  const isFiltered = activeFilters > 0 || search.entityId !== undefined;
  const clearFilters = () =>
    setSearch({
      actorType: undefined,
      actor: undefined,
      action: undefined,
      entityType: undefined,
      entityId: undefined,
      channel: undefined,
      from: undefined,
      to: undefined,
      page: 1,
    });

  return (
    <>
      <ListPage
        title={t('route.auditLog')}
        query={list}
        what={t('auditLog.listWhat')}
        activeFilters={activeFilters}
        filters={
          <>
            <AuditFilters search={search} setSearch={setSearch} isArea={isArea} actionWords={actionWords} actors={actors} />
            <QuickRangeButtons
              from={from}
              to={to}
              timeZone={timeZone}
              onPick={(period) => setSearch({ ...period, page: 1 })}
              testIdPrefix="audit-range"
              className="self-end"
            />
            <PeriodFields idPrefix="audit" timeZone={timeZone} from={from} to={to} onFromChange={setFrom} onToChange={setTo} hasError={periodError !== null} />
          </>
        }
        toolbarEnd={
          <>
            {isFiltered && <ClearFiltersButton onClick={clearFilters} data-testid="audit-clear" />}
            {periodError === null && (
              <ExportButton
                list="auditLog"
                filters={filters}
                page={search.page}
                pageSize={search.pageSize}
                total={total}
                totalCapped={list.data?.totalCapped ?? false}
                what={t('route.auditLog')}
              />
            )}
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} disabled={periodError !== null} />
          </>
        }
        toolbarBelow={
          (periodError || !isArea || hasTarget) && (
            <div className="flex flex-wrap items-center gap-2">
              {!isArea && search.action && (
                <FilterBadge
                  label={t('auditLog.actionFilter', { action: actionWords(search.action) })}
                  clearLabel={t('auditLog.removeFilter')}
                  onClear={() => setSearch({ action: undefined, page: 1 })}
                  testId="audit-action-filter"
                />
              )}
              {search.entityType !== undefined && search.entityId !== undefined && (
                <FilterBadge
                  label={t('auditLog.targetFilter', { target: targetWords(search.entityType, search.entityId) })}
                  clearLabel={t('auditLog.removeFilter')}
                  onClear={() => setSearch({ entityId: undefined, page: 1 })}
                  testId="audit-target-filter"
                />
              )}
              {periodError && <PeriodError idPrefix="audit" error={periodError} className="basis-full" />}
            </div>
          )
        }
        isBlocked={periodError !== null}
        isEmpty={total === 0 || items.length === 0}
        empty={
          <EmptyState
            icon={ScrollText}
            title={t('auditLog.emptyTitle')}
            description={isFiltered ? t('auditLog.emptyFilteredText') : t('auditLog.emptyText')}
            action={isFiltered ? <ClearFiltersButton variant="outline" onClick={clearFilters} /> : undefined}
            data-testid="audit-empty"
          />
        }
        pagination={urlPagination(search, setSearch, total, { totalCapped: list.data?.totalCapped ?? false })}
        data-testid="audit-log-page"
      >
        <AuditTable items={items} timeZone={timeZone} setSearch={setSearch} onShow={(entry, opener) => setShown({ entry, opener, open: true })} />
      </ListPage>
      <AuditEntryDialog
        entry={shown?.entry ?? null}
        open={shown?.open ?? false}
        timeZone={timeZone}
        returnFocusTo={shown?.opener}
        onClose={() => setShown((s) => (s ? { ...s, open: false } : s))}
      />
    </>
  );
}
