import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { FileSearch, ScrollText, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { AUDIT_AREAS, AUDIT_ENTITY_TYPES, QUICK_RANGES, auditActionKey, isLocalDate } from '@console/shared';
import { PeriodFields } from '@/components/period-fields';
import { ExportButton } from '@/components/export-button';
import { ListPage, urlPagination } from '@/components/list-page';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useDateDraft } from '@/lib/use-date-draft';
import { todayInHotel } from '@/lib/hotel-time';
import { quickRange } from '@/lib/quick-range';
import { auditFilters, auditQueries, readAuditSearch, type AuditSearch } from './api';
import { AuditEntryDialog } from './audit-entry-dialog';
import { ActionName, ActorName, ChannelBadge, TargetName, type AuditItem } from './audit-labels';
import { AUDIT_ACTOR_TYPES, AUDIT_CHANNELS, auditLogSearchDefaults } from './audit-log-search';

const route = getRouteApi('/_auth/auditLog');

/** What goes into the URL: the values set, those equal to the defaults left out. */
function inUrl(search: AuditSearch): Record<string, unknown> {
  const defaults: Record<string, unknown> = auditLogSearchDefaults;
  return Object.fromEntries(Object.entries(search).filter(([key, value]) => value !== undefined && defaults[key] !== value));
}

