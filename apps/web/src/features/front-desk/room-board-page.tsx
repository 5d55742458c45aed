import { Suspense, lazy, useDeferredValue, useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { BedDouble, CheckSquare, LayoutGrid, List, Plus, Sparkles, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import type { SearchOf } from '@/lib/url-search';
import { LIMITS } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ListPage, urlPagination } from '@/components/list-page';
import { RefreshButton } from '@/components/refresh-button';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatList, formatNumber } from '@/lib/format';
import { ROOM_SORTS } from '@/lib/shared-constants';
import { useHotelSettings } from '@/lib/hotel-settings';
import { sharedQueries } from '@/lib/queries';
import { usePrefetchWhenIdle } from '@/lib/lazy';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { useSearchBox } from '@/lib/use-search-box';
import { frontDeskQueries, invalidateRooms } from './api';
import type { RoomActionHandlers, RoomItem } from './room-actions-menu';
import { roomListInput, type roomBoardSearchSchema } from './room-board-search';
import { RoomStatusFilter } from './room-status-filter';
import { RoomTableSkeleton } from './room-table-skeleton';
import { RoomTiles, RoomTilesSkeleton, type RoomSelection } from './room-tiles';
import { StayActionDialogs, useStayActions } from '../stays/stay-action-dialogs';
import { useFixArrivalKey } from '@/components/fix-key';
import { SharedDoorStrip } from '@/components/shared-doors/shared-door-strip';

const PAGE_SIZE_OPTIONS = [20, 50, 100] as const;

/** The table view is loaded when the page is idle, or when it is shown (its skeleton holds its place meanwhile). */
const loadRoomTable = () => import('./room-table');
const RoomTable = lazy(() => loadRoomTable().then((m) => ({ default: m.RoomTable })));

/** The export button (and through it its dialog) is loaded after the first paint: the board's budget (bench/bundle-size.ts). */
const ExportButton = lazy(() => import('@/components/export-button').then((m) => ({ default: m.ExportButton })));

/** The add-room form is loaded when it is opened (it is a dialog: nothing holds its place meanwhile). */
const AddRoomDialog = lazy(() => import('./add-room-dialog').then((m) => ({ default: m.AddRoomDialog })));

type RoomBoardSearch = SearchOf<typeof roomBoardSearchSchema>;

const route = getRouteApi('/_auth/room/');
const ALL_GROUPS = 'all';
const NO_ROOMS: RoomItem[] = [];

