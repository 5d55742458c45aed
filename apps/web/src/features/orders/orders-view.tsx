import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '@/components/export-button';
import { ClearFiltersButton } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { PeriodError, PeriodFields } from '@/components/period-fields';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { useHotelSettings } from '@/lib/hotel-settings';
import { formatMoney } from '@/lib/money';
import { usePeriodDraft } from '@/lib/use-date-draft';
import { ORDERS_PAGE_SIZE, orderFilters, orderQueries } from './api';
import { ORDER_KINDS, ORDER_METHODS } from './balance-search';
import { EntriesTable, type Entry } from './entries-table';
import { RefundDialog } from './refund-dialog';
import { useBalanceSearch } from './use-balance-search';

const ALL = '';

/** The orders, of one stay when its number is given, of a kind, a way of paying and the hotel's days; newest first, with the sum of all that match. */
export function OrdersView() {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const [search, setSearch] = useBalanceSearch();
  const [stayText, setStayText] = useState(search.stay ? String(search.stay) : '');
  const [refunding, setRefunding] = useState<Entry | null>(null);
  const page = search.page;
  // The days as typed (the URL takes whole days only): a text that is not a day is said under the fields.
  const { from, setFrom, to, setTo, periodError } = usePeriodDraft(search, (patch) => setSearch({ ...patch, page: 1 }));
  // The list's filters, as the list and its export take them.
  const filters = orderFilters(search);
  const query = useQuery({ ...orderQueries.list({ page, pageSize: ORDERS_PAGE_SIZE, ...filters }), enabled: periodError === null });
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const isFiltered = [search.stay, search.kind, search.method, search.from, search.to].some((v) => v !== undefined);
  return (
    <Card className="gap-3 p-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <Label htmlFor="balance-stay">{t('orders.balance.stay')}</Label>
          <Input
            id="balance-stay"
            inputMode="numeric"
            className="w-32"
            value={stayText}
            onChange={(e) => {
              const value = e.target.value;
              setStayText(value);
              // Only a stay number goes into the URL; anything else lists every stay's orders, as before.
              setSearch({ stay: /^[1-9]\d{0,9}$/.test(value.trim()) ? Number(value.trim()) : undefined, page: 1 });
            }}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="balance-kind">{t('orders.columns.kind')}</Label>
          <NativeSelect
            id="balance-kind"
            wrapperClassName="w-40"
            value={search.kind ?? ALL}
            onChange={(e) => setSearch({ kind: ORDER_KINDS.find((k) => k === e.target.value), page: 1 })}
            data-testid="balance-kind"
          >
            <NativeSelectOption value={ALL}>{t('orders.balance.allKinds')}</NativeSelectOption>
            {ORDER_KINDS.map((kind) => (
              <NativeSelectOption key={kind} value={kind}>
                {t(`orders.kinds.${kind}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="balance-method">{t('orders.columns.method')}</Label>
          <NativeSelect
            id="balance-method"
            wrapperClassName="w-40"
            value={search.method ?? ALL}
            onChange={(e) => setSearch({ method: ORDER_METHODS.find((m) => m === e.target.value), page: 1 })}
            data-testid="balance-method"
          >
            <NativeSelectOption value={ALL}>{t('orders.balance.allMethods')}</NativeSelectOption>
            {ORDER_METHODS.map((method) => (
              <NativeSelectOption key={method} value={method}>
                {t(`orders.methods.${method}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <PeriodFields
          idPrefix="balance"
          timeZone={timeZone}
          from={from}
          to={to}
          onFromChange={setFrom}
          onToChange={setTo}
          hasError={periodError !== null}
          className="gap-1"
          fieldClassName="w-40"
        />
        {isFiltered && (
          <ClearFiltersButton
            onClick={() => {
              setStayText('');
              setSearch({ stay: undefined, kind: undefined, method: undefined, from: undefined, to: undefined, page: 1 });
            }}
            data-testid="balance-clear"
          />
        )}
        {data && (
          <p
            className="ms-auto text-sm"
            data-testid="balance-sum"
            data-sum={data.sum}
            data-received={data.totals.received}
            data-refunded={data.totals.refunded}
            data-charged={data.totals.charged}
          >
            {/* What the money did, not one sum of everything (money received and charges cancel out in it). */}
            {t('orders.balance.totals', {
              received: formatMoney(data.totals.received, data.currency),
              refunded: formatMoney(-data.totals.refunded, data.currency),
              charged: formatMoney(-data.totals.charged, data.currency),
              net: formatMoney(data.totals.net, data.currency),
            })}
          </p>
        )}
        {periodError === null && (
          <ExportButton
            list="orders"
            filters={filters}
            page={page}
            pageSize={ORDERS_PAGE_SIZE}
            total={data?.total ?? 0}
            what={t('orders.balance.tabs.orders')}
          />
        )}
      </div>
      {periodError && <PeriodError idPrefix="balance" error={periodError} />}
      {!data && query.isError ? (
        <LoadError query={failedQuery(query)} what={t('orders.balance.loadWhat')} />
      ) : !data ? (
        <Skeleton className="h-32 w-full" />
      ) : data.items.length === 0 ? (
        <p className="text-muted-foreground py-6 text-center text-sm">{t('orders.balance.empty')}</p>
      ) : (
        <EntriesTable entries={data.items} timeZone={timeZone} onRefund={setRefunding} testId="balance-orders" />
      )}
      {pages > 1 && (
        <div className="flex items-center justify-end gap-2">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setSearch({ page: page - 1 })}>
            {t('orders.balance.previous')}
          </Button>
          <span className="text-sm tabular-nums">
            {page} / {pages}
          </span>
          <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setSearch({ page: page + 1 })}>
            {t('orders.balance.next')}
          </Button>
        </div>
      )}
      <RefundDialog entry={refunding} onClose={() => setRefunding(null)} />
    </Card>
  );
}
