import { useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ArrowLeft, BedDouble, Check, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ListPage } from '@/components/list-page';
import { SearchInput } from '@/components/search-input';
import { RoomStatusBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import type { SearchOf } from '@/lib/url-search';
import { useSearchBox } from '@/lib/use-search-box';
import { ROOM_CHOICE_PAGE_SIZE, cardQueries } from '../api';
import type { selectRoomsSearchSchema } from './card-admin-search';
import { readDraft, useCardDraft, type DraftRoom } from './card-draft';
import { RoomFitNote, useRoomFit } from './room-fit-note';

export type SelectRoomsSearch = SearchOf<typeof selectRoomsSearchSchema>;
const ADD_PATH = { management: '/center/personalCenter/addCard', universal: '/center/personalCenter/addUniversalCard' } as const;

/**
 * `selectRoomList` (spec §2, hidden): the rooms a management or universal card opens, chosen
 * from the hotel's rooms of any number: searched on the server, 20 a page, each page all chosen
 * at once, the choice kept across pages and searches and said in words: whether it fits on one
 * card (7 rooms anywhere, rooms within 96 consecutive numbers, or all rooms). Keyboard: "/" to
 * search, arrow down into the list, arrows between rooms, Space to choose, Page Up/Down to page.
 */
export function SelectRoomsPage({ search, onSearch }: { search: SelectRoomsSearch; onSearch(patch: Partial<SelectRoomsSearch>): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { timeZone } = useHotelSettings();
  const kind = search.kind;
  const [, update] = useCardDraft(kind, timeZone);
  const [chosen, setChosen] = useState<DraftRoom[]>(() => readDraft(kind)?.rooms ?? []);
  const chosenIds = new Set(chosen.map((r) => r.id));
  const fit = useRoomFit([...chosenIds], false);
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => onSearch({ search: text, page: 1 }));
  const rooms = useQuery(cardQueries.roomChoice(search));
  const items = rooms.data?.items ?? [];
  const total = rooms.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ROOM_CHOICE_PAGE_SIZE));
  const tableBody = useRef<HTMLTableSectionElement>(null);

  const toggle = (room: DraftRoom) =>
    setChosen((list) => (list.some((r) => r.id === room.id) ? list.filter((r) => r.id !== room.id) : [...list, { id: room.id, name: room.name }]));
  const pageChosen = items.filter((r) => chosenIds.has(r.id)).length;
  const allOnPage = items.length > 0 && pageChosen === items.length;
  const togglePage = () =>
    setChosen((list) =>
      allOnPage
        ? list.filter((r) => !items.some((i) => i.id === r.id))
        : [...list, ...items.filter((i) => !list.some((r) => r.id === i.id)).map((i) => ({ id: i.id, name: i.name }))],
    );

  const back = () => void navigate({ to: ADD_PATH[kind] });
  const done = () => {
    update({ rooms: chosen, allRooms: false });
    back();
  };

  const boxes = () => [...(tableBody.current?.querySelectorAll<HTMLElement>('[data-room-box]') ?? [])];
  const onListKey = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const list = boxes();
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown') list[Math.min(at + 1, list.length - 1)]?.focus();
    else if (event.key === 'ArrowUp') (at <= 0 ? searchBox.current : list[at - 1])?.focus();
    else if (event.key === 'Home') list[0]?.focus();
    else if (event.key === 'End') list.at(-1)?.focus();
    else if (event.key === 'PageDown' && search.page < pages) onSearch({ page: search.page + 1 });
    else if (event.key === 'PageUp' && search.page > 1) onSearch({ page: search.page - 1 });
    else return;
    event.preventDefault();
  };

  return (
    <div className="flex flex-col gap-4" data-testid="select-rooms" data-kind={kind}>
      <div className="grid gap-4 xl:grid-cols-[1fr_22rem]">
        <ListPage
          title={t('route.selectRooms')}
          actions={
            <Button variant="ghost" onClick={back} data-testid="select-rooms-back">
              <ArrowLeft className="rtl:rotate-180" aria-hidden />
              {t(`cardAdmin.select.backTo.${kind}`)}
            </Button>
          }
          beforeList={<p className="text-muted-foreground max-w-3xl text-sm">{t('cardAdmin.select.intro')}</p>}
          query={rooms}
          what={t('common.rooms')}
          search={
            <SearchInput
              wrapperClassName="min-w-0 flex-1 basis-48 sm:max-w-sm"
              ref={searchBox}
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'ArrowDown') {
                  e.preventDefault();
                  boxes()[0]?.focus();
                }
              }}
              placeholder={t('common.searchRooms')}
              aria-label={t('common.searchRooms')}
              data-testid="select-rooms-search"
            />
          }
          isEmpty={items.length === 0}
          empty={<EmptyState icon={BedDouble} title={t('common.noRoomsFound')} data-testid="select-rooms-empty" />}
          pagination={{ page: search.page, pageSize: ROOM_CHOICE_PAGE_SIZE, total, onPageChange: (page) => onSearch({ page }) }}
        >
          <Table data-testid="select-rooms-table">
            <TableHeader>
              <TableRow>
                <TableHead className="w-10">
                  <Checkbox
                    checked={allOnPage ? true : pageChosen > 0 ? 'indeterminate' : false}
                    onCheckedChange={togglePage}
                    aria-label={allOnPage ? t('cardAdmin.select.clearPage') : t('cardAdmin.select.choosePage')}
                    data-testid="select-rooms-page"
                  />
                </TableHead>
                <TableHead>{t('cardAdmin.columns.room')}</TableHead>
                <TableHead className="hidden sm:table-cell">{t('cardAdmin.select.group')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('cardAdmin.locks.lock')}</TableHead>
                <TableHead className="hidden sm:table-cell">{t('cardAdmin.select.status')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody ref={tableBody} onKeyDown={onListKey}>
              {items.map((room) => {
                const isChosen = chosenIds.has(room.id);
                return (
                  <TableRow
                    key={room.id}
                    data-state={isChosen ? 'selected' : undefined}
                    className="cursor-pointer"
                    onClick={() => toggle(room)}
                    data-testid={`select-room-${room.id}`}
                    data-room-name={room.name}
                  >
                    <TableCell onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        checked={isChosen}
                        onCheckedChange={() => toggle(room)}
                        aria-label={t('cardAdmin.select.chooseRoom', { room: room.name })}
                        data-room-box
                        data-testid={`select-room-box-${room.id}`}
                      />
                    </TableCell>
                    <TableCell className="font-medium" dir="auto">
                      {room.name}
                      {room.remarkName && <span className="text-muted-foreground ms-2 text-xs font-normal">{room.remarkName}</span>}
                    </TableCell>
                    <TableCell className="text-muted-foreground hidden sm:table-cell">{room.groupName ?? '—'}</TableCell>
                    <TableCell className="hidden font-mono text-xs md:table-cell" dir="ltr">
                      {room.lockId ?? <span className="text-muted-foreground font-sans">{t('cardAdmin.select.noLock')}</span>}
                    </TableCell>
                    <TableCell className="hidden sm:table-cell">
                      <RoomStatusBadge status={room.status} />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </ListPage>

        <Card className="h-fit gap-3 py-4 xl:sticky xl:top-4" data-testid="select-rooms-chosen">
          <CardHeader className="px-4">
            <CardTitle className="flex items-center justify-between gap-2">
              {t('cardAdmin.select.chosen')}
              <span className="text-muted-foreground text-sm font-normal tabular-nums" data-testid="select-rooms-count" data-count={chosen.length}>
                {formatNumber(chosen.length)}
              </span>
            </CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 px-4">
            <RoomFitNote count={chosen.length} fit={fit} />
            {chosen.length > 0 && (
              <ul className="flex max-h-64 flex-wrap gap-1 overflow-y-auto" aria-label={t('cardAdmin.select.chosen')}>
                {chosen.map((room) => (
                  <li key={room.id} className="bg-muted flex items-center gap-1 rounded-full py-0.5 ps-2 pe-1 text-xs">
                    <span dir="auto">{room.name}</span>
                    <button
                      type="button"
                      className="hover:bg-background rounded-full p-0.5"
                      onClick={() => toggle(room)}
                      aria-label={t('common.removeRoom', { room: room.name })}
                    >
                      <X className="size-3" aria-hidden />
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <div className="flex flex-wrap gap-2">
              <Button onClick={done} data-testid="select-rooms-done">
                <Check aria-hidden />
                {t('cardAdmin.select.done')}
              </Button>
              <Button variant="outline" onClick={back} data-testid="select-rooms-cancel">
                {t('common.cancel')}
              </Button>
              {chosen.length > 0 && (
                <Button variant="ghost" onClick={() => setChosen([])} data-testid="select-rooms-clear">
                  {t('cardAdmin.select.clearAll')}
                </Button>
              )}
            </div>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
