import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ChevronDown, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LIMITS, LOCAL_DATE_REGEX, STAY_FILTERS, ZStayListInput } from '@console/shared';
import { StayStateBadge } from '@/components/status-badges';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/search-input';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ListPagination } from '@/components/list-pagination';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { fieldMessage } from '@/lib/field-message';
import { formatShortDateTime } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useUserInfo } from '@/lib/user-info';

type Stay = RouterOutputs['stay']['list']['items'][number];
type StayFilter = (typeof STAY_FILTERS)[number];

/** A calendar date of the hotel (`YYYY-MM-DD`) kept in the URL; anything else is dropped. */
const urlDate = z
  .string()
  .regex(LOCAL_DATE_REGEX)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
  .optional()
  .catch(undefined);

/** The list's filters live in the URL, so a reload or a shared link shows the same page. */
export const tenantSearchSchema = z.object({
  page: z.number().int().min(1).catch(1).default(1),
  pageSize: z.number().int().min(1).max(LIMITS.pageSizeMax).catch(LIMITS.pageSizeDefault).default(LIMITS.pageSizeDefault),
  state: z.enum(STAY_FILTERS).catch('all').default('all'),
  from: urlDate,
  to: urlDate,
  roomId: z.number().int().positive().optional().catch(undefined),
  // A search of digits (a mobile, an ID number) comes back from the URL as a number: it is still text.
  guest: z.coerce.string().max(LIMITS.searchMaxLength).catch('').default(''),
});
type TenantSearch = z.output<typeof tenantSearchSchema>;

/** Values equal to these are left out of the URL. */
export const tenantSearchDefaults = { page: 1, pageSize: LIMITS.pageSizeDefault, state: 'all', guest: '' } as const;

const route = getRouteApi('/_auth/room/tenant');

/** Filters that are not stay states have their own labels; the others are the `stayState.*` texts. */
function filterLabel(t: TFunction, filter: StayFilter): string {
  if (filter === 'all') return t('tenants.filterAll');
  if (filter === 'current') return t('tenants.filterCurrent');
  return t(`stayState.${filter}`);
}

