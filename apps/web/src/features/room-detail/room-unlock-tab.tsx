import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { ListPage } from '@/components/list-page';
import { QuickRangeButtons } from '@/components/quick-range-buttons';
import { RefreshButton } from '@/components/refresh-button';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { todayInHotel } from '@/lib/hotel-time';
import { quickRange } from '@/lib/quick-range';
import { periodErrorOf } from '@/lib/use-date-draft';
import { roomDetailQueries } from './api';

interface Period {
  from: string;
  to: string;
}

/** The lock's unlock records of the room, newest first, between two dates of the hotel. */
export function RoomUnlockTab({ roomId, timeZone }: { roomId: number; timeZone: string }) {
  const { t } = useTranslation();
  const today = todayInHotel(timeZone);
  const [period, setPeriod] = useState<Period>(() => quickRange('today', today));
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(LIMITS.pageSizeDefault);
  // A date being typed is not asked for until it is a whole date.
  const periodError = periodErrorOf(period.from, period.to);
  const isValid = periodError === null;

  // New records arrive from the locks at any time: the first page follows them while it is shown.
  const records = useQuery(roomDetailQueries.unlockRecords({ roomId, from: period.from || undefined, to: period.to || undefined, page, pageSize }, isValid));
  const total = records.data?.total ?? 0;
  const choose = (next: Period) => {
    setPeriod(next);
    setPage(1);
  };

  // The tab's own toolbar (quick ranges, the two dates, refresh, the period's error) is the list's search slot, always shown.
  const toolbar = (
    <div className="flex w-full flex-wrap items-start gap-3">
      <QuickRangeButtons from={period.from} to={period.to} timeZone={timeZone} onPick={choose} testIdPrefix="unlock-range" className="mt-5" />
      <div className="grid gap-1">
        <Label htmlFor="unlock-from" className="text-xs">
          {t('frontDesk.detail.unlockFrom')}
        </Label>
        <DateTimeField
          id="unlock-from"
          withTime={false}
          timeZone={timeZone}
          className="w-56"
          value={period.from}
          onChange={(from) => choose({ ...period, from })}
          data-testid="unlock-from"
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="unlock-to" className="text-xs">
          {t('frontDesk.detail.unlockTo')}
        </Label>
        <DateTimeField
          id="unlock-to"
          withTime={false}
          timeZone={timeZone}
          className="w-56"
          value={period.to}
          onChange={(to) => choose({ ...period, to })}
          invalid={periodError !== null}
          describedBy={periodError ? 'unlock-period-error' : undefined}
          data-testid="unlock-to"
        />
      </div>
      <RefreshButton onRefresh={records.refetch} fetching={records.isFetching} disabled={!isValid} size="icon-sm" className="ms-auto mt-5" />
      {periodError && (
        <p id="unlock-period-error" role="alert" className="text-destructive w-full text-sm">
          {t(periodError)}
        </p>
      )}
    </div>
  );

  return (
    <ListPage
      search={toolbar}
      // A period still being typed asks for nothing: the list says there is nothing to show.
      query={isValid ? records : { ...records, error: null, isError: false, isLoading: false, isFetching: false }}
      what={t('frontDesk.detail.loadWhat.unlock')}
      isEmpty={!isValid || total === 0}
      empty={
        <EmptyState
          icon={KeyRound}
          title={t('frontDesk.detail.unlockEmptyTitle')}
          description={t('frontDesk.detail.unlockEmptyText')}
          data-testid="unlock-empty"
        />
      }
      skeleton={<SkeletonRows rows={5} label={t('common.loading')} />}
      pagination={
        isValid
          ? {
              page,
              pageSize,
              total,
              totalCapped: records.data?.totalCapped ?? false,
              pageSizeOptions: LIMITS.pageSizeOptions,
              onPageChange: setPage,
              onPageSizeChange: (size) => {
                setPageSize(size);
                setPage(1);
              },
            }
          : undefined
      }
      data-testid="unlock-records"
    >
      <Table data-testid="unlock-table">
        <TableHeader>
          <TableRow>
            <TableHead>{t('frontDesk.detail.unlockTime')}</TableHead>
            <TableHead>{t('frontDesk.detail.unlockContent')}</TableHead>
            <TableHead>{t('frontDesk.detail.unlockSource')}</TableHead>
            <TableHead>{t('frontDesk.detail.unlockStyle')}</TableHead>
            <TableHead>{t('frontDesk.detail.unlockOperator')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {records.data?.items.map((record) => (
            <TableRow key={record.id} data-testid={`unlock-row-${record.id}`}>
              <TableCell className="whitespace-nowrap tabular-nums">
                <time dateTime={record.occurredAt}>{formatDateTime(record.occurredAt, timeZone)}</time>
              </TableCell>
              <TableCell className={record.success ? undefined : 'text-destructive'}>
                {t(`frontDesk.detail.unlockEvents.${record.event}`)}
                {record.reason && (
                  <span className="block text-xs" data-testid="unlock-refusal">
                    {t(`frontDesk.detail.refusals.${record.reason}`, { defaultValue: t('frontDesk.detail.refusals.other') })}
                  </span>
                )}
              </TableCell>
              <TableCell>
                {t(`frontDesk.detail.unlockSources.${record.source}`)}
                {record.device && (
                  <span className="text-muted-foreground ms-1 text-xs" dir="ltr">
                    {record.device}
                  </span>
                )}
                {record.door && (
                  <span className="text-muted-foreground block text-xs" dir="auto" data-testid="unlock-door">
                    {t('unlockRecords.atDoor', { door: record.door.name })}
                  </span>
                )}
              </TableCell>
              <TableCell>{t(`frontDesk.detail.unlockStyles.${record.style}`)}</TableCell>
              <TableCell>{record.operator || '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ListPage>
  );
}
