import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '@/components/export-button';
import { ListPage, urlPagination } from '@/components/list-page';
import { ListSearchInput } from '@/components/list-search';
import { ListTable } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { StayStateBadge } from '@/components/status-badges';
import { EmptyState } from '@/components/ui/empty-state';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import type { SearchOf } from '@/lib/url-search';
import { useSearchBox } from '@/lib/use-search-box';
import { guestFilters, guestQueries } from './api';
import type { guestsSearchSchema } from './guests-search';

type GuestsSearch = SearchOf<typeof guestsSearchSchema>;
const route = getRouteApi('/_auth/room/guests');

/**
 * `/room/guests`: every guest of the hotel's stays, the co-guests too (the stays list names the
 * main guest only), newest stay first, searched by name, mobile or ID number, all of them or only
 * those of current stays; each one opens the guest page, and the list exports to .xlsx. A staff
 * member sees the guests of their rooms only (the server's rule).
 */
export function GuestsPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { timeZone } = useHotelSettings();
  const setSearch = (patch: Partial<GuestsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => setSearch({ search: text, page: 1 }));
  const filters = guestFilters(search);
  const list = useQuery(guestQueries.list(search));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const isFiltered = search.search !== '' || search.show !== 'all';

  return (
    <ListPage
      title={t('route.guests')}
      query={list}
      what={t('guests.listWhat')}
      search={
        <ListSearchInput
          ref={searchBox}
          text={searchText}
          onTextChange={setSearchText}
          placeholder={t('guests.searchPlaceholder')}
          data-testid="guests-search"
        />
      }
      filters={
        <ToggleGroup
          type="single"
          value={search.show}
          onValueChange={(value) => value && setSearch({ show: value === 'current' ? 'current' : 'all', page: 1 })}
          aria-label={t('guests.show')}
        >
          <ToggleGroupItem value="all" data-testid="guests-show-all">
            {t('guests.showAll')}
          </ToggleGroupItem>
          <ToggleGroupItem value="current" data-testid="guests-show-current">
            {t('guests.showCurrent')}
          </ToggleGroupItem>
        </ToggleGroup>
      }
      activeFilters={search.show === 'all' ? 0 : 1}
      toolbarEnd={
        <>
          <ExportButton list="guests" filters={filters} page={search.page} pageSize={search.pageSize} total={total} what={t('route.guests')} />
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
        </>
      }
      isEmpty={total === 0 || items.length === 0}
      empty={
        <EmptyState
          icon={Users}
          title={isFiltered ? t('guests.emptyFilteredTitle') : t('guests.emptyTitle')}
          description={isFiltered ? t('guests.emptyFilteredText') : t('guests.emptyText')}
          data-testid="guests-empty"
        />
      }
      pagination={urlPagination(search, setSearch, total)}
      data-testid="guests-page"
    >
      <ListTable
        aria-label={t('route.guests')}
        data-testid="guests-table"
        head={
          <>
            <TableHead>{t('stays.guestName')}</TableHead>
            <TableHead>{t('customer.mobile')}</TableHead>
            <TableHead className="hidden lg:table-cell">{t('export.columns.idNumber')}</TableHead>
            <TableHead>{t('stays.room')}</TableHead>
            <TableHead>{t('stays.state')}</TableHead>
            <TableHead className="hidden md:table-cell">{t('stays.checkIn')}</TableHead>
            <TableHead className="hidden md:table-cell">{t('stays.expectedCheckOut')}</TableHead>
          </>
        }
      >
        {items.map((guest) => (
          <TableRow key={guest.id} data-testid={`guest-row-${guest.id}`} data-stay={guest.stayId}>
            <TableCell>
              <Link to="/room/thetouristsDetails" search={{ id: guest.id }} className="text-primary font-medium hover:underline" dir="auto">
                {guest.name}
              </Link>
            </TableCell>
            <TableCell className="tabular-nums" dir="ltr">
              {guest.mobile || '—'}
            </TableCell>
            <TableCell className="hidden tabular-nums lg:table-cell" dir="ltr">
              {guest.idNumber || '—'}
            </TableCell>
            <TableCell>
              <Link to="/room/$roomId" params={{ roomId: guest.roomId }} className="hover:underline" dir="auto">
                {guest.roomName}
              </Link>
            </TableCell>
            <TableCell>
              <StayStateBadge state={guest.state} />
            </TableCell>
            <TableCell className="hidden tabular-nums md:table-cell">{formatDateTime(guest.checkInAt, timeZone)}</TableCell>
            <TableCell className="hidden tabular-nums md:table-cell">{formatDateTime(guest.expectedCheckOutAt, timeZone)}</TableCell>
          </TableRow>
        ))}
      </ListTable>
    </ListPage>
  );
}