/** `/room/tenant`: every stay of the hotel's rooms, filtered by state, dates, room and guest. */
export function TenantListPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const user = useUserInfo();
  const timeZone = user?.hotel.timeZone ?? 'UTC';
  const currency = user?.hotel.currency ?? 'CNY';
  const [guestText, setGuestText] = useState(search.guest);

  const setSearch = (patch: Partial<TenantSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  // Typing filters after a short pause; the first page of the new result is shown.
  useEffect(() => {
    if (guestText.trim() === search.guest) return;
    const timer = setTimeout(() => setSearch({ guest: guestText.trim(), page: 1 }), 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [guestText]);

  const listInput = {
    page: search.page,
    pageSize: search.pageSize,
    state: search.state,
    from: search.from,
    to: search.to,
    roomId: search.roomId,
    guest: search.guest || undefined,
  };
  // The shared rules say whether the filters can be sent (an end date before the start cannot).
  const checked = ZStayListInput.safeParse(listInput);
  const dateError = checked.success ? undefined : checked.error.issues.find((issue) => issue.path[0] === 'to' || issue.path[0] === 'from')?.message;
  const list = useQuery(trpc.stay.list.queryOptions(listInput, { placeholderData: keepPreviousData, enabled: checked.success }));
  const rooms = useQuery(trpc.room.list.queryOptions({ pageSize: 100, sort: 'name_asc' }, { staleTime: 60_000 }));

  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];
  const isFiltered = search.state !== 'all' || Boolean(search.from || search.to || search.roomId !== undefined || search.guest);
  const roomOptions = rooms.data?.items ?? [];
  const selectedRoomMissing = search.roomId !== undefined && rooms.isSuccess && !roomOptions.some((r) => r.id === search.roomId);

  const clearFilters = () => {
    setGuestText('');
    setSearch({ state: 'all', from: undefined, to: undefined, roomId: undefined, guest: '', page: 1 });
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{t('route.tenants')}</h1>
        {list.isFetching && !list.isLoading && <Spinner className="text-muted-foreground" />}
      </div>
      <Card className="gap-0 p-0">
        <div className="flex flex-wrap items-end gap-3 border-b p-3">
          <div className="grid min-w-56 flex-1 gap-1.5 sm:max-w-xs">
            <Label htmlFor="tenant-guest">{t('tenants.guestSearch')}</Label>
            <SearchInput
              id="tenant-guest"
              value={guestText}
              onChange={(e) => setGuestText(e.target.value)}
              placeholder={t('tenants.guestSearchPlaceholder')}
              data-testid="tenant-guest-search"
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="tenant-state">{t('tenants.state')}</Label>
            <Select value={search.state} onValueChange={(value) => setSearch({ state: value as StayFilter, page: 1 })}>
              <SelectTrigger id="tenant-state" className="w-44" data-testid="tenant-state-filter">
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
          <div className="grid gap-1.5">
            <Label htmlFor="tenant-room">{t('tenants.room')}</Label>
            <Select value={search.roomId === undefined ? 'all' : String(search.roomId)} onValueChange={(value) => setSearch({ roomId: value === 'all' ? undefined : Number(value), page: 1 })}>
              <SelectTrigger id="tenant-room" className="w-40" data-testid="tenant-room-filter">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">{t('tenants.allRooms')}</SelectItem>
                {selectedRoomMissing && <SelectItem value={String(search.roomId)}>{`#${search.roomId}`}</SelectItem>}
                {roomOptions.map((room) => (
                  <SelectItem key={room.id} value={String(room.id)}>
                    {room.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="tenant-from">{t('tenants.from')}</Label>
            <Input
              id="tenant-from"
              type="date"
              className="w-40"
              value={search.from ?? ''}
              max={search.to}
              onChange={(e) => setSearch({ from: e.target.value || undefined, page: 1 })}
              data-testid="tenant-from"
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="tenant-to">{t('tenants.to')}</Label>
            <Input
              id="tenant-to"
              type="date"
              className="w-40"
              value={search.to ?? ''}
              min={search.from}
              onChange={(e) => setSearch({ to: e.target.value || undefined, page: 1 })}
              aria-invalid={dateError ? true : undefined}
              aria-describedby={dateError ? 'tenant-to-error' : undefined}
              data-testid="tenant-to"
            />
          </div>
          <div className="ms-auto flex items-center gap-2">
            {isFiltered && (
              <Button variant="ghost" onClick={clearFilters}>
                {t('common.clearFilters')}
              </Button>
            )}
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} disabled={!checked.success} />
          </div>
          {dateError && (
            <p id="tenant-to-error" role="alert" className="text-destructive w-full text-sm">
              {fieldMessage(t, dateError)}
            </p>
          )}
        </div>

        {!checked.success ? null : list.isLoading ? (
          <SkeletonRows rows={6} label={t('common.loading')} />
        ) : total === 0 ? (
          <EmptyState
            icon={UserRound}
            title={isFiltered ? t('tenants.emptyFilteredTitle') : t('tenants.emptyTitle')}
            description={isFiltered ? t('tenants.emptyFilteredText') : t('tenants.emptyText')}
            action={
              isFiltered ? (
                <Button variant="outline" onClick={clearFilters}>
                  {t('common.clearFilters')}
                </Button>
              ) : undefined
            }
            data-testid="tenant-empty"
          />
        ) : (
          <Table data-testid="tenant-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('tenants.room')}</TableHead>
                <TableHead>{t('tenants.guests')}</TableHead>
                <TableHead>{t('tenants.state')}</TableHead>
                <TableHead>{t('tenants.checkIn')}</TableHead>
                <TableHead>{t('tenants.expectedCheckOut')}</TableHead>
                <TableHead className="text-end">{t('tenants.price')}</TableHead>
                <TableHead className="text-end">{t('tenants.deposit')}</TableHead>
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
                    {stay.checkedOutAt && (
                      <div className="text-muted-foreground text-xs">{t('tenants.actualCheckOutAt', { time: formatShortDateTime(stay.checkedOutAt, timeZone) })}</div>
                    )}
                  </TableCell>
                  <TableCell className="text-end whitespace-nowrap tabular-nums">{formatMoney(stay.priceAmount, currency)}</TableCell>
                  <TableCell className="text-end whitespace-nowrap tabular-nums">{formatMoney(stay.depositAmount, currency)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}

        {checked.success && total > 0 && (
          <div className="border-t p-3">
            <ListPagination
              page={search.page}
              pageSize={search.pageSize}
              total={total}
              pageSizeOptions={LIMITS.pageSizeOptions}
              onPageChange={(page) => setSearch({ page })}
              onPageSizeChange={(pageSize) => setSearch({ pageSize, page: 1 })}
            />
          </div>
        )}
      </Card>
    </div>
  );
}

/** The main guest (a link to their details) and "+N" opening the other guests of the stay. */
function GuestNames({ stay }: { stay: Stay }) {
  const { t } = useTranslation();
  const [main, ...others] = stay.guests;
  if (!main) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="flex items-center gap-1.5">
      <Link to="/room/thetouristsDetails" search={{ id: main.id }} className="text-primary font-medium hover:underline" data-testid={`guest-link-${main.id}`}>
        {main.name}
      </Link>
      {others.length > 0 && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" className="h-6 gap-0.5 px-1.5 text-xs" aria-label={t('tenants.otherGuests', { number: others.length })}>
              {`+${others.length}`}
              <ChevronDown className="size-3" aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start">
            <DropdownMenuLabel>{t('tenants.otherGuests', { number: others.length })}</DropdownMenuLabel>
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
