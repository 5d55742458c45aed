import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MONEY_METHODS, ORDER_LIMITS, ZMoneyMethod, ZOrderReason, isLocalDate, type TMoneyMethod } from '@console/shared';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ExportButton } from '@/components/export-button';
import { FormError } from '@/components/form-error';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { MoneyInput } from '@/components/money-input';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatShortDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { todayInHotel } from '@/lib/hotel-time';
import { useDateDraft } from '@/lib/use-date-draft';
import { fieldMessage } from '@/lib/field-message';
import { formatMoney, parseMoneyInput } from '@/lib/money';
import { checkAmountText, checkField } from '@/lib/money-rules';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import type { RouterOutputs } from '@/lib/trpc-types';
import { DateTimeField } from '@/components/date-time-field';
import { PeriodFields } from '@/components/period-fields';
import { ORDERS_PAGE_SIZE, invalidateOrders, orderFilters, orderQueries, readBalanceSearch, type BalanceSearch } from './api';
import { BALANCE_TABS, ORDER_KINDS, ORDER_METHODS, balanceSearchDefaults } from './balance-search';

type Entry = RouterOutputs['order']['list']['items'][number];

const route = getRouteApi('/_auth/order/balance');

/** What goes into the URL: the values set, those equal to the defaults left out. */
function inUrl(search: BalanceSearch): Record<string, unknown> {
  const defaults: Record<string, unknown> = balanceSearchDefaults;
  return Object.fromEntries(Object.entries(search).filter(([key, value]) => value !== undefined && defaults[key] !== value));
}

function useBalanceSearch() {
  const raw = route.useSearch();
  const search = useMemo(() => readBalanceSearch(raw), [raw]);
  const navigate = route.useNavigate();
  const setSearch = (patch: Partial<BalanceSearch>) => void navigate({ search: (prev) => inUrl({ ...readBalanceSearch(prev), ...patch }), replace: true });
  return [search, setSearch] as const;
}

const ALL = '';

const newRequestId = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * `/order/balance`, the Balance page (issue 9 §3): the orders of a stay (or of the whole hotel)
 * with their sum and refunds from the list; a customer's balance and its recharges; and a day's
 * cash report per operator and way of paying, for the shift hand-over. Needs `order.manage`.
 */
