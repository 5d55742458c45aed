import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { shiftQueries, type Shift } from './api';
import { Money, WRAP, WRAP_END } from '@/components/money';
import { Difference } from './shift-figures';

/**
 * One shift's report: who opened it and when, who closed it and when, the float, and per way of
 * paying what moved in the shift, what the ledger expected in hand, what was counted and the
 * difference; the note of the close. Read only: a closed shift is final.
 */
export function ShiftDetailsDialog({ shift, timeZone, onClose }: { shift: Shift | null; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={shift !== null} onOpenChange={(isOpen) => !isOpen && onClose()}>
      <DialogContent className="sm:max-w-3xl" closeLabel={t('common.close')} data-testid="shift-details">
        {shift && <DetailsBody key={shift.id} shift={shift} timeZone={timeZone} />}
      </DialogContent>
    </Dialog>
  );
}

function DetailsBody({ shift: given, timeZone }: { shift: Shift; timeZone: string }) {
  const { t } = useTranslation();
  const shift = useQuery(shiftQueries.one(given)).data ?? given;
  const currency = shift.currency;
  const facts: [string, ReactNode][] = [
    [t('shifts.fields.openedAt'), <time dateTime={shift.openedAt}>{formatDateTime(shift.openedAt, timeZone)}</time>],
    [
      t('shifts.fields.closedAt'),
      shift.closedAt ? <time dateTime={shift.closedAt}>{formatDateTime(shift.closedAt, timeZone)}</time> : <span>{t('shifts.state.open')}</span>,
    ],
    [t('shifts.fields.float'), <Money minor={shift.openingFloat} currency={currency} />],
  ];
  if (shift.closedBy) facts.push([t('shifts.fields.closedBy'), <span>{shift.closedBy.nickname}</span>]);
  if (shift.note) facts.push([t('orders.record.note'), <span dir="auto">{shift.note}</span>]);
  // The drawer: taken over at the open (and why the float differed), left at the close, the rest to the safe.
  if (shift.handedOver)
    facts.push([
      t('shifts.fields.handedOver'),
      <span data-testid="shift-details-handed-over">
        {t('shifts.open.handover', {
          name: shift.handedOver.operator.nickname,
          amount: formatMoney(shift.handedOver.leftInDrawer, currency),
          time: formatDateTime(shift.handedOver.closedAt, timeZone),
        })}
      </span>,
    ]);
  if (shift.openingNote) facts.push([t('shifts.fields.openingNote'), <span dir="auto">{shift.openingNote}</span>]);
  if (shift.leftInDrawer !== null) {
    facts.push([
      t('shifts.fields.leftInDrawer'),
      <span data-testid="shift-details-left" data-amount={shift.leftInDrawer}>
        <Money minor={shift.leftInDrawer} currency={currency} />
      </span>,
    ]);
    facts.push([
      t('shifts.fields.toSafe'),
      <span data-testid="shift-details-to-safe" data-amount={shift.toSafe ?? ''}>
        <Money minor={shift.toSafe} currency={currency} />
      </span>,
    ]);
  }
  return (
    <div className="grid min-w-0 gap-4" data-shift-id={shift.id}>
      <DialogHeader>
        <DialogTitle>{t('shifts.details.title', { name: shift.operator.nickname })}</DialogTitle>
        <DialogDescription>{t('shifts.details.description')}</DialogDescription>
      </DialogHeader>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {facts.map(([label, value]) => (
          <div key={label} className="flex min-w-0 flex-wrap justify-between gap-x-3 sm:block">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 font-medium break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <Table phoneCards data-testid="shift-details-lines">
        <TableHeader>
          <TableRow>
            <TableHead className={WRAP}>{t('orders.columns.method')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.moved')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.expected')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.counted')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.difference')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {shift.methods.map((line) => (
            <TableRow key={line.method} data-testid="shift-details-line" data-method={line.method} data-difference={line.difference ?? undefined}>
              <TableCell className="font-medium">{t(`orders.methods.${line.method}`)}</TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.moved')}>
                <Money minor={line.net} currency={currency} />
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.expected')}>
                {line.method === 'balance' ? '—' : <Money minor={line.expected} currency={currency} />}
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.counted')}>
                <Money minor={line.counted} currency={currency} />
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.difference')}>
                <Difference minor={line.difference} currency={currency} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell className="font-semibold">{t('shifts.fields.total')}</TableCell>
            <TableCell className="hidden sm:table-cell" />
            <TableCell className="text-end font-semibold" data-label={t('shifts.fields.expected')}>
              <Money minor={shift.expected} currency={currency} />
            </TableCell>
            <TableCell className="text-end font-semibold" data-label={t('shifts.fields.counted')}>
              <Money minor={shift.counted} currency={currency} />
            </TableCell>
            <TableCell className="text-end font-semibold" data-label={t('shifts.fields.difference')}>
              <Difference minor={shift.difference} currency={currency} />
            </TableCell>
          </TableRow>
        </TableFooter>
      </Table>
    </div>
  );
}
