import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import type { RouterOutputs } from '@/lib/trpc-types';

/** An entry of the ledger, as the orders list and a customer's balance show it. */
export type Entry = RouterOutputs['order']['list']['items'][number];

/**
 * Entries as a table; `ofBalance` shows each one's change to the customer's balance instead of its
 * amount (money taken from the balance for a stay is a payment received there, and spent here).
 */
export function EntriesTable({
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