/** `/room`: the room board, where signed-in members land (spec §2, §4). */
export function RoomBoardPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const { timeZone } = useHotelSettings();
  const canManageRooms = hasPermission(user, 'room.manage');
  const canManageStays = hasPermission(user, 'stay.manage');
  const [isAdding, setIsAdding] = useState(false);
  const stayActions = useStayActions();
  usePrefetchWhenIdle(loadRoomTable);
  /** The rooms picked for a bulk action (by id, with their names for the messages); null when not picking. */
  const [picked, setPicked] = useState<Map<number, string> | null>(null);
  const [isConfirmingClean, setIsConfirmingClean] = useState(false);

  const setSearch = (patch: Partial<RoomBoardSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  // Typing filters after a short pause; the first page of the new result is shown.
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => setSearch({ search: text, page: 1 }));

  const listInput = roomListInput(search);
  // A failed load is shown by the board itself (what failed, and a retry), never as "no rooms yet".
  const list = useQuery(frontDeskQueries.rooms(listInput));
  const groups = useQuery(frontDeskQueries.groups());

  const total = list.data?.total ?? 0;
  const rooms = list.data?.items ?? NO_ROOMS;
  // The tiles (or rows) are rendered in the background, a few at a time between the browser's own
  // work, instead of in one long task as the answer arrives (issue 18 §4: a page of tiles blocked a
  // phone for a third of a second); the skeleton stays until the first ones are ready, and a later
  // page keeps the rooms shown until its own are.
  const shownRooms = useDeferredValue(rooms);
  // The shared-door strip sits above the tiles: they wait for it (or its failure), so that it never
  // appears above them later and moves a room's open menu from under the clerk's pointer.
  const doors = useQuery(sharedQueries.sharedDoors());
  const isFirstRender = (shownRooms === NO_ROOMS && rooms !== NO_ROOMS) || doors.isPending;

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

  // Housekeeping: one room from its menu, or the rooms picked on the board, marked clean at once.
  const markClean = useMutation(trpc.room.setStatusMany.mutationOptions());
  const cleanRooms = (targets: { id: number; name: string }[], after?: () => void) =>
    markClean.mutate(
      { roomIds: targets.map((r) => r.id), target: 'clean' },
      {
        onSuccess: (answer) => {
          // The server says which rooms it changed; those already clean are said as such, never "marked clean".
          const changed = targets.filter((r) => answer.changed.includes(r.id));
          if (changed.length > 0) toast.success(t('frontDesk.board.markedClean', { count: changed.length, rooms: formatList(changed.map((r) => r.name)) }));
          if (answer.notice) toast.info(answer.notice);
          void invalidateRooms(queryClient);
          after?.();
        },
      },
    );
  const cleaningIds = markClean.isPending ? (markClean.variables?.roomIds ?? []) : [];
  const fixKey = useFixArrivalKey();

  const actions: RoomActionHandlers = {
    onCheckIn: (room) => stayActions.openCheckIn({ id: room.id, name: room.name }),
    onReserve: (room) => stayActions.openReservation({ id: room.id, name: room.name }),
    onCheckOut: (stayId) => stayActions.openForStay('check-out', stayId),
    onArrive: (stayId) => stayActions.openForStay('arrive', stayId),
    onCancelReservation: (stayId) => stayActions.openForStay('cancel-reservation', stayId),
    onMarkClean: (room) => cleanRooms([room]),
    onFixKey: (stayId) => fixKey.mutate({ stayId }),
  };
  const selection: RoomSelection | null = picked && {
    isSelected: (roomId) => picked.has(roomId),
    toggle: (room) =>
      setPicked((prev) => {
        const next = new Map(prev);
        if (next.has(room.id)) next.delete(room.id);
        else next.set(room.id, room.name);
        return next;
      }),
  };
  const dirtyShown = rooms.filter((r) => r.status === 'dirty');
  const pickedRooms = picked ? [...picked].map(([id, name]) => ({ id, name })) : [];
  const isTooMany = pickedRooms.length > LIMITS.pageSizeMax;

  const viewProps = {
    rooms: shownRooms,
    timeZone,
    canManageStays,
    isBusy: (room: RoomItem) => (room.currentStay !== null && stayActions.loadingStayId === room.currentStay.id) || cleaningIds.includes(room.id),
    actions,
    selection,
  };

  return (
    <>
      <ListPage
        title={t('route.roomBoard')}
        actions={
          (canManageStays || canManageRooms) && (
            <>
              {canManageStays && (
                <Button variant="outline" onClick={() => stayActions.openReservation(null)} data-testid="new-reservation">
                  <Plus aria-hidden />
                  {t('frontDesk.board.newReservation')}
                </Button>
              )}
              {canManageRooms && (
                <Button onClick={() => setIsAdding(true)} data-testid="add-room">
                  <Plus aria-hidden />
                  {t('frontDesk.board.addRoom')}
                </Button>
              )}
            </>
          )
        }
        beforeList={
          <>
            <SharedDoorStrip />
            <RoomStatusFilter value={search.status} counts={list.data?.counts} onChange={(status) => setSearch({ status, page: 1 })} />
          </>
        }
        query={list}
        what={t('common.rooms')}
        search={
          <SearchInput
            wrapperClassName="min-w-0 flex-1 basis-48 sm:max-w-sm"
            ref={searchBox}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            placeholder={t('frontDesk.board.searchPlaceholder')}
            aria-label={t('frontDesk.board.searchPlaceholder')}
            aria-keyshortcuts="/"
            data-testid="room-search"
          />
        }
        activeFilters={(search.groupId !== undefined ? 1 : 0) + (search.sort !== 'default' ? 1 : 0)}
        filters={
          <>
            <NativeSelect
              value={search.groupId === undefined ? ALL_GROUPS : String(search.groupId)}
              onChange={(event) => setSearch({ groupId: event.target.value === ALL_GROUPS ? undefined : Number(event.target.value), page: 1 })}
              wrapperClassName="w-40"
              aria-label={t('frontDesk.board.group')}
              data-testid="room-group-filter"
            >
              <NativeSelectOption value={ALL_GROUPS}>{t('frontDesk.board.allGroups')}</NativeSelectOption>
              {search.groupId !== undefined && !groups.data?.some((g) => g.id === search.groupId) && (
                <NativeSelectOption value={String(search.groupId)}>{groups.isLoading ? t('common.loading') : `#${search.groupId}`}</NativeSelectOption>
              )}
              {groups.data?.map((group) => (
                <NativeSelectOption key={group.id} value={String(group.id)}>
                  {group.name}
                </NativeSelectOption>
              ))}
            </NativeSelect>
            <NativeSelect
              value={search.sort}
              onChange={(event) => setSearch({ sort: event.target.value as RoomBoardSearch['sort'], page: 1 })}
              wrapperClassName="w-40"
              aria-label={t('frontDesk.board.sort')}
              data-testid="room-sort"
            >
              {ROOM_SORTS.map((sort) => (
                <NativeSelectOption key={sort} value={sort}>
                  {t(`frontDesk.board.sorts.${sort}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </>
        }
        toolbarEnd={
          <>
            {canManageStays && (
              <Button
                variant={picked ? 'secondary' : 'outline'}
                aria-pressed={picked !== null}
                onClick={() => setPicked(picked ? null : new Map())}
                data-testid="select-rooms"
              >
                <CheckSquare aria-hidden />
                <span className="hidden md:inline">{t('frontDesk.board.selectRooms')}</span>
                <span className="sr-only md:hidden">{t('frontDesk.board.selectRooms')}</span>
              </Button>
            )}
            <ToggleGroup
              type="single"
              value={search.view}
              onValueChange={(value) => value && setSearch({ view: value as RoomBoardSearch['view'] })}
              aria-label={t('frontDesk.board.view')}
            >
              <ToggleGroupItem value="tiles" aria-label={t('frontDesk.board.viewTiles')} data-testid="view-tiles">
                <LayoutGrid aria-hidden />
                <span className="hidden md:inline">{t('frontDesk.board.viewTiles')}</span>
              </ToggleGroupItem>
              <ToggleGroupItem value="table" aria-label={t('frontDesk.board.viewTable')} data-testid="view-table">
                <List aria-hidden />
                <span className="hidden md:inline">{t('frontDesk.board.viewTable')}</span>
              </ToggleGroupItem>
            </ToggleGroup>
            <Suspense fallback={null}>
              <ExportButton
                list="rooms"
                filters={{ status: search.status, search: search.search || undefined, groupId: search.groupId, sort: search.sort }}
                page={search.page}
                pageSize={search.pageSize}
                total={total}
                what={t('route.roomBoard')}
              />
            </Suspense>
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} data-testid="room-refresh" />
          </>
        }
        stickyBar={
          picked && (
            <div
              className="bg-muted/60 flex flex-wrap items-center gap-2 rounded-md px-3 py-2 text-sm"
              role="region"
              aria-label={t('frontDesk.board.selectRooms')}
              data-testid="selection-bar"
            >
              <span className="font-medium" aria-live="polite" data-testid="selection-count" data-count={pickedRooms.length}>
                {t('frontDesk.board.selectedCount', { count: pickedRooms.length, number: formatNumber(pickedRooms.length) })}
              </span>
              {dirtyShown.length > 0 && (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setPicked((prev) => new Map([...(prev ?? []), ...dirtyShown.map((r) => [r.id, r.name] as const)]))}
                  data-testid="select-dirty"
                >
                  {t('frontDesk.board.selectDirty')}
                </Button>
              )}
              <div className="ms-auto flex flex-wrap items-center gap-2">
                {pickedRooms.length > 0 && (
                  <Button variant="ghost" size="sm" onClick={() => setPicked(new Map())}>
                    {t('frontDesk.board.clearSelection')}
                  </Button>
                )}
                <Button size="sm" disabled={pickedRooms.length === 0 || isTooMany} onClick={() => setIsConfirmingClean(true)} data-testid="bulk-mark-clean">
                  <Sparkles aria-hidden />
                  {t('frontDesk.board.markClean')}
                </Button>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  onClick={() => setPicked(null)}
                  aria-label={t('frontDesk.board.stopSelecting')}
                  data-testid="stop-selecting"
                >
                  <X aria-hidden />
                </Button>
              </div>
              {isTooMany && <p className="text-destructive basis-full">{t('frontDesk.board.tooManySelected', { number: formatNumber(LIMITS.pageSizeMax) })}</p>}
            </div>
          )
        }
        isEmpty={total === 0}
        empty={
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
        }
        skeleton={search.view === 'tiles' ? <RoomTilesSkeleton label={t('common.loading')} /> : <RoomTableSkeleton label={t('common.loading')} />}
        pagination={urlPagination(search, setSearch, total, { pageSizeOptions: PAGE_SIZE_OPTIONS })}
        data-testid="room-board"
      >
        <div className="p-2 sm:p-3">
          {isFirstRender ? (
            search.view === 'tiles' ? (
              <RoomTilesSkeleton label={t('common.loading')} />
            ) : (
              <RoomTableSkeleton label={t('common.loading')} />
            )
          ) : search.view === 'tiles' ? (
            <RoomTiles {...viewProps} />
          ) : (
            <Suspense fallback={<RoomTableSkeleton label={t('common.loading')} />}>
              <RoomTable {...viewProps} />
            </Suspense>
          )}
        </div>
      </ListPage>

      <ConfirmDialog
        open={isConfirmingClean}
        onOpenChange={setIsConfirmingClean}
        title={t('frontDesk.board.markCleanTitle', { count: pickedRooms.length, number: formatNumber(pickedRooms.length) })}
        description={t('frontDesk.board.markCleanText', { rooms: formatList(pickedRooms.map((r) => r.name)) })}
        confirmLabel={t('frontDesk.board.markClean')}
        pending={markClean.isPending}
        onConfirm={() =>
          cleanRooms(pickedRooms, () => {
            setIsConfirmingClean(false);
            setPicked(null);
          })
        }
        data-testid="mark-clean-confirm"
        confirmTestId="confirm-action"
      />
      {isAdding && (
        <Suspense fallback={null}>
          <AddRoomDialog defaultGroupId={search.groupId} onClose={() => setIsAdding(false)} />
        </Suspense>
      )}
      <StayActionDialogs
        action={stayActions.action}
        onClose={stayActions.close}
        onRoomChanged={(stay) => void goTo({ to: '/room/$roomId', params: { roomId: stay.roomId } })}
      />
    </>
  );
}
