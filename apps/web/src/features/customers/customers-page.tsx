import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { Eye, Lock, LockOpen, Trash2, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import type { SearchOf } from '@/lib/url-search';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { IconAction } from '@/components/icon-action';
import { ClearFiltersButton, ListPage, urlPagination } from '@/components/list-page';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { ExportButton } from '@/components/export-button';
import { RefreshButton } from '@/components/refresh-button';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { useSearchBox } from '@/lib/use-search-box';
import { customerListInput, customerQueries, invalidateCustomers } from './api';
import { CustomerDrawer } from './customer-drawer';
import type { customerSearchSchema } from './customer-search';

type Customer = RouterOutputs['customer']['list']['items'][number];

type CustomerSearch = SearchOf<typeof customerSearchSchema>;

const route = getRouteApi('/_auth/customer/customer');

/** How a customer is named in messages: nickname, else mobile, else number. */
const customerName = (customer: Pick<Customer, 'id' | 'nickname' | 'mobile'>) => customer.nickname || customer.mobile || `#${customer.id}`;

type PendingAction = { kind: 'freeze' | 'unfreeze' | 'delete'; customer: Customer };

export function CustomersPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const user = useUserInfo();
  const canManage = hasPermission(user, 'customer.manage');
  const timeZone = user?.hotel.timeZone ?? 'UTC';
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<PendingAction | null>(null);

  const setSearch = (patch: Partial<CustomerSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });

  // Typing filters after a short pause; the first page of the new result is shown.
  const { ref: searchBox, text: searchText, setText: setSearchText } = useSearchBox(search.search, (text) => setSearch({ search: text, page: 1 }));

  const listInput = customerListInput(search);
  // A failed load is shown by the list itself (what failed, and a retry), not by a passing toast.
  const list = useQuery(customerQueries.list(listInput));

  const afterChange = () => invalidateCustomers(queryClient);
  const setFrozen = useMutation(
    trpc.customer.setFrozen.mutationOptions({
      onSuccess: (_result, input) => {
        // Says which way the state went, and whose.
        const name = pending ? customerName(pending.customer) : `#${input.id}`;
        toast.success(input.frozen ? t('customer.frozenSucceeded', { name }) : t('customer.unfrozenSucceeded', { name }));
        setPending(null);
        void afterChange();
      },
    }),
  );
  const remove = useMutation(
    trpc.customer.delete.mutationOptions({
      onSuccess: () => {
        toast.success(t('common.deleted'));
        setPending(null);
        // Deleting the last row of a page goes back one page.
        if (list.data && list.data.items.length === 1 && search.page > 1) setSearch({ page: search.page - 1 });
        void afterChange();
      },
    }),
  );

  const columns = useMemo<ColumnDef<Customer>[]>(
    () => [
      { accessorKey: 'id', header: t('customer.id'), cell: ({ row }) => <span className="text-muted-foreground tabular-nums">{row.original.id}</span> },
      {
        accessorKey: 'nickname',
        header: t('customer.nickname'),
        cell: ({ row }) => (
          <div className="flex items-center gap-2">
            <Avatar className="size-8">
              {row.original.avatar && <AvatarImage src={row.original.avatar} alt="" />}
              <AvatarFallback>{(row.original.nickname || '?').slice(0, 1).toUpperCase()}</AvatarFallback>
            </Avatar>
            <span className="font-medium">{row.original.nickname || t('customer.noNickname')}</span>
          </div>
        ),
      },
      {
        accessorKey: 'mobile',
        header: t('customer.mobile'),
        cell: ({ row }) => (
          <span className="tabular-nums" dir="ltr">
            {row.original.mobile ?? '—'}
          </span>
        ),
      },
      { accessorKey: 'email', header: t('customer.email'), cell: ({ row }) => <span dir="ltr">{row.original.email ?? '—'}</span> },
      { accessorKey: 'registeredAt', header: t('customer.registeredAt'), cell: ({ row }) => formatDateTime(row.original.registeredAt, timeZone) },
      {
        accessorKey: 'frozen',
        header: t('customer.state'),
        cell: ({ row }) =>
          row.original.frozen ? <Badge variant="destructive">{t('customer.stateFrozen')}</Badge> : <Badge variant="success">{t('customer.stateActive')}</Badge>,
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">{t('common.actions')}</span>,
        cell: ({ row }) => {
          const customer = row.original;
          return (
            <div className="flex justify-end gap-1">
              <IconAction label={t('customer.view')} onClick={() => setSearch({ id: customer.id })} testId={`view-${customer.id}`}>
                <Eye className="size-4" />
              </IconAction>
              {canManage && (
                <>
                  <IconAction
                    label={customer.frozen ? t('customer.unfreeze') : t('customer.freeze')}
                    onClick={() => setPending({ kind: customer.frozen ? 'unfreeze' : 'freeze', customer })}
                    testId={`${customer.frozen ? 'unfreeze' : 'freeze'}-${customer.id}`}
                  >
                    {customer.frozen ? <LockOpen className="size-4" /> : <Lock className="size-4" />}
                  </IconAction>
                  <IconAction label={t('common.delete')} onClick={() => setPending({ kind: 'delete', customer })} testId={`delete-${customer.id}`} destructive>
                    <Trash2 className="size-4" />
                  </IconAction>
                </>
              )}
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, timeZone, canManage],
  );

  const table = useReactTable({
    data: list.data?.items ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    getRowId: (row) => String(row.id),
  });
  const total = list.data?.total ?? 0;
  const isFiltered = Boolean(search.search) || search.state !== 'all';

  const clearFilters = () => {
    setSearchText('');
    setSearch({ search: '', state: 'all', page: 1 });
  };

  return (
    <>
      <ListPage
        title={t('route.customers')}
        query={list}
        what={t('customer.listWhat')}
        search={
          <SearchInput
            wrapperClassName="min-w-0 flex-1 basis-48 sm:max-w-sm"
            ref={searchBox}
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            placeholder={t('customer.searchPlaceholder')}
            aria-label={t('customer.searchPlaceholder')}
            data-testid="customer-search"
          />
        }
        activeFilters={(search.state !== 'all' ? 1 : 0) + (search.sort !== 'newest' ? 1 : 0)}
        filters={
          <>
            <Select value={search.state} onValueChange={(value) => setSearch({ state: value as CustomerSearch['state'], page: 1 })}>
              <SelectTrigger className="w-36" aria-label={t('customer.state')} data-testid="customer-state-filter">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">{t('customer.stateAll')}</SelectItem>
                <SelectItem value="active">{t('customer.stateActive')}</SelectItem>
                <SelectItem value="frozen">{t('customer.stateFrozen')}</SelectItem>
              </SelectContent>
            </Select>
            <Select value={search.sort} onValueChange={(value) => setSearch({ sort: value as CustomerSearch['sort'], page: 1 })}>
              <SelectTrigger className="w-40" aria-label={t('customer.sort')}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="newest">{t('customer.sortNewest')}</SelectItem>
                <SelectItem value="oldest">{t('customer.sortOldest')}</SelectItem>
              </SelectContent>
            </Select>
          </>
        }
        toolbarEnd={
          <>
            <ExportButton
              list="customers"
              filters={{ search: search.search || undefined, state: search.state, sort: search.sort }}
              page={search.page}
              pageSize={search.pageSize}
              total={total}
              what={t('route.customers')}
            />
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
          </>
        }
        isEmpty={total === 0}
        empty={
          <EmptyState
            icon={Users}
            title={isFiltered ? t('customer.emptyFilteredTitle') : t('customer.emptyTitle')}
            description={isFiltered ? t('customer.emptyFilteredText') : t('customer.emptyText')}
            action={isFiltered ? <ClearFiltersButton variant="outline" onClick={clearFilters} /> : undefined}
            data-testid="customer-empty"
          />
        }
        pagination={urlPagination(search, setSearch, total)}
        data-testid="customer-list"
      >
        <Table data-testid="customer-table">
          <TableHeader>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id}>
                {group.headers.map((header) => (
                  <TableHead key={header.id}>{header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}</TableHead>
                ))}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {table.getRowModel().rows.map((row) => (
              <TableRow key={row.id} data-testid={`customer-row-${row.original.id}`} data-frozen={row.original.frozen}>
                {row.getVisibleCells().map((cell) => (
                  <TableCell key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListPage>

      <CustomerDrawer customerId={search.id} timeZone={timeZone} onClose={() => setSearch({ id: undefined })} />

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.kind === 'delete' ? t('customer.deleteTitle') : pending?.kind === 'freeze' ? t('customer.freezeTitle') : t('customer.unfreezeTitle')}
        description={
          pending &&
          t(pending.kind === 'delete' ? 'customer.deleteText' : pending.kind === 'freeze' ? 'customer.freezeText' : 'customer.unfreezeText', {
            name: customerName(pending.customer),
          })
        }
        confirmLabel={pending?.kind === 'delete' ? t('common.delete') : pending?.kind === 'freeze' ? t('customer.freeze') : t('customer.unfreeze')}
        destructive={pending?.kind !== 'unfreeze'}
        pending={setFrozen.isPending || remove.isPending}
        onConfirm={() => {
          if (!pending) return;
          if (pending.kind === 'delete') remove.mutate({ id: pending.customer.id });
          else setFrozen.mutate({ id: pending.customer.id, frozen: pending.kind === 'freeze' });
        }}
        data-testid="customer-confirm"
        confirmTestId="confirm-action"
      />
    </>
  );
}