const ALL = '';

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
  const setSearch = (patch: Partial<AuditSearch>) => void navigate({ search: (prev) => inUrl({ ...readAuditSearch(prev), ...patch }), replace: true });

  // The days as typed (the URL takes whole days only): a text that is not a day is said under the fields.
  const [from, setFrom] = useDateDraft(search.from, (value) => setSearch({ from: value, page: 1 }));
  const [to, setTo] = useDateDraft(search.to, (value) => setSearch({ to: value, page: 1 }));
  const badDate = [from, to].some((date) => date !== '' && !isLocalDate(date));
  const periodError = badDate ? 'validation.dateInvalid' : !from || !to || from <= to ? null : 'validation.endAfterStart';
  const activeRange = QUICK_RANGES.find((range) => {
    const r = quickRange(range, todayInHotel(timeZone));
    return r.from === from && r.to === to;
  });

  // The list's filters, as the list and its export take them.
  const filters = auditFilters(search, { from, to });
  const list = useQuery(auditQueries.list({ page: search.page, pageSize: search.pageSize, ...filters }, periodError === null));
  const actors = useQuery(auditQueries.actors());
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => inUrl({ ...readAuditSearch(prev), page: lastPage }), replace: true });
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

  const selectField = (id: string, label: string, control: React.ReactNode) => (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {control}
    </div>
  );

  return (
    <>
      <ListPage
        title={t('route.auditLog')}
        query={list}
        what={t('auditLog.listWhat')}
        activeFilters={activeFilters}
        filters={
          <>
            {selectField(
              'audit-area',
              t('auditLog.filters.area'),
              <NativeSelect
                id="audit-area"
                wrapperClassName="w-44"
                value={isArea ? (search.action ?? ALL) : search.action}
                onChange={(e) => setSearch({ action: e.target.value || undefined, page: 1 })}
                data-testid="audit-area"
              >
                <NativeSelectOption value={ALL}>{t('auditLog.filters.allAreas')}</NativeSelectOption>
                {!isArea && search.action && <NativeSelectOption value={search.action}>{actionWords(search.action)}</NativeSelectOption>}
                {AUDIT_AREAS.map((area) => (
                  <NativeSelectOption key={area} value={area}>
                    {t(`auditLog.areas.${area}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>,
            )}
            {selectField(
              'audit-actor-type',
              t('auditLog.filters.actorType'),
              <NativeSelect
                id="audit-actor-type"
                wrapperClassName="w-40"
                value={search.actorType ?? ALL}
                onChange={(e) => setSearch({ actorType: (e.target.value || undefined) as AuditSearch['actorType'], page: 1 })}
                data-testid="audit-actor-type"
              >
                <NativeSelectOption value={ALL}>{t('auditLog.filters.allActorTypes')}</NativeSelectOption>
                {AUDIT_ACTOR_TYPES.map((type) => (
                  <NativeSelectOption key={type} value={type}>
                    {t(`auditLog.actorTypes.${type}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>,
            )}
            {selectField(
              'audit-actor',
              t('auditLog.filters.actor'),
              <NativeSelect
                id="audit-actor"
                wrapperClassName="w-48"
                value={search.actor ?? ALL}
                onChange={(e) => setSearch({ actor: e.target.value || undefined, page: 1 })}
                data-testid="audit-actor"
              >
                <NativeSelectOption value={ALL}>{t('auditLog.filters.allActors')}</NativeSelectOption>
                {search.actor && !actors.data && (
                  <NativeSelectOption value={search.actor}>{actors.isLoading ? t('common.loading') : search.actor}</NativeSelectOption>
                )}
                {actors.data && actors.data.accounts.length > 0 && (
                  <optgroup label={t('auditLog.filters.members')}>
                    {actors.data.accounts.map((a) => (
                      <NativeSelectOption key={a.id} value={`account:${a.id}`}>
                        {a.name || a.mobile || a.email || `#${a.id}`}
                      </NativeSelectOption>
                    ))}
                  </optgroup>
                )}
                {actors.data && actors.data.apiKeys.length > 0 && (
                  <optgroup label={t('auditLog.filters.apiKeys')}>
                    {actors.data.apiKeys.map((k) => (
                      <NativeSelectOption key={k.id} value={`apiKey:${k.id}`}>
                        {k.revoked ? t('auditLog.revokedKey', { name: k.name }) : k.name}
                      </NativeSelectOption>
                    ))}
                  </optgroup>
                )}
              </NativeSelect>,
            )}
            {selectField(
              'audit-channel',
              t('auditLog.filters.channel'),
              <NativeSelect
                id="audit-channel"
                wrapperClassName="w-44"
                value={search.channel ?? ALL}
                onChange={(e) => setSearch({ channel: (e.target.value || undefined) as AuditSearch['channel'], page: 1 })}
                data-testid="audit-channel"
              >
                <NativeSelectOption value={ALL}>{t('auditLog.filters.allChannels')}</NativeSelectOption>
                {AUDIT_CHANNELS.map((channel) => (
                  <NativeSelectOption key={channel} value={channel}>
                    {t(`auditLog.channels.${channel}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>,
            )}
            {selectField(
              'audit-target-type',
              t('auditLog.filters.target'),
              <NativeSelect
                id="audit-target-type"
                wrapperClassName="w-44"
                value={search.entityType ?? ALL}
                onChange={(e) => setSearch({ entityType: e.target.value || undefined, entityId: undefined, page: 1 })}
                data-testid="audit-target-type"
              >
                <NativeSelectOption value={ALL}>{t('auditLog.filters.allTargets')}</NativeSelectOption>
                {search.entityType && !(AUDIT_ENTITY_TYPES as readonly string[]).includes(search.entityType) && (
                  <NativeSelectOption value={search.entityType}>{search.entityType}</NativeSelectOption>
                )}
                {AUDIT_ENTITY_TYPES.map((type) => (
                  <NativeSelectOption key={type} value={type}>
                    {t(`auditLog.targets.${type}`)}
                  </NativeSelectOption>
                ))}
              </NativeSelect>,
            )}
            <div className="flex flex-wrap gap-2 self-end" role="group" aria-label={t('frontDesk.detail.unlockQuickRange')}>
              {QUICK_RANGES.map((range) => (
                <Button
                  key={range}
                  type="button"
                  size="sm"
                  variant={activeRange === range ? 'default' : 'outline'}
                  aria-pressed={activeRange === range}
                  onClick={() => setSearch({ ...quickRange(range, todayInHotel(timeZone)), page: 1 })}
                  data-testid={`audit-range-${range}`}
                >
                  {t(`frontDesk.detail.unlockRanges.${range}`)}
                </Button>
              ))}
            </div>
            <PeriodFields idPrefix="audit" timeZone={timeZone} from={from} to={to} onFromChange={setFrom} onToChange={setTo} hasError={periodError !== null} />
          </>
        }
        toolbarEnd={
          <>
            {isFiltered && (
              <Button variant="ghost" onClick={clearFilters} data-testid="audit-clear">
                {t('common.clearFilters')}
              </Button>
            )}
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
              {periodError && (
                <p id="audit-period-error" role="alert" className="text-destructive basis-full text-sm">
                  {t(periodError)}
                </p>
              )}
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
            action={
              isFiltered ? (
                <Button variant="outline" onClick={clearFilters}>
                  {t('common.clearFilters')}
                </Button>
              ) : undefined
            }
            data-testid="audit-empty"
          />
        }
        pagination={urlPagination(search, setSearch, total, { totalCapped: list.data?.totalCapped ?? false })}
        data-testid="audit-log-page"
      >
        <Table data-testid="audit-table" aria-label={t('route.auditLog')}>
          <TableHeader>
            <TableRow>
              <TableHead>{t('auditLog.columns.time')}</TableHead>
              <TableHead>{t('auditLog.columns.actor')}</TableHead>
              <TableHead>{t('auditLog.columns.action')}</TableHead>
              <TableHead>{t('auditLog.columns.target')}</TableHead>
              <TableHead>{t('auditLog.columns.channel')}</TableHead>
              <TableHead className="hidden lg:table-cell">{t('auditLog.columns.address')}</TableHead>
              <TableHead>
                <span className="sr-only">{t('auditLog.columns.details')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((item) => (
              <TableRow key={item.id} data-testid={`audit-${item.id}`} data-action={item.action}>
                <TableCell className="whitespace-nowrap tabular-nums">
                  <time dateTime={item.at}>{formatDateTime(item.at, timeZone)}</time>
                </TableCell>
                <TableCell>
                  <ActorName actor={item.actor} />
                </TableCell>
                <TableCell>
                  <button
                    type="button"
                    className="focus-visible:ring-ring rounded-sm text-start outline-none hover:underline focus-visible:ring-2"
                    onClick={() => setSearch({ action: item.action, page: 1 })}
                    title={t('auditLog.onlyThisAction')}
                    data-testid="audit-action"
                  >
                    <ActionName action={item.action} label={item.actionLabel} />
                  </button>
                </TableCell>
                <TableCell>
                  {item.target.type && item.target.id ? (
                    <button
                      type="button"
                      className="focus-visible:ring-ring rounded-sm text-start outline-none hover:underline focus-visible:ring-2"
                      onClick={() => setSearch({ entityType: item.target.type ?? undefined, entityId: item.target.id ?? undefined, page: 1 })}
                      title={t('auditLog.historyOfTarget')}
                      data-testid="audit-target"
                    >
                      <TargetName target={item.target} />
                    </button>
                  ) : (
                    <TargetName target={item.target} />
                  )}
                </TableCell>
                <TableCell>
                  <ChannelBadge channel={item.channel} />
                </TableCell>
                <TableCell className="hidden font-mono text-xs lg:table-cell" dir="ltr">
                  {item.ip ?? '—'}
                </TableCell>
                <TableCell className="text-end">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    onClick={(event) => setShown({ entry: item, opener: event.currentTarget, open: true })}
                    aria-label={t('auditLog.viewDetails', { action: item.actionLabel })}
                    data-testid="audit-details"
                  >
                    <FileSearch aria-hidden />
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
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

function FilterBadge({ label, clearLabel, onClear, testId }: { label: string; clearLabel: string; onClear(): void; testId: string }) {
  return (
    <Badge variant="secondary" className="gap-1 py-1 text-sm" data-testid={testId}>
      <span dir="auto">{label}</span>
      <button type="button" className="focus-visible:ring-ring ms-1 rounded-sm outline-none focus-visible:ring-2" onClick={onClear} aria-label={clearLabel}>
        <X className="size-3.5" aria-hidden />
      </button>
    </Badge>
  );
}
