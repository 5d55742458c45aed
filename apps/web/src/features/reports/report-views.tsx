import { Suspense, lazy, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { Money, WRAP, WRAP_END } from '@/components/money';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { reportQueries, type DayReport } from './api';
import { CloseDayDialog } from './close-day-dialog';
import { Figures, MethodTable, formatPercent } from './report-figures';

// The chart library comes with the chart, when a week or a month is shown.
const ReportChart = lazy(() => import('./report-chart'));

/** One day: whether it is closed (by whom, when) or can be, its figures and its money by way of paying. */
export function DayView({ date, today, enabled }: { date: string; today: string; enabled: boolean }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const query = useQuery(reportQueries.day(date, enabled));
  const [closing, setClosing] = useState(false);
  const report = query.data?.date === date ? query.data : undefined;
  if (query.isError && !report) return <LoadError query={failedQuery(query)} what={t('reports.what')} />;
  if (!report) return <Skeleton className="h-64 w-full" />;
  const isOver = date < today;
  return (
    <div className="space-y-6">
      <Card
        className="flex flex-row flex-wrap items-center justify-between gap-3 p-4"
        data-testid="report-state"
        data-state={report.closed ? 'closed' : 'open'}
      >
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          {report.closed ? (
            <Badge variant="success">
              <Lock aria-hidden />
              {t('reports.state.closed')}
            </Badge>
          ) : (
            <Badge variant="outline">{t('reports.state.open')}</Badge>
          )}
          <p className="text-sm">
            {report.closed && report.closedAutomatically
              ? t('reports.state.closedAuto', { time: formatDateTime(report.closedAt, timeZone) })
              : report.closed
                ? t('reports.state.closedBy', { name: report.closedBy?.nickname ?? '', time: formatDateTime(report.closedAt, timeZone) })
                : isOver
                  ? t('reports.state.overNotClosed')
                  : t('reports.state.running')}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <RefreshButton onRefresh={query.refetch} fetching={query.isFetching} />
          {!report.closed && isOver && (
            <Button onClick={() => setClosing(true)} data-testid="report-close">
              <Lock aria-hidden />
              {t('reports.close.action')}
            </Button>
          )}
        </div>
      </Card>
      <Figures figures={report} currency={report.currency} />
      <MethodTable figures={report} currency={report.currency} />
      <CloseDayDialog date={date} open={closing} onClose={() => setClosing(false)} />
    </div>
  );
}

/** A week or a month: the days' sums, the chart, and each day in a row (a link to that day). */
export function RangeView({ from, to, enabled, onOpenDay }: { from: string; to: string; enabled: boolean; onOpenDay(day: string): void }) {
  const { t } = useTranslation();
  const query = useQuery(reportQueries.range(from, to, enabled));
  const report = query.data?.from === from && query.data.to === to ? query.data : undefined;
  if (query.isError && !report) return <LoadError query={failedQuery(query)} what={t('reports.what')} />;
  if (!report) return <Skeleton className="h-64 w-full" />;
  const closed = report.days.filter((d) => d.closed).length;
  const currency = report.currency;
  return (
    <div className="space-y-6">
      <Card
        className="flex flex-row flex-wrap items-center justify-between gap-3 p-4"
        data-testid="report-state"
        data-closed={closed}
        data-days={report.days.length}
      >
        <p className="text-sm">{t('reports.state.daysClosed', { closed, count: report.days.length })}</p>
        <RefreshButton onRefresh={query.refetch} fetching={query.isFetching} />
      </Card>
      <Figures figures={report.total} currency={currency} />
      <section aria-labelledby="report-chart-title" className="space-y-2">
        <h2 id="report-chart-title" className="text-lg font-semibold">
          {t('reports.chart.title')}
        </h2>
        <figure aria-label={t('reports.chart.label')}>
          <Suspense fallback={<Skeleton className="h-[260px] w-full" />}>
            <ReportChart days={report.days} currency={currency} />
          </Suspense>
        </figure>
      </section>
      <section aria-labelledby="report-days-title" className="space-y-2">
        <h2 id="report-days-title" className="text-lg font-semibold">
          {t('reports.days.title')}
        </h2>
        <Table phoneCards data-testid="report-days" aria-labelledby="report-days-title">
          <TableHeader>
            <TableRow>
              <TableHead className={WRAP}>{t('reports.columns.date')}</TableHead>
              <TableHead className={WRAP}>{t('reports.columns.state')}</TableHead>
              <TableHead className={WRAP_END}>{t('reports.columns.sold')}</TableHead>
              <TableHead className={WRAP_END}>{t('reports.columns.occupancy')}</TableHead>
              <TableHead className={WRAP_END}>{t('reports.columns.adr', { currency })}</TableHead>
              <TableHead className={WRAP_END}>{t('reports.columns.revenue', { currency })}</TableHead>
              <TableHead className={WRAP_END}>{t('reports.columns.received', { currency })}</TableHead>
              <TableHead className={WRAP_END}>{t('reports.columns.refunded', { currency })}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {report.days.map((day) => (
              <DayRow key={day.date} day={day} currency={currency} onOpen={() => onOpenDay(day.date)} />
            ))}
          </TableBody>
        </Table>
      </section>
      <MethodTable figures={report.total} currency={currency} />
    </div>
  );
}

function DayRow({ day, currency, onOpen }: { day: DayReport; currency: string; onOpen(): void }) {
  const { t } = useTranslation();
  return (
    <TableRow data-testid={`report-day-${day.date}`} data-state={day.closed ? 'closed' : 'open'} data-sold={day.rooms.sold} data-revenue={day.revenue.total}>
      <TableCell className="font-medium">
        <Link
          to="/reports"
          search={{ period: 'day', date: day.date }}
          onClick={(event) => {
            event.preventDefault();
            onOpen();
          }}
          className="underline-offset-4 hover:underline"
        >
          {formatDate(day.date)}
        </Link>
      </TableCell>
      <TableCell data-label={t('reports.columns.state')}>
        {day.closed ? <Badge variant="success">{t('reports.state.closed')}</Badge> : <Badge variant="outline">{t('reports.state.open')}</Badge>}
      </TableCell>
      <TableCell className="text-end tabular-nums" data-label={t('reports.columns.sold')}>
        {formatNumber(day.rooms.sold)}
      </TableCell>
      <TableCell className="text-end tabular-nums" data-label={t('reports.columns.occupancy')}>
        {formatPercent(day.occupancy)}
      </TableCell>
      <TableCell className="text-end" data-label={t('reports.columns.adr', { currency })}>
        <Money minor={day.adr} currency={currency} />
      </TableCell>
      <TableCell className="text-end" data-label={t('reports.columns.revenue', { currency })}>
        <Money minor={day.revenue.total} currency={currency} />
      </TableCell>
      <TableCell className="text-end" data-label={t('reports.columns.received', { currency })}>
        <Money minor={day.received} currency={currency} />
      </TableCell>
      <TableCell className="text-end" data-label={t('reports.columns.refunded', { currency })}>
        <Money minor={day.refunded} currency={currency} />
      </TableCell>
    </TableRow>
  );
}
