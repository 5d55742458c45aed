import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { SearchOf } from '@/lib/url-search';
import { STAY_FILTERS, ZStayListInput } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { ClearFiltersButton, ListPage, urlPagination } from '@/components/list-page';
import { RoomFilter } from '@/components/room-filter';
import { ExportButton } from '@/components/export-button';
import { RefreshButton } from '@/components/refresh-button';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/search-input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fieldMessage } from '@/lib/field-message';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useDateDraft } from '@/lib/use-date-draft';
import { usePhone } from '@/lib/use-phone';
import { useSearchBox } from '@/lib/use-search-box';
import { stayListInput, stayQueries } from './api';
import { StayListCards, StayListTable } from './stay-list-rows';
import type { stayListSearchSchema } from './stay-list-search';

type StayFilter = (typeof STAY_FILTERS)[number];

type StayListSearch = SearchOf<typeof stayListSearchSchema>;

const route = getRouteApi('/_auth/room/tenant');

/** Filters that are not stay states have their own labels; the others are the `stayState.*` texts. */
function filterLabel(t: TFunction, filter: StayFilter): string {
  if (filter === 'all') return t('stays.filterAll');
  if (filter === 'current') return t('stays.filterCurrent');
  return t(`stayState.${filter}`);
}

/**
 * `/room/tenant`: every stay of the hotel's rooms, filtered by state, dates, room and guest. On a
 * phone (issue 26 §3) each stay is a card, with what the guest owes on its first line.
 */
export function StayListPage() {
  const { t } = useTranslation();
  const isPhone = usePhone();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { timeZone, currency } = useHotelSettings();

  const setSearch = (patch: Partial<StayListSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  // Typing filters after a short pause; the first page of the new result is shown.
  const { ref: searchBox, text: guestText, setText: setGuestText } = useSearchBox(search.guest, (text) => setSearch({ guest: text, page: 1 }));

  const listInput = stayListInput(search);
  // The shared rules say whether the filters can be sent (an end date before the start cannot).
  const checked = ZStayListInput.safeParse(listInput);
  const dateError = checked.success ? undefined : checked.error.issues.find((issue) => issue.path[0] === 'to' || issue.path[0] === 'from')?.message;
  const list = useQuery({ ...stayQueries.list(listInput), enabled: checked.success });
  // The chosen room is named from the URL's id (a reload, a shared link).
  const filterRoom = useQuery(stayQueries.filterRoom(search.roomId));

  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];
  const isFiltered = search.state !== 'all' || Boolean(search.from || search.to || search.roomId !== undefined || search.guest);
  const activeFilters = [search.state !== 'all', search.roomId !== undefined, Boolean(search.from), Boolean(search.to)].filter(Boolean).length;

  const clearFilters = () => {
    setGuestText('');
    setSearch({ state: 'all', from: undefined, to: undefined, roomId: undefined, guest: '', page: 1 });
  };

  return (
    <ListPage
      title={t('route.stays')}
      query={list}
      what={t('stays.listWhat')}
      isBlocked={!checked.success}
      search={
        <div className="grid min-w-0 flex-1 basis-48 gap-1.5 sm:max-w-xs">
          <Label htmlFor="stay-list-guest">{t('stays.guestSearch')}</Label>
          <SearchInput
            id="stay-list-guest"
            ref={searchBox}
            value={guestText}
            onChange={(e) => setGuestText(e.target.value)}
            placeholder={t('stays.guestSearchPlaceholder')}
            data-testid="stay-list-guest-search"
          />
        </div>
      }
      activeFilters={activeFilters}
      filters={
        <>
          <div className="grid gap-1.5 self-start">
            <Label htmlFor="stay-list-state">{t('stays.state')}</Label>
            <Select value={search.state} onValueChange={(value) => setSearch({ state: value as StayFilter, page: 1 })}>
              <SelectTrigger id="stay-list-state" className="w-44" data-testid="stay-list-state-filter">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {STAY_FILTERS.map((filter) => (
                  <SelectItem key={filter} value={filter}>
                    {filterLabel(t, filter)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <RoomFilter
            id="stay-list-room"
            roomId={search.roomId}
            roomName={filterRoom.data?.name}
            onChange={(roomId) => setSearch({ roomId, page: 1 })}
            className="self-start"
            data-testid="stay-list-room-filter"
            clearTestId="stay-list-room-clear"
          />
          <DateFilter id="stay-list-from" label={t('stays.from')} value={search.from} onChange={(from) => setSearch({ from, page: 1 })} timeZone={timeZone} />
          <DateFilter
            id="stay-list-to"
            label={t('stays.to')}
            value={search.to}
            onChange={(to) => setSearch({ to, page: 1 })}
            timeZone={timeZone}
            invalid={Boolean(dateError)}
            describedBy={dateError ? 'stay-list-to-error' : undefined}
          />
        </>
      }
      toolbarEnd={
        <>
          {isFiltered && <ClearFiltersButton onClick={clearFilters} />}
          {checked.success && (
            <ExportButton
              list="stays"
              filters={{ state: search.state, from: search.from, to: search.to, roomId: search.roomId, guest: search.guest || undefined }}
              page={search.page}
              pageSize={search.pageSize}
              total={total}
              what={t('route.stays')}
            />
          )}
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} disabled={!checked.success} />
        </>
      }
      toolbarBelow={
        dateError && (
          <p id="stay-list-to-error" role="alert" className="text-destructive text-sm">
            {fieldMessage(t, dateError)}
          </p>
        )
      }
      isEmpty={total === 0}
      empty={
        <EmptyState
          icon={UserRound}
          title={isFiltered ? t('stays.emptyFilteredTitle') : t('stays.emptyTitle')}
          description={isFiltered ? t('stays.emptyFilteredText') : t('stays.emptyText')}
          action={isFiltered ? <ClearFiltersButton variant="outline" onClick={clearFilters} /> : undefined}
          data-testid="stay-list-empty"
        />
      }
      pagination={urlPagination(search, setSearch, total)}
      data-testid="stay-list-page"
    >
      {isPhone ? (
        <StayListCards items={items} currency={currency} timeZone={timeZone} />
      ) : (
        <StayListTable items={items} currency={currency} timeZone={timeZone} />
      )}
    </ListPage>
  );
}

/**
 * A date filter in the console's language: what is typed stays in the field (which says when it
 * is not a day), and reaches the URL (and the list) once it is a whole date, or empty.
 */
function DateFilter({
  id,
  label,
  value,
  onChange,
  timeZone,
  invalid,
  describedBy,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange(value: string | undefined): void;
  timeZone: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const [text, setText] = useDateDraft(value, onChange);
  return (
    <div className="grid gap-1.5 self-start">
      <Label htmlFor={id}>{label}</Label>
      <DateTimeField
        id={id}
        withTime={false}
        timeZone={timeZone}
        value={text}
        onChange={setText}
        invalid={invalid}
        describedBy={describedBy}
        className="w-48"
        data-testid={id}
      />
    </div>
  );
}
