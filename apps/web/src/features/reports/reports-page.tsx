import { useMemo } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { ChevronLeft, ChevronRight, Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isLocalDate } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { PageHeader } from '@/components/list-page';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { formatDate } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { todayInHotel } from '@/lib/hotel-time';
import { currentLanguage } from '@/lib/language';
import { withoutDefaults } from '@/lib/url-defaults';
import { useDateDraft } from '@/lib/use-date-draft';
import { readReportsSearch, reportFileUrl, type ReportsSearch } from './api';
import { REPORT_PERIODS, periodRange, shiftPeriod, type ReportPeriod } from './period';
import { DayView, RangeView } from './report-views';
import { reportsSearchDefaults } from './reports-search';

const route = getRouteApi('/_auth/reports');

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
  const setSearch = (patch: Partial<ReportsSearch>) =>
    void navigate({ search: (prev) => withoutDefaults({ ...readReportsSearch(prev), ...patch }, reportsSearchDefaults), replace: true });
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
