import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi } from '@tanstack/react-router';
import { BatteryFull, BatteryLow, BatteryMedium, Grid3x3, Lock, Nfc, Router, ScanFace, TriangleAlert, Unlink, WandSparkles, Wifi, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage, urlPagination } from '@/components/list-page';
import { ListSearchInput } from '@/components/list-search';
import { ListTable } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { appErrorOf } from '@/lib/api-errors';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpcClient } from '@/lib/trpc';
import type { SearchOf } from '@/lib/url-search';
import { useSearchBox } from '@/lib/use-search-box';
import { cn } from '@/lib/utils';
import { invalidateLocksAndRooms, lockAccountQueries } from './api';
import { LOCK_LIST_FILTERS, type LockListFilter, type lockAccountsSearchSchema } from './lock-accounts-search';
import { accountTitle, lockName, type HotelLock, type LockAccount } from './lock-accounts';
import { RoomCombobox, type PairableRoom } from './room-combobox';

type LockAccountsSearch = SearchOf<typeof lockAccountsSearchSchema>;
const route = getRouteApi('/_auth/lockAccounts');

/** A pairing asked first: a lock for a room that has another lock now, or a room left without its lock. */
type Asked = { kind: 'replace'; lock: HotelLock; room: PairableRoom } | { kind: 'unpair'; lock: HotelLock; room: { id: number; name: string } };

/**
 * The hotel's locks (lock.list), page by page: all, the unpaired ones, the paired ones or those gone
 * from their account; searched literally by name, lock id or room; one account's or all. Each lock
 * with its name in the lock app, its lock id and MAC, its account, what it can take, its battery,
 * whether it is online and through which gateway, and its room: a picker to pair it (`canPair`:
 * members who manage rooms), "unpair" (asked first), and the room its name proposes, paired in one
 * click; "pair all suggestions" takes every proposal at once. The server's refusals (the lock is
 * another room's door, the room still has credentials on its lock) are shown as it words them.
 */