export function BalancePage() {
  const { t } = useTranslation();
  const [search, setSearch] = useBalanceSearch();
  return (
    <div className="space-y-4" data-testid="balance-page">
      <PageHeader title={t('orders.balance.title')} />
      <Tabs value={search.tab} onValueChange={(tab) => setSearch({ tab: BALANCE_TABS.find((b) => b === tab) ?? 'orders' })}>
        <TabsList>
          <TabsTrigger value="orders" data-testid="balance-tab-orders">
            {t('orders.balance.tabs.orders')}
          </TabsTrigger>
          <TabsTrigger value="customer" data-testid="balance-tab-customer">
            {t('orders.balance.tabs.customer')}
          </TabsTrigger>
          <TabsTrigger value="cash" data-testid="balance-tab-cash">
            {t('orders.balance.tabs.cash')}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="orders">
          <OrdersView />
        </TabsContent>
        <TabsContent value="customer">
          <CustomerView />
        </TabsContent>
        <TabsContent value="cash">
          <CashView />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/**
 * Entries as a table; `ofBalance` shows each one's change to the customer's balance instead of its
 * amount (money taken from the balance for a stay is a payment received there, and spent here).
 */
function EntriesTable({
  entries,
  timeZone,
  onRefund,
  ofBalance = false,
  testId,
}: {
  entries: Entry[];
  timeZone: string;
  onRefund?(entry: Entry): void;
  ofBalance?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="overflow-x-auto">
      <Table phoneCards data-testid={testId}>
        <TableHeader>
          <TableRow>
            <TableHead>{t('orders.columns.time')}</TableHead>
            <TableHead>{t('orders.balance.room')}</TableHead>
            <TableHead>{t('orders.columns.kind')}</TableHead>
            <TableHead>{t('orders.columns.method')}</TableHead>
            <TableHead>{t('orders.columns.note')}</TableHead>
            <TableHead>{t('orders.columns.operator')}</TableHead>
            <TableHead className="text-end">{t('orders.columns.amount')}</TableHead>
            {onRefund && (
              <TableHead className="w-0">
                <span className="sr-only">{t('common.actions')}</span>
              </TableHead>
            )}
          </TableRow>
        </TableHeader>
        <TableBody>
          {entries.map((entry) => (
            <TableRow
              key={entry.id}
              data-testid="order-row"
              data-kind={entry.kind}
              data-amount={ofBalance ? (entry.balanceChange ?? entry.amount) : entry.amount}
              data-stay={entry.stayId ?? undefined}
            >
              <TableCell className="whitespace-nowrap tabular-nums">{formatShortDateTime(entry.createdAt, timeZone)}</TableCell>
              <TableCell>{entry.roomName ?? entry.customerName ?? '—'}</TableCell>
              <TableCell>{t(`orders.kinds.${entry.kind}`)}</TableCell>
              <TableCell>{entry.method ? t(`orders.methods.${entry.method}`) : '—'}</TableCell>
              <TableCell className="max-w-60 truncate" title={entry.note}>
                {entry.note || '—'}
              </TableCell>
              <TableCell>{entry.operator?.nickname ?? '—'}</TableCell>
              <TableCell className="text-end tabular-nums" dir="ltr">
                {formatMoney(ofBalance ? (entry.balanceChange ?? entry.amount) : entry.amount, entry.currency)}
              </TableCell>
              {onRefund && (
                <TableCell>
                  {entry.refundable !== null && entry.refundable > 0 && (
                    <Button size="sm" variant="outline" onClick={() => onRefund(entry)} data-testid="order-refund">
                      {t('orders.balance.refund')}
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** The orders, of one stay when its number is given, of a kind, a way of paying and the hotel's days; newest first, with the sum of all that match. */
function OrdersView() {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const [search, setSearch] = useBalanceSearch();
  const [stayText, setStayText] = useState(search.stay ? String(search.stay) : '');
  const [refunding, setRefunding] = useState<Entry | null>(null);
  const page = search.page;
  // The days as typed (the URL takes whole days only): a text that is not a day is said under the fields.
  const [from, setFrom] = useDateDraft(search.from, (value) => setSearch({ from: value, page: 1 }));
  const [to, setTo] = useDateDraft(search.to, (value) => setSearch({ to: value, page: 1 }));
  const periodError = [from, to].some((d) => d !== '' && !isLocalDate(d))
    ? 'validation.dateInvalid'
    : !from || !to || from <= to
      ? null
      : 'validation.endAfterStart';
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
          <Button
            variant="ghost"
            onClick={() => {
              setStayText('');
              setSearch({ stay: undefined, kind: undefined, method: undefined, from: undefined, to: undefined, page: 1 });
            }}
            data-testid="balance-clear"
          >
            {t('common.clearFilters')}
          </Button>
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
      {periodError && (
        <p id="balance-period-error" role="alert" className="text-destructive text-sm">
          {t(periodError)}
        </p>
      )}
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

/** Gives back part or all of what is left of a deposit, payment or recharge: a reason is required, and the desk confirms. */
function RefundDialog({ entry, onClose }: { entry: Entry | null; onClose(): void }) {
  if (!entry) return null;
  return <RefundForm key={entry.id} entry={entry} onClose={onClose} />;
}

/** The refund's text, checked by the shared rules of ZRefundInput: blank gives back all that is left, never more. */
function refundSchema(currency: string, left: number) {
  return z.object({ amount: z.string(), reason: z.string() }).superRefine((v, ctx) => {
    if (v.amount.trim() === '') {
      if (left <= 0) ctx.addIssue({ code: 'custom', message: 'orders.balance.refundAtMost', path: ['amount'] });
    } else {
      const amount = checkAmountText(v.amount, currency, ctx);
      if (amount !== undefined && amount > left) ctx.addIssue({ code: 'custom', message: 'orders.balance.refundAtMost', path: ['amount'] });
    }
    checkField(ZOrderReason, v.reason, ctx, 'reason');
  });
}

function RefundForm({ entry, onClose }: { entry: Entry; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [requestId] = useState(newRequestId);
  const currency = entry.currency;
  const left = entry.refundable ?? 0;
  const schema = useMemo(() => refundSchema(currency, left), [currency, left]);
  const form = useAppForm(schema, { amount: '', reason: '' });
  const refund = useMutation(
    trpc.order.refund.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t('orders.balance.refunded', { amount: formatMoney(Math.abs(done.entry.amount), currency) }));
        void invalidateOrders(queryClient);
        onClose();
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (refund.isPending) return;
    const amount = parseMoneyInput(values.amount, currency) ?? left;
    refund.mutate({ entryId: entry.id, amount, reason: values.reason.trim(), requestId });
  });
  const errors = form.formState.errors;
  const amountError = errors.amount ? t('orders.balance.refundAtMost', { amount: formatMoney(left, currency) }) : undefined;
  const reasonError = fieldMessage(t, errors.reason?.message);
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('orders.balance.refundTitle')}
      description={t('orders.balance.refundText', { kind: t(`orders.kinds.${entry.kind}`), amount: formatMoney(left, currency) })}
      confirmLabel={t('orders.balance.refund')}
      destructive
      pending={refund.isPending}
      onConfirm={() => void submit()}
      data-testid="refund-dialog"
      confirmTestId="refund-submit"
    >
      <div className="grid gap-3 text-sm">
        {entry.method === 'balance' && (
          <p className="text-muted-foreground" data-testid="refund-to-balance">
            {t('orders.balance.refundToBalance', { name: entry.customerName ?? '' })}
          </p>
        )}
        <div className="grid gap-1">
          <Label htmlFor="refund-amount">{t('orders.record.amount')}</Label>
          <MoneyInput
            id="refund-amount"
            currency={currency}
            placeholder={formatMoney(left, currency)}
            aria-invalid={amountError ? true : undefined}
            {...form.register('amount')}
          />
          {amountError && (
            <p className="text-destructive" role="alert">
              {amountError}
            </p>
          )}
        </div>
        <div className="grid gap-1">
          <Label htmlFor="refund-reason">{t('orders.balance.reason')}</Label>
          <Input
            id="refund-reason"
            maxLength={ORDER_LIMITS.reasonMaxLength}
            aria-required
            aria-invalid={reasonError ? true : undefined}
            {...form.register('reason')}
          />
          {reasonError && (
            <p className="text-destructive" role="alert">
              {reasonError}
            </p>
          )}
        </div>
        <FormError error={refund.error} />
      </div>
    </ConfirmDialog>
  );
}

/** A customer's balance, found by mobile, its recent entries, and a recharge. */
function CustomerView() {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const [mobileText, setMobileText] = useState('');
  const [mobile, setMobile] = useState('');
  const query = useQuery({ ...orderQueries.customerBalance(mobile), enabled: mobile !== '' });
  const data = query.data;
  return (
    <Card className="gap-3 p-4">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setMobile(mobileText.trim());
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor="balance-mobile">{t('orders.balance.mobile')}</Label>
          <Input id="balance-mobile" inputMode="tel" dir="ltr" className="w-56" value={mobileText} onChange={(e) => setMobileText(e.target.value)} />
        </div>
        <Button type="submit" variant="outline" data-testid="balance-find-customer">
          {t('orders.balance.find')}
        </Button>
      </form>
      {mobile !== '' && !data && query.isError ? (
        <FormError error={query.error} />
      ) : mobile !== '' && !data ? (
        <Skeleton className="h-24 w-full" />
      ) : data ? (
        <div className="grid gap-3" data-testid="customer-balance" data-balance={data.balance}>
          <p className="text-base">
            <span className="font-semibold">{data.customer.nickname || data.customer.mobile}</span>{' '}
            <span className="text-muted-foreground">{t('orders.balance.customerBalance')}</span>{' '}
            <span className="font-semibold tabular-nums" dir="ltr">
              {formatMoney(data.balance, data.currency)}
            </span>
          </p>
          <RechargeForm key={data.customer.id} customerId={data.customer.id} currency={data.currency} />
          {data.recent.length > 0 && <EntriesTable entries={data.recent} timeZone={timeZone} ofBalance testId="customer-entries" />}
        </div>
      ) : null}
    </Card>
  );
}

/** The recharge's text, checked by the shared rules of ZRechargeInput. */
function rechargeSchema(currency: string) {
  return z.object({ amount: z.string(), method: ZMoneyMethod }).superRefine((v, ctx) => void checkAmountText(v.amount, currency, ctx));
}

/** Adds money to a customer's balance; each recharge has its own request id, the same on a retry. */
function RechargeForm({ customerId, currency }: { customerId: number; currency: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [requestId, setRequestId] = useState(newRequestId);
  const schema = useMemo(() => rechargeSchema(currency), [currency]);
  const form = useAppForm(schema, { amount: '', method: 'cash' as TMoneyMethod });
  const recharge = useMutation(
    trpc.order.recharge.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('orders.balance.recharged'));
        form.reset({ amount: '', method: form.getValues('method') });
        setRequestId(newRequestId());
        void invalidateOrders(queryClient);
      },
    }),
  );
  const amount = parseMoneyInput(form.watch('amount'), currency);
  const submit = form.handleSubmit((values) => {
    if (!recharge.isPending) recharge.mutate({ customerId, amount: parseMoneyInput(values.amount, currency)!, method: values.method, requestId });
  });
  return (
    <>
      <form className="flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)} noValidate>
        <div className="grid gap-1">
          <Label htmlFor="recharge-amount">{t('orders.balance.rechargeAmount')}</Label>
          <MoneyInput id="recharge-amount" currency={currency} className="w-40" {...form.register('amount')} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="recharge-method">{t('orders.record.method')}</Label>
          <NativeSelect id="recharge-method" {...form.register('method')}>
            {MONEY_METHODS.map((m) => (
              <NativeSelectOption key={m} value={m}>
                {t(`orders.methods.${m}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" disabled={recharge.isPending || amount === undefined || Number.isNaN(amount) || amount <= 0} data-testid="recharge-submit">
          {t('orders.balance.recharge')}
        </Button>
      </form>
      <FormError error={recharge.error} />
    </>
  );
}

/** A hotel day's money per operator and way of paying: what each hands over at the end of a shift. */
function CashView() {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const [date, setDate] = useState(() => todayInHotel(timeZone));
  const query = useQuery({ ...orderQueries.cashReport(date), enabled: isLocalDate(date) });
  const data = query.data;
  const money = (minor: number) => formatMoney(minor, data?.currency ?? 'CNY');
  return (
    <Card className="gap-3 p-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <Label htmlFor="cash-date">{t('orders.balance.date')}</Label>
          <DateTimeField id="cash-date" withTime={false} timeZone={timeZone} className="w-44" value={date} onChange={setDate} data-testid="cash-date" />
        </div>
        {data && (
          <p className="ms-auto text-sm" data-testid="cash-total" data-net={data.net} data-cash={data.cash}>
            {t('orders.balance.dayTotal', { net: money(data.net), cash: money(data.cash) })}
          </p>
        )}
      </div>
      {!data && query.isError ? (
        <LoadError query={failedQuery(query)} what={t('orders.balance.cashWhat')} />
      ) : !data ? (
        <Skeleton className="h-32 w-full" />
      ) : data.operators.length === 0 ? (
        <p className="text-muted-foreground py-6 text-center text-sm">{t('orders.balance.noMoney')}</p>
      ) : (
        <div className="overflow-x-auto">
          <Table data-testid="cash-report">
            <TableHeader>
              <TableRow>
                <TableHead>{t('orders.columns.operator')}</TableHead>
                <TableHead>{t('orders.columns.method')}</TableHead>
                <TableHead className="text-end">{t('orders.balance.cash.deposits')}</TableHead>
                <TableHead className="text-end">{t('orders.balance.cash.payments')}</TableHead>
                <TableHead className="text-end">{t('orders.balance.cash.recharges')}</TableHead>
                <TableHead className="text-end">{t('orders.balance.cash.refunds')}</TableHead>
                <TableHead className="text-end">{t('orders.balance.cash.corrections')}</TableHead>
                <TableHead className="text-end">{t('orders.balance.cash.net')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.operators.flatMap((op) =>
                op.methods.map((line, i) => (
                  <TableRow
                    key={`${op.operator?.id ?? 0}-${line.method}`}
                    data-testid="cash-line"
                    data-operator={op.operator?.nickname ?? ''}
                    data-method={line.method}
                    data-net={line.net}
                  >
                    <TableCell className="font-medium">{i === 0 ? (op.operator?.nickname ?? '—') : ''}</TableCell>
                    <TableCell>{t(`orders.methods.${line.method}`)}</TableCell>
                    {[line.deposits, line.payments, line.recharges, line.refunds, line.corrections, line.net].map((v, j) => (
                      <TableCell key={j} className={j === 5 ? 'text-end font-semibold tabular-nums' : 'text-end tabular-nums'} dir="ltr">
                        {money(v)}
                      </TableCell>
                    ))}
                  </TableRow>
                )),
              )}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={7}>{t('orders.balance.cash.total')}</TableCell>
                <TableCell className="text-end font-semibold tabular-nums" dir="ltr">
                  {money(data.net)}
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </div>
      )}
    </Card>
  );
}
