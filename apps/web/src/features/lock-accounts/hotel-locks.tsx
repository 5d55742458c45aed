import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Lock, WandSparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ClearFiltersButton, ListPage, urlPagination } from '@/components/list-page';
import { ListSearchInput } from '@/components/list-search';
import { ListTable } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { TableHead } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatNumber } from '@/lib/format';
import type { SearchOf } from '@/lib/url-search';
import { useSearchBox } from '@/lib/use-search-box';
import { lockAccountQueries } from './api';
import { LOCK_LIST_FILTERS, type LockListFilter, type lockAccountsSearchSchema } from './lock-accounts-search';
import { accountTitle, type LockAccount } from './lock-accounts';
import { LockRow } from './lock-row';
import { PairDialogs } from './pair-dialogs';
import { useLockPairing } from './use-lock-pairing';

type LockAccountsSearch = SearchOf<typeof lockAccountsSearchSchema>;
const route = getRouteApi('/_auth/lockAccounts');

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
  const pairing = useLockPairing();

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

  const clearFilters = () => setSearch({ filter: 'all', search: '', account: undefined, page: 1 });
  const pairAllButton = canPair && suggestions > 0 && (
    <Button variant="outline" onClick={pairing.askPairAll} data-testid="locks-pair-all">
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
            {isFiltered && <ClearFiltersButton onClick={clearFilters} />}
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
          </>
        }
        isEmpty={total === 0 || items.length === 0}
        empty={
          <EmptyState
            icon={Lock}
            title={isFiltered ? t('lockAccounts.locksEmptyFilteredTitle') : t('lockAccounts.locksEmptyTitle')}
            description={isFiltered ? t('lockAccounts.locksEmptyFilteredText') : t('lockAccounts.locksEmptyText')}
            action={isFiltered ? <ClearFiltersButton variant="outline" onClick={clearFilters} /> : undefined}
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
              isPairing={pairing.pairNow.isPending && pairing.pairNow.variables?.lock.id === lock.id}
              onPair={(room) => pairing.pairWith(lock, room)}
              onUnpair={(room) => pairing.askUnpair(lock, room)}
            />
          ))}
        </ListTable>
      </ListPage>

      <PairDialogs pairing={pairing} suggestions={suggestions} />
    </>
  );
}
