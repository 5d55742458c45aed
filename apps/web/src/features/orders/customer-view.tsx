import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MONEY_METHODS, ZMoneyMethod, type TMoneyMethod } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormError } from '@/components/form-error';
import { MoneyInput } from '@/components/money-input';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { useHotelSettings } from '@/lib/hotel-settings';
import { newIdempotencyKey } from '@/lib/idempotency';
import { formatMoney, parseMoneyInput } from '@/lib/money';
import { checkAmountText } from '@/lib/money-rules';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateOrders, orderQueries } from './api';
import { EntriesTable } from './entries-table';

/** A customer's balance, found by mobile, its recent entries, and a recharge. */
export function CustomerView() {
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
  const [requestId, setRequestId] = useState(newIdempotencyKey);
  const schema = useMemo(() => rechargeSchema(currency), [currency]);
  const form = useAppForm(schema, { amount: '', method: 'cash' as TMoneyMethod });
  const recharge = useMutation(
    trpc.order.recharge.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('orders.balance.recharged'));
        form.reset({ amount: '', method: form.getValues('method') });
        setRequestId(newIdempotencyKey());
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
