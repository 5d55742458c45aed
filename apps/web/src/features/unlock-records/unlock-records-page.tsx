import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { History, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PeriodError, PeriodFields } from '@/components/period-fields';
import { ClearFiltersButton, ListPage, urlPagination } from '@/components/list-page';
import { QuickRangeButtons } from '@/components/quick-range-buttons';
import { ExportButton } from '@/components/export-button';
import { RefreshButton } from '@/components/refresh-button';
import { RoomFilter } from '@/components/room-filter';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { usePeriodDraft } from '@/lib/use-date-draft';
import type { SearchOf } from '@/lib/url-search';
import { useSearchBox } from '@/lib/use-search-box';
import { unlockRecordQueries } from './api';
import type { unlockRecordsSearchSchema } from './unlock-records-search';

type RecordsSearch = SearchOf<typeof unlockRecordsSearchSchema>;
const route = getRouteApi('/_auth/unlock-records');

/**
 * `/unlock-records`: the hotel's unlock records by person (spec §4 "records by person"): whose
 * name contains the text, or those of one credential (`?credential=password:12`, linked from
 * other screens), in a room, between two dates (today, yesterday, the last week, or any), newest
 * first, paged.
 */
export function UnlockRecordsPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { timeZone } = useHotelSettings();
  const setSearch = (patch: Partial<RecordsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.person, (text) => setSearch({ person: text, page: 1 }));

  // The days as typed (the URL takes whole days only): a text that is not a day is said under the fields.
  const { from, setFrom, to, setTo, periodError } = usePeriodDraft(search, (patch) => setSearch({ ...patch, page: 1 }));

  const list = useQuery(unlockRecordQueries.list(search, { from, to }, periodError === null));
  const filterRoom = useQuery(unlockRecordQueries.room(search.roomId));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const isFiltered = Boolean(search.person || search.credential || search.roomId !== undefined || from || to);

  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => ({ ...prev, page: lastPage }), replace: true });
  }, [isPastEnd, lastPage, navigate]);

  const clearFilters = () => {
    setSearchText('');
    setSearch({ person: '', credential: undefined, roomId: undefined, from: undefined, to: undefined, page: 1 });
  };
  const [credentialKind, credentialId] = search.credential?.split(':') ?? [];

  return (
    <ListPage
      title={t('route.unlockRecords')}
      query={list}
      what={t('unlockRecords.listWhat')}
      search={
        <SearchInput
          wrapperClassName="min-w-0 flex-1 basis-48 sm:max-w-xs"
          ref={searchBox}
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          placeholder={t('unlockRecords.searchPlaceholder')}
          aria-label={t('unlockRecords.searchPlaceholder')}
          data-testid="records-person"
        />
      }
      activeFilters={[search.roomId !== undefined, Boolean(from || to)].filter(Boolean).length}
      filters={
        <>
          <QuickRangeButtons
            from={from}
            to={to}
            timeZone={timeZone}
            onPick={(period) => setSearch({ ...period, page: 1 })}
            testIdPrefix="records-range"
            className="self-end"
          />
          <PeriodFields idPrefix="records" timeZone={timeZone} from={from} to={to} onFromChange={setFrom} onToChange={setTo} hasError={periodError !== null} />
          <RoomFilter
            id="records-room"
            roomId={search.roomId}
            roomName={filterRoom.data?.name}
            onChange={(roomId) => setSearch({ roomId, page: 1 })}
            data-testid="records-room"
          />
        </>
      }
      toolbarEnd={
        <>
          {isFiltered && <ClearFiltersButton onClick={clearFilters} />}
          {periodError === null && (
            <ExportButton
              list="unlockRecords"
              filters={{
                person: search.person || undefined,
                credential: search.credential,
                roomId: search.roomId,
                from: from || undefined,
                to: to || undefined,
              }}
              page={search.page}
              pageSize={search.pageSize}
              total={total}
              totalCapped={list.data?.totalCapped ?? false}
              what={t('route.unlockRecords')}
            />
          )}
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} disabled={periodError !== null} />
        </>
      }
      toolbarBelow={
        (periodError || search.credential) && (
          <div className="grid gap-2">
            {search.credential && (
              <Badge variant="secondary" className="gap-1 py-1 text-sm" data-testid="records-credential">
                {t('unlockRecords.ofCredential', { credential: `${t(`frontDesk.detail.unlockStyles.${credentialKind}`)} #${credentialId}` })}
                <button
                  type="button"
                  className="focus-visible:ring-ring ms-1 rounded-sm outline-none focus-visible:ring-2"
                  onClick={() => setSearch({ credential: undefined, page: 1 })}
                  aria-label={t('unlockRecords.allCredentials')}
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </Badge>
            )}
            {periodError && <PeriodError idPrefix="records" error={periodError} />}
          </div>
        )
      }
      isBlocked={periodError !== null}
      isEmpty={total === 0 || items.length === 0}
      empty={
        <EmptyState
          icon={History}
          title={t('frontDesk.detail.unlockEmptyTitle')}
          description={isFiltered ? t('unlockRecords.emptyFilteredText') : t('frontDesk.detail.unlockEmptyText')}
          action={isFiltered ? <ClearFiltersButton variant="outline" onClick={clearFilters} /> : undefined}
          data-testid="records-empty"
        />
      }
      pagination={urlPagination(search, setSearch, total, { totalCapped: list.data?.totalCapped ?? false })}
      data-testid="unlock-records-page"
    >
      <Table data-testid="records-table" aria-label={t('route.unlockRecords')}>
        <TableHeader>
          <TableRow>
            <TableHead>{t('frontDesk.detail.unlockTime')}</TableHead>
            <TableHead>{t('stays.room')}</TableHead>
            <TableHead>{t('unlockRecords.person')}</TableHead>
            <TableHead>{t('frontDesk.detail.unlockStyle')}</TableHead>
            <TableHead>{t('unlockRecords.result')}</TableHead>
            <TableHead className="hidden md:table-cell">{t('frontDesk.detail.unlockContent')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.map((record) => (
            <TableRow key={record.id} data-testid={`record-${record.id}`} data-success={record.success}>
              <TableCell className="whitespace-nowrap tabular-nums">
                <time dateTime={record.occurredAt}>{formatDateTime(record.occurredAt, timeZone)}</time>
              </TableCell>
              <TableCell className="font-medium">
                <Link
                  to="/room/$roomId"
                  params={{ roomId: record.roomId }}
                  search={{ tab: 'unlock' }}
                  className="focus-visible:ring-ring rounded-sm outline-none hover:underline focus-visible:ring-2"
                >
                  {record.roomName}
                </Link>
                {/* A shared door's record: which door, and the stay whose key opened it. */}
                {record.door && (
                  <span className="text-muted-foreground block text-xs font-normal" dir="auto" data-testid="record-door">
                    {t('unlockRecords.atDoor', { door: record.door.name })}
                  </span>
                )}
                {record.stayId !== null && (
                  <Link
                    to="/room/$roomId"
                    params={{ roomId: record.roomId }}
                    className="text-muted-foreground block text-xs font-normal hover:underline"
                    data-testid="record-stay"
                  >
                    {t('unlockRecords.stay', { id: record.stayId })}
                  </Link>
                )}
              </TableCell>
              <TableCell dir="auto">{record.operator || '—'}</TableCell>
              <TableCell className="whitespace-nowrap">{t(`frontDesk.detail.unlockStyles.${record.style}`)}</TableCell>
              <TableCell className="whitespace-nowrap">
                <Badge variant={record.success ? 'success' : 'destructive'}>{record.success ? t('unlockRecords.succeeded') : t('unlockRecords.failed')}</Badge>
              </TableCell>
              <TableCell className="hidden md:table-cell">
                {t(`frontDesk.detail.unlockEvents.${record.event}`)}
                <span className="text-muted-foreground ms-1 text-xs">· {t(`frontDesk.detail.unlockSources.${record.source}`)}</span>
                {record.reason && (
                  <span className="text-destructive block text-xs" data-testid="unlock-refusal">
                    {t(`frontDesk.detail.refusals.${record.reason}`, { defaultValue: t('frontDesk.detail.refusals.other') })}
                  </span>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ListPage>
  );
}