export function HotelLocks({ accounts, canPair }: { accounts: LockAccount[]; canPair: boolean }) {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<Asked | null>(null);
  const [isPairAllOpen, setIsPairAllOpen] = useState(false);

  const setSearch = (patch: Partial<LockAccountsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => setSearch({ search: text, page: 1 }));
  const list = useQuery(lockAccountQueries.locks(search));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const suggestions = list.data?.suggestions ?? 0;
  const isFiltered = search.filter !== 'all' || search.search !== '' || search.account !== undefined;

  // A page left empty (its last locks paired away from the "unpaired" filter): the last page there is.
  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => ({ ...prev, page: lastPage }), replace: true });
  }, [isPastEnd, lastPage, navigate]);

  const changed = () => invalidateLocksAndRooms(queryClient);
  /** A pairing done at once (a suggestion, a free room): a refusal is the server's message in a toast. */
  const pairNow = useMutation({
    meta: { showsErrors: true },
    mutationFn: ({ lock, room }: { lock: HotelLock; room: { id: number; name: string } }) =>
      trpcClient.lock.pair.mutate({ pairs: [{ roomId: room.id, lockId: lock.id }] }),
    onSuccess: (_data, { lock, room }) => toast.success(t('lockAccounts.paired', { lock: lockName(lock), room: room.name })),
    onError: (error) => toast.error(appErrorOf(error)?.message ?? t('common.noAnswer')),
    onSettled: changed,
  });
  /** A pairing asked first (a room's lock replaced, a lock unpaired): a refusal stays in the prompt. */
  const pairAsked = useMutation({
    meta: { showsErrors: true },
    mutationFn: (what: Asked) => trpcClient.lock.pair.mutate({ pairs: [{ roomId: what.room.id, lockId: what.kind === 'unpair' ? null : what.lock.id }] }),
    onSuccess: (_data, what) => {
      toast.success(t(what.kind === 'unpair' ? 'lockAccounts.unpaired' : 'lockAccounts.paired', { lock: lockName(what.lock), room: what.room.name }));
      setAsked(null);
    },
    onSettled: changed,
  });
  const pairAll = useMutation({
    meta: { showsErrors: true },
    mutationFn: async () => {
      const { pairs } = await trpcClient.lock.suggestedPairs.query();
      if (pairs.length === 0) return { paired: 0 };
      return trpcClient.lock.pair.mutate({ pairs });
    },
    onSuccess: ({ paired }) => {
      toast.success(t('lockAccounts.pairedAll', { number: formatNumber(paired) }));
      setIsPairAllOpen(false);
    },
    onSettled: changed,
  });
  const pairWith = (lock: HotelLock, room: PairableRoom | { id: number; name: string }) => {
    if ('lock' in room && room.lock) {
      pairAsked.reset();
      setAsked({ kind: 'replace', lock, room });
      return;
    }
    pairNow.mutate({ lock, room });
  };

  const clearFilters = () => setSearch({ filter: 'all', search: '', account: undefined, page: 1 });
  const pairAllButton = canPair && suggestions > 0 && (
    <Button
      variant="outline"
      onClick={() => {
        pairAll.reset();
        setIsPairAllOpen(true);
      }}
      data-testid="locks-pair-all"
    >
      <WandSparkles aria-hidden />
      {t('lockAccounts.pairAll', { number: formatNumber(suggestions) })}
    </Button>
  );

  return (
    <>
      <ListPage
        title={t('lockAccounts.locksTitle')}
        titleAs="h2"
        actions={
          <>
            {list.data && list.data.unpaired > 0 && (
              <span className="text-muted-foreground text-sm" data-testid="locks-unpaired-count">
                {t('lockAccounts.unpairedCount', { number: formatNumber(list.data.unpaired) })}
              </span>
            )}
            {pairAllButton}
          </>
        }
        query={list}
        what={t('lockAccounts.locksWhat')}
        search={
          <>
            <ListSearchInput
              ref={searchBox}
              text={searchText}
              onTextChange={setSearchText}
              placeholder={t('lockAccounts.locksSearch')}
              data-testid="locks-search"
            />
            <ToggleGroup
              type="single"
              value={search.filter}
              onValueChange={(value) => value && setSearch({ filter: value as LockListFilter, page: 1 })}
              aria-label={t('lockAccounts.filterLabel')}
              className="max-w-full overflow-x-auto"
            >
              {LOCK_LIST_FILTERS.map((filter) => (
                <ToggleGroupItem key={filter} value={filter} className="shrink-0" data-testid={`locks-filter-${filter}`}>
                  {t(`lockAccounts.filters.${filter}`)}
                </ToggleGroupItem>
              ))}
            </ToggleGroup>
          </>
        }
        activeFilters={search.account === undefined ? 0 : 1}
        filters={
          <div className="grid gap-1.5">
            <Label htmlFor="locks-account-filter">{t('lockAccounts.accountFilter')}</Label>
            <NativeSelect
              id="locks-account-filter"
              value={search.account === undefined ? '' : String(search.account)}
              onChange={(event) => setSearch({ account: event.target.value ? Number(event.target.value) : undefined, page: 1 })}
              wrapperClassName="w-full sm:w-56"
              data-testid="locks-account-filter"
            >
              <NativeSelectOption value="">{t('lockAccounts.allAccounts')}</NativeSelectOption>
              {accounts.map((account) => (
                <NativeSelectOption key={account.id} value={String(account.id)}>
                  {accountTitle(account)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
        }
        toolbarEnd={
          <>
            {isFiltered && (
              <Button variant="ghost" onClick={clearFilters}>
                {t('common.clearFilters')}
              </Button>
            )}
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
          </>
        }
        isEmpty={total === 0 || items.length === 0}
        empty={
          <EmptyState
            icon={Lock}
            title={isFiltered ? t('lockAccounts.locksEmptyFilteredTitle') : t('lockAccounts.locksEmptyTitle')}
            description={isFiltered ? t('lockAccounts.locksEmptyFilteredText') : t('lockAccounts.locksEmptyText')}
            action={
              isFiltered ? (
                <Button variant="outline" onClick={clearFilters}>
                  {t('common.clearFilters')}
                </Button>
              ) : undefined
            }
            data-testid="locks-empty"
          />
        }
        pagination={urlPagination(search, setSearch, total)}
        data-testid="hotel-locks"
      >
        <ListTable
          aria-label={t('lockAccounts.locksTitle')}
          data-testid="locks-table"
          head={
            <>
              <TableHead>{t('lockAccounts.columns.lock')}</TableHead>
              <TableHead className="hidden lg:table-cell">{t('lockAccounts.columns.account')}</TableHead>
              <TableHead className="hidden md:table-cell">{t('lockAccounts.columns.features')}</TableHead>
              <TableHead className="hidden sm:table-cell">{t('lockAccounts.columns.state')}</TableHead>
              <TableHead>{t('lockAccounts.columns.room')}</TableHead>
            </>
          }
        >
          {items.map((lock) => (
            <LockRow
              key={lock.id}
              lock={lock}
              canPair={canPair}
              isPairing={pairNow.isPending && pairNow.variables?.lock.id === lock.id}
              onPair={(room) => pairWith(lock, room)}
              onUnpair={(room) => {
                pairAsked.reset();
                setAsked({ kind: 'unpair', lock, room });
              }}
            />
          ))}
        </ListTable>
      </ListPage>

      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        title={
          asked?.kind === 'unpair'
            ? t('lockAccounts.unpairTitle', { lock: lockName(asked.lock), room: asked.room.name })
            : asked
              ? t('lockAccounts.replaceTitle', { room: asked.room.name, current: asked.room.lock?.name ?? '' })
              : ''
        }
        description={
          asked?.kind === 'unpair'
            ? t('lockAccounts.unpairText', { room: asked.room.name })
            : asked
              ? t('lockAccounts.replaceText', { lock: lockName(asked.lock), current: asked.room.lock?.name ?? '' })
              : ''
        }
        confirmLabel={asked?.kind === 'unpair' ? t('lockAccounts.unpair') : t('lockAccounts.pair')}
        destructive={asked?.kind === 'unpair'}
        pending={pairAsked.isPending}
        onConfirm={() => asked && pairAsked.mutate(asked)}
        data-testid="lock-pair-dialog"
        confirmTestId="lock-pair-confirm"
      >
        <FormError error={pairAsked.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={isPairAllOpen}
        onOpenChange={setIsPairAllOpen}
        title={t('lockAccounts.pairAllTitle', { number: formatNumber(suggestions) })}
        description={t('lockAccounts.pairAllText', { number: formatNumber(suggestions) })}
        confirmLabel={t('lockAccounts.pairAllConfirm', { number: formatNumber(suggestions) })}
        pending={pairAll.isPending}
        onConfirm={() => pairAll.mutate()}
        data-testid="locks-pair-all-dialog"
        confirmTestId="locks-pair-all-confirm"
      >
        <FormError error={pairAll.error} />
      </ConfirmDialog>
    </>
  );
}

function LockRow({
  lock,
  canPair,
  isPairing,
  onPair,
  onUnpair,
}: {
  lock: HotelLock;
  canPair: boolean;
  isPairing: boolean;
  onPair(room: { id: number; name: string } | PairableRoom): void;
  onUnpair(room: { id: number; name: string }): void;
}) {
  const { t } = useTranslation();
  const name = lockName(lock);
  return (
    <TableRow
      data-testid={`lock-row-${lock.id}`}
      data-lock-id={lock.lockId}
      data-gone={lock.gone}
      data-paired={lock.room !== null || lock.sharedDoor !== null}
      data-shared-door={lock.sharedDoor ?? undefined}
      className={cn(lock.gone && 'bg-destructive/5')}
    >
      <TableCell className="max-w-72 align-top">
        <div className="truncate font-medium" dir="auto" title={name} data-testid="lock-name">
          {name}
        </div>
        <div className="text-muted-foreground grid text-xs">
          {lock.alias && lock.name !== lock.alias && (
            <span className="truncate" dir="ltr" title={lock.name}>
              {lock.name}
            </span>
          )}
          <span className="truncate font-mono">
            {t('lockAccounts.lockIdValue', { id: lock.lockId })}
            {lock.mac && (
              <>
                {' · '}
                <bdi dir="ltr">{lock.mac}</bdi>
              </>
            )}
          </span>
          {/* What the hidden columns say, on a narrow screen. */}
          <span className="truncate lg:hidden" dir="ltr">
            {lock.account?.username}
          </span>
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 sm:hidden">
          <LockState lock={lock} />
        </div>
        <div className="mt-1 md:hidden">
          <Features lock={lock} />
        </div>
        {lock.gone && (
          <Badge variant="destructive" className="mt-1 whitespace-normal" title={t('lockAccounts.goneHint')} data-testid="lock-gone">
            <TriangleAlert aria-hidden />
            {t('lockAccounts.gone')}
          </Badge>
        )}
      </TableCell>
      <TableCell className="hidden max-w-48 align-top text-sm lg:table-cell">
        <span className="block truncate" dir="ltr" title={lock.account?.username}>
          {lock.account?.username ?? '—'}
        </span>
        {lock.account && lock.account.state !== 'connected' && <span className="text-xs text-amber-800">{t(`lockAccounts.states.${lock.account.state}`)}</span>}
      </TableCell>
      <TableCell className="hidden align-top md:table-cell">
        <Features lock={lock} />
      </TableCell>
      <TableCell className="hidden align-top sm:table-cell">
        <div className="grid gap-1">
          <LockState lock={lock} />
        </div>
      </TableCell>
      <TableCell className="align-top" data-testid="lock-room">
        <RoomCell lock={lock} name={name} canPair={canPair} isPairing={isPairing} onPair={onPair} onUnpair={onUnpair} />
      </TableCell>
    </TableRow>
  );
}

function RoomCell({
  lock,
  name,
  canPair,
  isPairing,
  onPair,
  onUnpair,
}: {
  lock: HotelLock;
  name: string;
  canPair: boolean;
  isPairing: boolean;
  onPair(room: { id: number; name: string } | PairableRoom): void;
  onUnpair(room: { id: number; name: string }): void;
}) {
  const { t } = useTranslation();
  if (lock.room) {
    const room = lock.room;
    return (
      <div className="grid gap-1">
        <div className="flex items-center gap-1">
          <Link
            to="/room/$roomId"
            params={{ roomId: room.id }}
            className="focus-visible:ring-ring truncate rounded-sm font-medium outline-none hover:underline focus-visible:ring-2"
            data-testid="lock-room-link"
          >
            {room.name}
          </Link>
          {canPair && (
            <IconAction label={t('lockAccounts.unpairLabel', { lock: name, room: room.name })} onClick={() => onUnpair(room)} testId={`lock-unpair-${lock.id}`}>
              <Unlink aria-hidden />
            </IconAction>
          )}
        </div>
        {lock.gone && <span className="text-destructive text-xs">{t('lockAccounts.goneRoomHint')}</span>}
      </div>
    );
  }
  // A shared door is in use, serving rooms without being one's (its rooms are set on its lock's page).
  if (lock.sharedDoor)
    return (
      <span className="text-sm" data-testid="lock-shared-door">
        {t('sharedDoors.section')} · {t(`sharedDoors.kinds.${lock.sharedDoor}`)}
      </span>
    );
  if (lock.gone) return <span className="text-muted-foreground text-sm">—</span>;
  return (
    <div className="grid gap-1.5">
      {lock.suggestedRoom && (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="lock-suggestion">
          <span className="text-sm">{t('lockAccounts.suggested', { room: lock.suggestedRoom.name })}</span>
          {canPair && (
            <Button
              size="sm"
              variant="secondary"
              className="h-7"
              disabled={isPairing}
              onClick={() => onPair({ id: lock.suggestedRoom!.id, name: lock.suggestedRoom!.name })}
              aria-label={t('lockAccounts.pairSuggestedLabel', { lock: name, room: lock.suggestedRoom.name })}
              data-testid={`lock-pair-suggested-${lock.id}`}
            >
              {t('lockAccounts.pair')}
            </Button>
          )}
        </div>
      )}
      {canPair ? (
        <RoomCombobox
          label={t('lockAccounts.pickRoomFor', { lock: name })}
          onPick={(room) => onPair(room)}
          disabled={isPairing}
          data-testid={`lock-room-picker-${lock.id}`}
        />
      ) : (
        !lock.suggestedRoom && <span className="text-muted-foreground text-sm">{t('lockAccounts.noRoom')}</span>
      )}
    </div>
  );
}

/** Keypad, card reader, face module: small icons, each named for screen readers and on hover. */
function Features({ lock }: { lock: HotelLock }) {
  const { t } = useTranslation();
  const features = [
    { key: 'keypad', has: lock.capabilities.keypad, Icon: Grid3x3 },
    { key: 'cardReader', has: lock.capabilities.cardReader, Icon: Nfc },
    { key: 'faceModule', has: lock.capabilities.faceModule, Icon: ScanFace },
  ].filter((f) => f.has);
  if (features.length === 0) return <span className="text-muted-foreground text-xs">{t('lockAccounts.features.none')}</span>;
  return (
    <ul className="flex items-center gap-1.5" aria-label={t('lockAccounts.columns.features')} data-testid="lock-features">
      {features.map(({ key, Icon }) => (
        <li key={key} className="bg-muted flex size-7 items-center justify-center rounded-md" title={t(`lockAccounts.features.${key}`)} data-feature={key}>
          <Icon className="size-4" aria-hidden />
          <span className="sr-only">{t(`lockAccounts.features.${key}`)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Battery, online or not, and the gateway it is heard through, as the lock cloud last said. */
function LockState({ lock }: { lock: HotelLock }) {
  const { t } = useTranslation();
  const OnlineIcon = lock.online ? Wifi : WifiOff;
  return (
    <>
      {lock.battery !== null && <Battery percent={lock.battery} />}
      <span
        className={cn(
          'inline-flex items-center gap-1 text-xs',
          lock.online === null ? 'text-muted-foreground' : lock.online ? 'text-emerald-700' : 'text-destructive',
        )}
        data-testid="lock-online"
      >
        {lock.online !== null && <OnlineIcon className="size-3.5 shrink-0" aria-hidden />}
        {lock.online === null ? t('locks.notRead') : lock.online ? t('locks.online') : t('locks.offline')}
      </span>
      <span className="text-muted-foreground inline-flex min-w-0 items-center gap-1 text-xs">
        <Router className="size-3.5 shrink-0" aria-hidden />
        <span className="truncate" dir="auto">
          {lock.gateway ? t('lockAccounts.viaGateway', { gateway: lock.gateway }) : t('lockAccounts.noGateway')}
        </span>
      </span>
    </>
  );
}

function Battery({ percent }: { percent: number }) {
  const { t } = useTranslation();
  const Icon = percent <= 20 ? BatteryLow : percent <= 60 ? BatteryMedium : BatteryFull;
  const label = t('frontDesk.board.lockPowerValue', { power: percent });
  return (
    <span
      className={cn('inline-flex items-center gap-1 text-xs tabular-nums', percent <= 20 ? 'text-destructive font-medium' : 'text-muted-foreground')}
      title={label}
      data-testid="lock-battery"
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      <span className="sr-only">{label}</span>
      <span aria-hidden>{formatNumber(percent)}%</span>
    </span>
  );
}
