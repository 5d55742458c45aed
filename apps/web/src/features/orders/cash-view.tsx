import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isLocalDate } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '@/components/date-time-field';
import { LoadError, failedQuery } from '@/components/load-error';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useHotelSettings } from '@/lib/hotel-settings';
import { todayInHotel } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import { orderQueries } from './api';

/** A hotel day's money per operator and way of paying: what each hands over at the end of a shift. */
export function CashView() {
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
