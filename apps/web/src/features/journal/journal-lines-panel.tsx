import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ListX, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, failedQuery } from '@/components/load-error';
import { Money, WRAP, WRAP_END } from '@/components/money';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate, formatNumber, formatShortDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { formatMoney } from '@/lib/money';
import { LINES_PAGE_SIZE, journalQueries, type JournalLines, type Selection } from './api';
import { methodLabel, shiftLabel } from './labels';

/**
 * The drill-down (docs/journal.md): the journal lines of the day on the chosen row, as posted, a
 * page at a time, with the sums of them all. Each says what it was (the order entry and its note,
 * or the balance it moved), where (the room and guest, a link to the guest's page; or the
 * customer), and its debit or credit. It takes the focus when opened; Escape closes it and gives
 * the focus back to the row.
 */
export function JournalLinesPanel({
  date,
  selection,
  title,
  page,
  currency,
  onPage,
  onClose,
}: {
  date: string;
  selection: Selection;
  title: string;
  page: number;
  currency: string;
  onPage(page: number): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const query = useQuery(journalQueries.lines({ ...selection, date, page }));
  const heading = useRef<HTMLHeadingElement>(null);
  const key = `${date}|${selection.account}|${selection.method ?? ''}|${selection.shift ?? ''}`;
  useEffect(() => {
    heading.current?.focus();
  }, [key]);
  const data = query.data;
  return (
    <Card
      className="gap-3 p-4"
      aria-labelledby="tb-lines-title"
      data-testid="tb-lines"
      data-account={selection.account}
      data-total={data?.total}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id="tb-lines-title" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
            {t('journal.lines.title', { account: title, date: formatDate(date) })}
          </h2>
          {data && data.total > 0 && (
            <p className="text-muted-foreground text-sm" data-testid="tb-lines-sums" data-debits={data.debits} data-credits={data.credits}>
              {t('journal.lines.sums', {
                number: formatNumber(data.total),
                debits: formatMoney(data.debits, currency),
                credits: formatMoney(Math.abs(data.credits), currency),
              })}
            </p>
          )}
        </div>
        <Button variant="ghost" size="icon" onClick={onClose} aria-label={t('journal.lines.close')} data-testid="tb-lines-close">
          <X aria-hidden />
        </Button>
      </div>
      <LoadError query={failedQuery(query)} what={t('journal.lines.what')} />
      {!data ? (
        query.isError ? null : (
          <div className="grid gap-2" role="status" aria-busy="true" aria-label={t('common.loading')} data-testid="tb-lines-loading">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-8 w-full" />
            ))}
          </div>
        )
      ) : data.total === 0 ? (
        <EmptyState icon={ListX} title={t('journal.lines.none')} description={t('journal.lines.noneHint')} data-testid="tb-lines-empty" />
      ) : (
        <>
          <LinesTable data={data} currency={currency} />
          {data.total > LINES_PAGE_SIZE && <ListPagination page={data.page} pageSize={LINES_PAGE_SIZE} total={data.total} onPageChange={onPage} />}
        </>
      )}
    </Card>
  );
}

function LinesTable({ data, currency }: { data: JournalLines; currency: string }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  return (
    <Table phoneCards data-testid="tb-lines-table" aria-labelledby="tb-lines-title">
      <TableHeader>
        <TableRow>
          <TableHead className={WRAP}>{t('journal.columns.postedAt')}</TableHead>
          <TableHead className={WRAP}>{t('journal.columns.what')}</TableHead>
          <TableHead className={WRAP}>{t('journal.columns.where')}</TableHead>
          <TableHead className={WRAP}>{t('journal.columns.way')}</TableHead>
          <TableHead className={WRAP}>{t('journal.columns.serviceDate')}</TableHead>
          <TableHead className={WRAP_END}>{t('journal.columns.debit', { currency })}</TableHead>
          <TableHead className={WRAP_END}>{t('journal.columns.credit', { currency })}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {data.items.map((line) => (
          <TableRow key={line.id} data-testid="tb-line" data-entry={line.entryId} data-amount={line.amount} data-stay={line.stayId ?? undefined}>
            <TableCell className="tabular-nums">{formatShortDateTime(line.postedAt, timeZone)}</TableCell>
            <TableCell className="max-w-72 whitespace-normal" data-label={t('journal.columns.what')}>
              <span className="font-medium">{line.order ? t(`orders.kinds.${line.order.kind}`) : t(`journal.sources.${line.source}`)}</span>
              {line.order?.note && (
                <span className="text-muted-foreground block truncate" title={line.order.note} dir="auto">
                  {line.order.note}
                </span>
              )}
              {line.order?.operator && <span className="text-muted-foreground block text-xs">{t('journal.lines.by', { name: line.order.operator })}</span>}
            </TableCell>
            <TableCell className="whitespace-normal" data-label={t('journal.columns.where')}>
              {line.guestId !== null ? (
                <Link to="/room/thetouristsDetails" search={{ id: line.guestId }} className="text-primary underline-offset-4 hover:underline" dir="auto">
                  {t('journal.lines.stay', { room: line.roomName ?? '—', guest: line.guestName ?? '' })}
                </Link>
              ) : line.customerName ? (
                <span dir="auto">{t('journal.lines.customer', { name: line.customerName })}</span>
              ) : (
                (line.roomName ?? '—')
              )}
            </TableCell>
            <TableCell className="whitespace-normal" data-label={t('journal.columns.way')}>
              {line.method ? methodLabel(t, line.method) : line.order?.method ? t(`orders.methods.${line.order.method}`) : '—'}
              {line.shift && <span className="text-muted-foreground block text-xs">{shiftLabel(t, line.shift, timeZone)}</span>}
            </TableCell>
            <TableCell className="tabular-nums" data-label={t('journal.columns.serviceDate')}>
              {line.serviceDate ? formatDate(line.serviceDate) : '—'}
            </TableCell>
            <TableCell className="text-end" data-label={t('journal.columns.debit', { currency })}>
              {line.amount > 0 ? <Money minor={line.amount} currency={currency} /> : ''}
            </TableCell>
            <TableCell className="text-end" data-label={t('journal.columns.credit', { currency })}>
              {line.amount < 0 ? <Money minor={-line.amount} currency={currency} /> : ''}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
