import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ChevronDown, UserRound, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { SearchOf } from '@/lib/url-search';
import { STAY_FILTERS, ZStayListInput } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { ListPage, urlPagination } from '@/components/list-page';
import { RoomPicker } from '@/components/room-picker';
import { StayStateBadge } from '@/components/status-badges';
import { ExportButton } from '@/components/export-button';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/search-input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { fieldMessage } from '@/lib/field-message';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useDateDraft } from '@/lib/use-date-draft';
import { usePhone } from '@/lib/use-phone';
import { useSearchBox } from '@/lib/use-search-box';
import { cn } from '@/lib/utils';
import { stayEnd, type StayDto } from './dialogs/stay-helpers';
import { stayListInput, stayQueries } from './api';
import type { stayListSearchSchema } from './stay-list-search';

type Stay = RouterOutputs['stay']['list']['items'][number];
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
  const pickedRoom = search.roomId === undefined ? [] : [{ id: search.roomId, name: filterRoom.data?.name ?? `#${search.roomId}` }];

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
          <div className="grid gap-1.5 self-start">
            <Label htmlFor="stay-list-room">{t('stays.room')}</Label>
            <div className="flex w-44 items-start gap-1">
              <div className="min-w-0 flex-1">
                <RoomPicker
                  id="stay-list-room"
                  value={pickedRoom}
                  onChange={(rooms) => setSearch({ roomId: rooms[0]?.id, page: 1 })}
                  placeholder={t('stays.allRooms')}
                  data-testid="stay-list-room-filter"
                />
              </div>
              {search.roomId !== undefined && (
                <Button
                  variant="ghost"
                  size="icon"
                  className="shrink-0"
                  onClick={() => setSearch({ roomId: undefined, page: 1 })}
                  aria-label={t('stays.allRooms')}
                  data-testid="stay-list-room-clear"
                >
                  <X aria-hidden />
                </Button>
              )}
            </div>
          </div>
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
          {isFiltered && (
            <Button variant="ghost" onClick={clearFilters}>
              {t('common.clearFilters')}
            </Button>
          )}
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
          action={
            isFiltered ? (
              <Button variant="outline" onClick={clearFilters}>
                {t('common.clearFilters')}
              </Button>
            ) : undefined
          }
          data-testid="stay-list-empty"
        />
      }
      pagination={urlPagination(search, setSearch, total)}
      data-testid="stay-list-page"
    >
      {isPhone ? (
        <StayCards items={items} currency={currency} timeZone={timeZone} />
      ) : (
        <Table data-testid="stay-list-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('stays.room')}</TableHead>
              <TableHead>{t('stays.guests')}</TableHead>
              <TableHead>{t('stays.state')}</TableHead>
              <TableHead>{t('stays.checkIn')}</TableHead>
              <TableHead>{t('stays.expectedCheckOut')}</TableHead>
              <TableHead className="text-end">{t('stays.price')}</TableHead>
              <TableHead className="text-end">{t('stays.deposit')}</TableHead>
              <TableHead className="text-end">{t('stays.bill')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((stay) => (
              <TableRow key={stay.id} data-testid={`stay-row-${stay.id}`} data-state={stay.state}>
                <TableCell className="font-medium">
                  <Link to="/room/$roomId" params={{ roomId: stay.roomId }} className="hover:underline">
                    {stay.roomName}
                  </Link>
                </TableCell>
                <TableCell>
                  <GuestNames stay={stay} />
                </TableCell>
                <TableCell>
                  <StayStateBadge state={stay.state} />
                </TableCell>
                <TableCell className="whitespace-nowrap">{formatShortDateTime(stay.checkInAt, timeZone)}</TableCell>
                <TableCell className="whitespace-nowrap">
                  <div>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</div>
                  <StayEndNote stay={stay} timeZone={timeZone} className="text-muted-foreground block text-xs" />
                </TableCell>
                <TableCell className="text-end whitespace-nowrap tabular-nums">{formatMoney(stay.priceAmount, currency)}</TableCell>
                <TableCell className="text-end whitespace-nowrap tabular-nums">{formatMoney(stay.bill.depositHeld, currency)}</TableCell>
                <TableCell className="text-end whitespace-nowrap tabular-nums">
                  <BillCell bill={stay.bill} currency={currency} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </ListPage>
  );
}

/**
 * The stays as cards, on a phone: the room, the main guest and the bill on the first line (the
 * guest's name is shortened, never the amount), then the state, the times and the prices.
 */
function StayCards({ items, currency, timeZone }: { items: Stay[]; currency: string; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y" data-testid="stay-list-cards">
      {items.map((stay) => (
        <li key={stay.id} className="grid gap-1.5 px-3 py-2.5 text-sm" data-testid={`stay-row-${stay.id}`} data-state={stay.state}>
          <div className="flex min-w-0 items-center gap-2">
            <Link to="/room/$roomId" params={{ roomId: stay.roomId }} className="max-w-[40%] shrink-0 truncate font-semibold hover:underline">
              {stay.roomName}
            </Link>
            <div className="min-w-0 flex-1">
              <GuestNames stay={stay} isCompact />
            </div>
            <span className="shrink-0 text-end whitespace-nowrap tabular-nums">
              <BillCell bill={stay.bill} currency={currency} isNarrow />
            </span>
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
            <StayStateBadge state={stay.state} />
            <dl className="flex flex-wrap gap-x-3 gap-y-1">
              <CardFact label={t('stays.checkIn')}>{formatShortDateTime(stay.checkInAt, timeZone)}</CardFact>
              <CardFact label={t('stays.expectedCheckOut')}>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</CardFact>
              <CardFact label={t('stays.price')}>{formatMoney(stay.priceAmount, currency, { narrow: true })}</CardFact>
              <CardFact label={t('stays.deposit')}>{formatMoney(stay.bill.depositHeld, currency, { narrow: true })}</CardFact>
            </dl>
            <StayEndNote stay={stay} timeZone={timeZone} className="text-muted-foreground" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** One fact of a stay's card: its name, muted, and its value. */
function CardFact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline gap-1">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * The visit's bill as the stay's row shows it (the folio's balance, as on the room page): what is
 * owed, what is due back, settled, or nothing recorded.
 */
function BillCell({ bill, currency, isNarrow = false }: { bill: Stay['bill']; currency: string; isNarrow?: boolean }) {
  const { t } = useTranslation();
  const testId = 'stay-bill';
  const money = (minor: number) => formatMoney(minor, currency, { narrow: isNarrow });
  if (bill.owed > 0) {
    return (
      <span className="text-destructive font-medium" data-testid={testId} data-state={bill.state} data-owed={bill.owed}>
        {t(bill.state === 'owing' ? 'stays.billOwing' : 'stays.billOwed', { amount: money(bill.owed) })}
      </span>
    );
  }
  if (bill.dueBack > 0) {
    return (
      <span data-testid={testId} data-state={bill.state} data-due-back={bill.dueBack}>
        {t('stays.billDueBack', { amount: money(bill.dueBack) })}
      </span>
    );
  }
  return (
    <span className="text-muted-foreground" data-testid={testId} data-state={bill.state}>
      {bill.state === 'none' ? '—' : t(`orders.billStates.${bill.state}`)}
    </span>
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

/**
 * The main guest (a link to their details) and "+N" opening the other guests of the stay;
 * `isCompact` (a phone's card) shortens a long name to the room it has.
 */
function GuestNames({ stay, isCompact = false }: { stay: Stay; isCompact?: boolean }) {
  const { t } = useTranslation();
  const [main, ...others] = stay.guests;
  if (!main) return <span className="text-muted-foreground">—</span>;
  return (
    <div className={cn('flex items-center gap-1.5', isCompact && 'min-w-0')}>
      <Link
        to="/room/thetouristsDetails"
        search={{ id: main.id }}
        className={cn('text-primary font-medium hover:underline', isCompact && 'min-w-0 truncate')}
        dir={isCompact ? 'auto' : undefined}
        data-testid={`guest-link-${main.id}`}
      >
        {main.name}
      </Link>
      {others.length > 0 && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" className="h-6 shrink-0 gap-0.5 px-1.5 text-xs" aria-label={t('stays.otherGuests', { number: others.length })}>
              {`+${others.length}`}
              <ChevronDown className="size-3" aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            <DropdownMenuLabel>{t('stays.otherGuests', { number: others.length })}</DropdownMenuLabel>
            {others.map((guest) => (
              <DropdownMenuItem key={guest.id} asChild>
                <Link to="/room/thetouristsDetails" search={{ id: guest.id }}>
                  {guest.name}
                </Link>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      )}
    </div>
  );
}

/** How and when a stay that is over ended ("Cancelled: 24 Nov, 10:00"), never an "actual check-out" of a stay that had none. */
function StayEndNote({ stay, timeZone, className }: { stay: Pick<StayDto, 'state' | 'checkedOutAt'>; timeZone: string; className?: string }) {
  const { t } = useTranslation();
  const end = stayEnd(stay);
  if (!end?.at) return null;
  return (
    <span className={className}>
      {t(end.labelKey)} <span className="tabular-nums">{formatShortDateTime(end.at, timeZone)}</span>
    </span>
  );
}
