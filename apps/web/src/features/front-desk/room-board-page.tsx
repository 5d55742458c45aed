import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { BedDouble, LayoutGrid, List, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LIMITS, ROOM_PAGE_SIZE_DEFAULT, ROOM_SORTS, ROOM_STATUSES } from '@console/shared';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/search-input';
import { ListPagination } from '@/components/list-pagination';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { useSearchBox } from '@/lib/use-search-box';
import { AddRoomDialog } from './add-room-dialog';
import { StayActionDialogs, useStayActions } from './stay-action-dialogs';
import { RoomTable, RoomTableSkeleton } from './room-table';
import { RoomTiles, RoomTilesSkeleton } from './room-tiles';
import { RoomStatusFilter } from './room-status-filter';

export const ROOM_BOARD_VIEWS = ['tiles', 'table'] as const;
const PAGE_SIZE_OPTIONS = [20, 50, 100] as const;

/** The board's filters live in the URL, so a reload or a shared link shows the same rooms. */
export const roomBoardSearchSchema = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(ROOM_PAGE_SIZE_DEFAULT).default(ROOM_PAGE_SIZE_DEFAULT),
  status: z.enum(ROOM_STATUSES).optional().catch(undefined),
  // A search of digits (a room number) comes back from the URL as a number: it is still text.
  search: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
  groupId: z.number().int().positive().optional().catch(undefined),
  sort: z.enum(ROOM_SORTS).catch('default').default('default'),
  view: z.enum(ROOM_BOARD_VIEWS).catch('tiles').default('tiles'),
});
type RoomBoardSearch = z.output<typeof roomBoardSearchSchema>;

/** Values equal to these are left out of the URL. */
export const roomBoardSearchDefaults = { page: 1, pageSize: ROOM_PAGE_SIZE_DEFAULT, search: '', sort: 'default', view: 'tiles' } as const;

const route = getRouteApi('/_auth/room/');
const ALL_GROUPS = 'all';

