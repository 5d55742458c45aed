import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatShortDateTime } from '@/lib/format';
import { currentLanguage } from '@/lib/language';
import { usePhone } from '@/lib/use-phone';
import { todayQueries } from './api';
import { Figures } from './today-figures';

/** The hotel's date as the interface language writes it in full ("Sunday, 22 November 2026"). */
function formatDay(date: string): string {
  return new Intl.DateTimeFormat(currentLanguage().header, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/**
 * `/today`: the today board (issue 9 §6, the spec's "home"), the hotel's day at a glance in its
 * time zone, over the rooms the member may see: arrivals, departures, in house, overdue check-outs,
 * dirty rooms, rooms out of order, breakfasts, locks and credential deliveries that need attention,
 * and (for those who manage orders) the day's takings. Each figure opens the list it counts
 * (today.get says how each is counted); locks and failed deliveries name their rooms. Below,
 * `arrivals`: the day's arrivals list, which the route passes in (another feature's). On a phone
 * (issue 26 §3) the arrivals come first and the figures follow, two a row.
 */
export function TodayPage({ arrivals }: { arrivals?: ReactNode } = {}) {
  const { t } = useTranslation();
  const query = useQuery(todayQueries.board());
  const data = query.data;
  const isPhone = usePhone();
  // The figures move, never the arrivals (a dialog open there stays open when the phone turns).
  const figures = (
    <>
      {query.isLoading && (
        <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-4" aria-busy="true" role="status" aria-label={t('common.loading')}>
          {Array.from({ length: 9 }, (_, i) => (
            <Skeleton key={i} className="h-28 rounded-xl sm:h-36" />
          ))}
        </div>
      )}
      {data && <Figures data={data} />}
    </>
  );
  return (
    <div className="space-y-4" data-testid="today-page">
      <PageHeader
        title={t('route.today')}
        isBusy={query.isFetching && !query.isLoading}
        actions={<RefreshButton onRefresh={query.refetch} fetching={query.isFetching} data-testid="today-refresh" />}
      />
      {data && (
        <p className="text-muted-foreground -mt-2 text-sm" data-testid="today-date" data-date={data.date}>
          {t('today.asOf', { date: formatDay(data.date), time: formatShortDateTime(data.at, data.timeZone) })}
        </p>
      )}
      {query.isError && <LoadError query={failedQuery(query)} what={t('today.what')} />}
      {!isPhone && figures}
      {/* The day's arrivals with their actions (the front desk's: the route passes them in). */}
      {arrivals}
      {isPhone && figures}
    </div>
  );
}
