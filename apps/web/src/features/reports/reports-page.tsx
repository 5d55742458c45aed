import { Suspense, lazy, useId, useMemo, useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight, Download, Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isLocalDate } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DateTimeField } from '@/components/date-time-field';
import { FormError } from '@/components/form-error';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { todayInHotel } from '@/lib/hotel-time';
import { currentLanguage } from '@/lib/language';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useDateDraft } from '@/lib/use-date-draft';
import { Money, WRAP, WRAP_END } from '@/components/money';
import { invalidateReports, readReportsSearch, reportFileUrl, reportQueries, type DayFigures, type DayReport, type ReportsSearch } from './api';
import { REPORT_PERIODS, periodRange, shiftPeriod, type ReportPeriod } from './period';
import { reportsSearchDefaults } from './reports-search';

const route = getRouteApi('/_auth/reports');
// The chart library comes with the chart, when a week or a month is shown.
const ReportChart = lazy(() => import('./report-chart'));

function inUrl(search: ReportsSearch): Record<string, unknown> {
  const defaults: Record<string, unknown> = reportsSearchDefaults;
  return Object.fromEntries(Object.entries(search).filter(([key, value]) => value !== undefined && defaults[key] !== value));
}

/**
 * `/reports`, the manager's reports (issue 26 §2, docs/reports.md): a day with its figures and its
 * close (a closed day's figures are frozen), or a week or a month with the days' sums, a chart of
 * occupancy and revenue, and the table of its days; each as .xlsx or .csv. Hotel-wide: for managers
 * of every room. An open day's figures follow the ledger live (lib/live-events.ts).
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const raw = route.useSearch();
  const search = useMemo(() => readReportsSearch(raw), [raw]);
  const navigate = route.useNavigate();
  const today = todayInHotel(timeZone);
  const date = search.date ?? today;
  const setSearch = (patch: Partial<ReportsSearch>) => void navigate({ search: (prev) => inUrl({ ...readReportsSearch(prev), ...patch }), replace: true });
  const [typed, setTyped] = useDateDraft(search.date ?? today, (value) => setSearch({ date: value }));
  const dateError = typed !== '' && !isLocalDate(typed) ? 'validation.dateInvalid' : null;
  const canSend = isLocalDate(date);
  const range = periodRange(search.period, canSend ? date : today);
  const language = currentLanguage().header;
  const step = (by: -1 | 1) => setSearch({ date: shiftPeriod(search.period, range.from === range.to ? date : range.from, by) });

  return (
    <div className="space-y-6" data-testid="reports-page" data-period={search.period} data-from={range.from} data-to={range.to}>
      <PageHeader
        title={t('route.reports')}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="outline" size="sm" asChild>
              <a href={reportFileUrl(range.from, range.to, 'xlsx', language)} download data-testid="report-export-xlsx">
                <Download aria-hidden />
                {t('reports.file.xlsx')}
              </a>
            </Button>
            <Button variant="outline" size="sm" asChild>
              <a href={reportFileUrl(range.from, range.to, 'csv', language)} download data-testid="report-export-csv">
                <Download aria-hidden />
                {t('reports.file.csv')}
              </a>
            </Button>
          </div>
        }
      />
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <span className="text-sm font-medium" id="report-period-label">
            {t('reports.period.label')}
          </span>
          <ToggleGroup
            type="single"
            value={search.period}
            onValueChange={(value) => value && setSearch({ period: value as ReportPeriod })}
            aria-labelledby="report-period-label"
            data-testid="report-period"
          >
            {REPORT_PERIODS.map((period) => (
              <ToggleGroupItem key={period} value={period} data-testid={`report-period-${period}`}>
                {t(`reports.period.${period}`)}
              </ToggleGroupItem>
            ))}
          </ToggleGroup>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="report-date">{t('reports.period.date')}</Label>
          <div className="flex items-center gap-1">
            <Button variant="outline" size="icon" onClick={() => step(-1)} aria-label={t(`reports.period.previous.${search.period}`)} data-testid="report-prev">
              <ChevronLeft aria-hidden className="rtl:rotate-180" />
            </Button>
            <DateTimeField
              id="report-date"
              withTime={false}
              timeZone={timeZone}
              className="w-44"
              value={typed}
              onChange={setTyped}
              invalid={dateError !== null}
              describedBy={dateError ? 'report-date-error' : undefined}
              data-testid="report-date"
            />
            <Button variant="outline" size="icon" onClick={() => step(1)} aria-label={t(`reports.period.next.${search.period}`)} data-testid="report-next">
              <ChevronRight aria-hidden className="rtl:rotate-180" />
            </Button>
          </div>
        </div>
        {search.date !== undefined && search.date !== today && (
          <Button variant="ghost" onClick={() => setSearch({ date: undefined })} data-testid="report-today">
            {t('reports.period.today')}
          </Button>
        )}
      </div>
      {dateError && (
        <p id="report-date-error" role="alert" className="text-destructive text-sm">
          {t(dateError)}
        </p>
      )}
      <p className="text-muted-foreground text-sm" data-testid="report-range">
        {range.from === range.to ? formatDate(range.from) : t('reports.period.range', { from: formatDate(range.from), to: formatDate(range.to) })}
      </p>
      {search.period === 'day' ? (
        <DayView date={range.from} today={today} enabled={canSend && !dateError} />
      ) : (
        <RangeView from={range.from} to={range.to} enabled={canSend && !dateError} onOpenDay={(day) => setSearch({ period: 'day', date: day })} />
      )}
    </div>
  );
}

/** One day: whether it is closed (by whom, when) or can be, its figures and its money by way of paying. */
function DayView({ date, today, enabled }: { date: string; today: string; enabled: boolean }) {
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
function RangeView({ from, to, enabled, onOpenDay }: { from: string; to: string; enabled: boolean; onOpenDay(day: string): void }) {
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

/** Occupancy (a percent with one decimal) in the console's language. */
const formatPercent = (value: number) => new Intl.NumberFormat(currentLanguage().header, { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);

function Fact({ label, children, hint, testId }: { label: string; children: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <div className="bg-card grid content-start gap-0.5 rounded-lg border p-3" data-testid={testId}>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="text-lg font-semibold">{children}</dd>
      {hint && <dd className="text-muted-foreground text-xs">{hint}</dd>}
    </div>
  );
}

/** The figures of a day or of a range's sums. */
function Figures({ figures: f, currency }: { figures: DayFigures; currency: string }) {
  const { t } = useTranslation();
  return (
    <dl
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
      data-testid="report-figures"
      data-sold={f.rooms.sold}
      data-available={f.rooms.available}
      data-occupancy={f.occupancy}
      data-revenue={f.revenue.total}
      data-received={f.received}
      data-refunded={f.refunded}
      data-arrivals={f.arrivals}
      data-departures={f.departures}
    >
      <Fact label={t('reports.columns.occupancy')} hint={t('reports.soldOf', { sold: formatNumber(f.rooms.sold), available: formatNumber(f.rooms.available) })}>
        {formatPercent(f.occupancy)}
      </Fact>
      <Fact label={t('reports.figures.adr')}>
        <Money minor={f.adr} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.revpar')}>
        <Money minor={f.revpar} currency={currency} />
      </Fact>
      <Fact
        label={t('reports.figures.revenue')}
        hint={t('reports.revenueParts', {
          rooms: formatMoney(f.revenue.roomCharges, currency),
          other: formatMoney(f.revenue.charges, currency),
        })}
      >
        <Money minor={f.revenue.total} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.received')}>
        <Money minor={f.received} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.refunded')}>
        <Money minor={f.refunded} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.owing')} hint={t('reports.bills', { count: f.owing.count })}>
        <Money minor={f.owing.total} currency={currency} />
      </Fact>
      <Fact label={t('reports.figures.depositsHeld')}>
        <Money minor={f.depositsHeld} currency={currency} />
      </Fact>
      <Fact label={t('reports.columns.arrivals')}>{formatNumber(f.arrivals)}</Fact>
      <Fact label={t('reports.columns.departures')}>{formatNumber(f.departures)}</Fact>
      <Fact label={t('reports.columns.stayOvers')}>{formatNumber(f.stayOvers)}</Fact>
      <Fact label={t('reports.figures.noShowsCancellations')}>{`${formatNumber(f.noShows)} · ${formatNumber(f.cancellations)}`}</Fact>
    </dl>
  );
}

/** Money that changed hands by way of paying (as the cash report's lines). */
function MethodTable({ figures, currency }: { figures: DayFigures; currency: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h2 id={headingId} className="text-lg font-semibold">
        {t('reports.methods.title')}
      </h2>
      {figures.methods.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="report-methods-empty">
          {t('reports.methods.none')}
        </p>
      ) : (
        <Table phoneCards data-testid="report-methods" aria-labelledby={headingId}>
          <TableHeader>
            <TableRow>
              <TableHead className={WRAP}>{t('orders.columns.method')}</TableHead>
              {(['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net'] as const).map((k) => (
                <TableHead key={k} className={WRAP_END}>
                  {t(`reports.methods.${k}`, { currency })}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {figures.methods.map((line) => (
              <TableRow key={line.method} data-testid="report-method" data-method={line.method} data-net={line.net}>
                <TableCell className="font-medium">{t(`orders.methods.${line.method}`)}</TableCell>
                {(['deposits', 'payments', 'recharges', 'refunds', 'corrections', 'net'] as const).map((k) => (
                  <TableCell key={k} className="text-end" data-label={t(`reports.methods.${k}`, { currency })}>
                    <Money minor={line[k]} currency={currency} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

/** "Close the day": asked once, since a closed day is never changed. */
function CloseDayDialog({ date, open, onClose }: { date: string; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const close = useMutation(
    trpc.order.closeDay.mutationOptions({
      onSuccess: async () => {
        toast.success(t('reports.close.done', { date: formatDate(date) }));
        onClose();
        await invalidateReports(queryClient);
      },
    }),
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !close.isPending) {
          close.reset();
          onClose();
        }
      }}
      title={t('reports.close.title', { date: formatDate(date) })}
      description={t('reports.close.description')}
      confirmLabel={t('reports.close.action')}
      pending={close.isPending}
      onConfirm={() => close.mutate({ date })}
      data-testid="report-close-dialog"
      confirmTestId="report-close-confirm"
    >
      <p className="text-sm text-muted-foreground">{t('reports.close.audit')}</p>
      <FormError error={close.error} />
    </ConfirmDialog>
  );
}