/** `/room`: the room board, where signed-in members land (spec §2, §4). */
export function RoomBoardPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const user = useUserInfo();
  const timeZone = user?.hotel.timeZone ?? 'UTC';
  const canManageRooms = hasPermission(user, 'room.manage');
  const canManageStays = hasPermission(user, 'stay.manage');
  const [isAdding, setIsAdding] = useState(false);
  const stayActions = useStayActions();

  const setSearch = (patch: Partial<RoomBoardSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  // Typing filters after a short pause; the first page of the new result is shown.
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => setSearch({ search: text, page: 1 }));

  const listInput = { page: search.page, pageSize: search.pageSize, status: search.status, search: search.search || undefined, groupId: search.groupId, sort: search.sort };
  const list = useQuery(trpc.room.list.queryOptions(listInput, { placeholderData: keepPreviousData }));
  const groups = useQuery(trpc.roomGroup.list.queryOptions());

  const total = list.data?.total ?? 0;

  // A page past the end (rooms deleted, a stale link) goes back to the last page that has rooms.
  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && search.page > lastPage) setSearch({ page: lastPage });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [list.data, list.isPlaceholderData, search.page, lastPage]);
  const isFiltered = Boolean(search.search) || search.status !== undefined || search.groupId !== undefined;
  const clearFilters = () => {
    setSearchText('');
    setSearch({ search: '', status: undefined, groupId: undefined, page: 1 });
  };
  const viewProps = {
    rooms: list.data?.items ?? [],
    timeZone,
    canManageStays,
    loadingStayId: stayActions.loadingStayId,
    onCheckIn: (room: { id: number; name: string }) => stayActions.openCheckIn({ id: room.id, name: room.name }),
    onCheckOut: (stayId: number) => stayActions.openForStay('check-out', stayId),
  };

  return (
    <div className="space-y-4" data-testid="room-board">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <h1 className="text-xl font-semibold">{t('route.roomBoard')}</h1>
          {list.isFetching && !list.isLoading && <Spinner className="text-muted-foreground" />}
        </div>
        {canManageRooms && (
          <Button onClick={() => setIsAdding(true)} data-testid="add-room">
            <Plus aria-hidden />
            {t('frontDesk.board.addRoom')}
          </Button>
        )}
      </div>

      <RoomStatusFilter value={search.status} counts={list.data?.counts} onChange={(status) => setSearch({ status, page: 1 })} />

      <Card className="gap-0 p-0">
        <div className="flex flex-wrap items-center gap-2 border-b p-3">
          <SearchInput
            wrapperClassName="min-w-56 flex-1 sm:max-w-sm"
            ref={searchBox}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            placeholder={t('frontDesk.board.searchPlaceholder')}
            aria-label={t('frontDesk.board.searchPlaceholder')}
            aria-keyshortcuts="/"
            data-testid="room-search"
          />
          <Select value={search.groupId === undefined ? ALL_GROUPS : String(search.groupId)} onValueChange={(value) => setSearch({ groupId: value === ALL_GROUPS ? undefined : Number(value), page: 1 })}>
            <SelectTrigger className="w-40" aria-label={t('frontDesk.board.group')} data-testid="room-group-filter">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_GROUPS}>{t('frontDesk.board.allGroups')}</SelectItem>
              {search.groupId !== undefined && !groups.data?.some((g) => g.id === search.groupId) && <SelectItem value={String(search.groupId)}>{groups.isLoading ? t('common.loading') : `#${search.groupId}`}</SelectItem>}
              {groups.data?.map((group) => (
                <SelectItem key={group.id} value={String(group.id)}>
                  {group.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Select value={search.sort} onValueChange={(value) => setSearch({ sort: value as RoomBoardSearch['sort'], page: 1 })}>
            <SelectTrigger className="w-40" aria-label={t('frontDesk.board.sort')} data-testid="room-sort">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {ROOM_SORTS.map((sort) => (
                <SelectItem key={sort} value={sort}>
                  {t(`frontDesk.board.sorts.${sort}`)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <div className="ms-auto flex items-center gap-2">
            <ToggleGroup type="single" value={search.view} onValueChange={(value) => value && setSearch({ view: value as RoomBoardSearch['view'] })} aria-label={t('frontDesk.board.view')}>
              <ToggleGroupItem value="tiles" aria-label={t('frontDesk.board.viewTiles')} data-testid="view-tiles">
                <LayoutGrid aria-hidden />
                <span className="hidden md:inline">{t('frontDesk.board.viewTiles')}</span>
              </ToggleGroupItem>
              <ToggleGroupItem value="table" aria-label={t('frontDesk.board.viewTable')} data-testid="view-table">
                <List aria-hidden />
                <span className="hidden md:inline">{t('frontDesk.board.viewTable')}</span>
              </ToggleGroupItem>
            </ToggleGroup>
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} data-testid="room-refresh" />
          </div>
        </div>

        <div className="p-3">
          {list.isLoading ? (
            search.view === 'tiles' ? (
              <RoomTilesSkeleton label={t('common.loading')} />
            ) : (
              <RoomTableSkeleton label={t('common.loading')} />
            )
          ) : total === 0 ? (
            <EmptyState
              icon={BedDouble}
              title={isFiltered ? t('frontDesk.board.emptyFilteredTitle') : t('frontDesk.board.emptyTitle')}
              description={isFiltered ? t('frontDesk.board.emptyFilteredText') : t('frontDesk.board.emptyText')}
              data-testid="room-board-empty"
              action={
                isFiltered ? (
                  <Button variant="outline" onClick={clearFilters} data-testid="clear-filters">
                    {t('common.clearFilters')}
                  </Button>
                ) : canManageRooms ? (
                  <Button onClick={() => setIsAdding(true)}>
                    <Plus aria-hidden />
                    {t('frontDesk.board.addRoom')}
                  </Button>
                ) : undefined
              }
            />
          ) : search.view === 'tiles' ? (
            <RoomTiles {...viewProps} />
          ) : (
            <RoomTable {...viewProps} />
          )}
        </div>

        {total > 0 && (
          <div className="border-t p-3">
            <ListPagination
              page={search.page}
              pageSize={search.pageSize}
              total={total}
              pageSizeOptions={PAGE_SIZE_OPTIONS}
              onPageChange={(page) => setSearch({ page })}
              onPageSizeChange={(pageSize) => setSearch({ pageSize, page: 1 })}
            />
          </div>
        )}
      </Card>

      {isAdding && <AddRoomDialog defaultGroupId={search.groupId} onClose={() => setIsAdding(false)} />}
      <StayActionDialogs
        action={stayActions.action}
        onClose={stayActions.close}
        onRoomChanged={(stay) => void goTo({ to: '/room/$roomId', params: { roomId: stay.roomId } })}
      />
    </div>
  );
}
