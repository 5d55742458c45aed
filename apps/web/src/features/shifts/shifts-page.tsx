import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { Banknote, FileSearch } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PeriodError, PeriodFields } from '@/components/period-fields';
import { ClearFiltersButton, ListPage, PageHeader, urlPagination } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatShortDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { withoutDefaults } from '@/lib/url-defaults';
import { usePeriodDraft } from '@/lib/use-date-draft';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';
import { readShiftsSearch, shiftQueries, type Shift, type ShiftsSearch } from './api';
import { CloseShiftDialog } from './close-shift-dialog';
import { OpenShiftDialog } from './open-shift-dialog';
import { ShiftDetailsDialog } from './shift-details-dialog';
import { Money, WRAP, WRAP_END } from '@/components/money';
import { Difference } from './shift-figures';
import { shiftsSearchDefaults } from './shifts-search';

const route = getRouteApi('/_auth/shifts');

/** What goes into the URL: the values set, those equal to the defaults left out. */
const inUrl = (search: ShiftsSearch) => withoutDefaults(search, shiftsSearchDefaults);

/**
 * `/shifts`, cashier shifts (issue 26 §2, docs/orders.md "Cashier shifts"): the clerk's own shift,
 * opened with the cash float counted (typed, never proposed) and closed by counting what is in hand
 * per way of paying, the difference recorded; and the shifts with each one's report, the clerk's
 * own, or every clerk's for a manager (`order.manage`), who may also close a shift a clerk left open.
 * A closed shift is final: nothing here reopens or changes it. The figures follow the ledger live.
 */
export function ShiftsPage() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const { timeZone } = useHotelSettings();
  const canManage = hasPermission(user, 'order.manage');
  const [closing, setClosing] = useState<Shift | null>(null);
  const [shown, setShown] = useState<Shift | null>(null);
  return (
    <div className="space-y-6" data-testid="shifts-page">
      <PageHeader title={t('route.shifts')} />
      <CurrentShift timeZone={timeZone} onCloseShift={setClosing} />
      {/* The clerk closes their own shift from its card; a manager closes here a shift another clerk left open. */}
      <ShiftList timeZone={timeZone} canClose={(shift) => canManage && shift.operator.id !== user?.id} onCloseShift={setClosing} onShow={setShown} />
      <CloseShiftDialog shift={closing} own={closing !== null && closing.operator.id === user?.id} onClose={() => setClosing(null)} />
      <ShiftDetailsDialog shift={shown} timeZone={timeZone} onClose={() => setShown(null)} />
    </div>
  );
}

/** A label and its value, in a definition list. */
function Fact({
  label,
  children,
  className,
  ...props
}: { label: string; children: ReactNode; className?: string } & Record<`data-${string}`, string | number | undefined>) {
  return (
    <div className={cn('grid content-start gap-0.5', className)} {...props}>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

/** The signed-in clerk's shift: "open a shift" when none is open; else when it opened, its float, and what each way of paying moved and left in hand. */
function CurrentShift({ timeZone, onCloseShift }: { timeZone: string; onCloseShift(shift: Shift): void }) {
  const { t } = useTranslation();
  const { currency } = useHotelSettings();
  const query = useQuery(shiftQueries.current());
  const shift = query.data;
  const [opening, setOpening] = useState(false);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Card
        className="gap-4 p-4"
        data-testid="shift-current"
        data-state={shift === undefined ? 'loading' : shift === null ? 'none' : 'open'}
        data-shift-id={shift?.id}
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex min-w-0 items-center gap-2">
            <h2 id={headingId} className="truncate text-lg font-semibold">
              {t('shifts.mine.title')}
            </h2>
            {shift && <Badge variant="success">{t('shifts.state.open')}</Badge>}
          </div>
          {shift === null && (
            <Button onClick={() => setOpening(true)} data-testid="shift-open">
              <Banknote aria-hidden />
              {t('shifts.open.action')}
            </Button>
          )}
          {shift && (
            <Button variant="outline" onClick={() => onCloseShift(shift)} data-testid="shift-close">
              {t('shifts.close.action')}
            </Button>
          )}
        </div>
        {shift === undefined && query.isError ? (
          <LoadError query={failedQuery(query)} what={t('shifts.mine.what')} />
        ) : shift === undefined ? (
          <Skeleton className="h-24 w-full" />
        ) : shift === null ? (
          <p className="text-muted-foreground text-sm" data-testid="shift-none">
            {t('shifts.mine.none')}
          </p>
        ) : (
          <OpenShiftFigures shift={shift} timeZone={timeZone} />
        )}
      </Card>
      <OpenShiftDialog open={opening} currency={currency} timeZone={timeZone} onClose={() => setOpening(false)} />
    </section>
  );
}

function OpenShiftFigures({ shift, timeZone }: { shift: Shift; timeZone: string }) {
  const { t } = useTranslation();
  const currency = shift.currency;
  const cash = shift.methods.find((line) => line.method === 'cash');
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Fact label={t('shifts.fields.openedAt')}>
          <time dateTime={shift.openedAt}>{formatDateTime(shift.openedAt, timeZone)}</time>
        </Fact>
        <Fact label={t('shifts.fields.float')}>
          <Money minor={shift.openingFloat} currency={currency} />
        </Fact>
        <Fact
          label={t('shifts.fields.expectedTotal')}
          className="col-span-2 sm:col-span-1"
          data-testid="shift-expected"
          data-expected={shift.expected}
          data-cash={cash?.expected ?? 0}
        >
          <Money minor={shift.expected} currency={currency} className="text-lg font-semibold" />
        </Fact>
      </dl>
      <Table phoneCards data-testid="shift-current-lines">
        <TableHeader>
          <TableRow>
            <TableHead className={WRAP}>{t('orders.columns.method')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.moved')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.expected')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {shift.methods.map((line) => (
            <TableRow key={line.method} data-testid="shift-line" data-method={line.method} data-net={line.net} data-expected={line.expected}>
              <TableCell className="font-medium">{t(`orders.methods.${line.method}`)}</TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.moved')}>
                <Money minor={line.net} currency={currency} />
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.expected')}>
                {line.method === 'balance' ? '—' : <Money minor={line.expected} currency={currency} />}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

/** The shifts opened within the hotel days of the URL, newest first, a page at a time, each with its report. */
function ShiftList({
  timeZone,
  canClose,
  onCloseShift,
  onShow,
}: {
  timeZone: string;
  canClose(shift: Shift): boolean;
  onCloseShift(shift: Shift): void;
  onShow(shift: Shift): void;
}) {
  const { t } = useTranslation();
  const raw = route.useSearch();
  const search = useMemo(() => readShiftsSearch(raw), [raw]);
  const navigate = route.useNavigate();
  const setSearch = (patch: Partial<ShiftsSearch>) => void navigate({ search: (prev) => inUrl({ ...readShiftsSearch(prev), ...patch }), replace: true });
  // The days as typed (the URL takes whole days only): a text that is not a day is said under the fields.
  const { from, setFrom, to, setTo, periodError } = usePeriodDraft(search, (patch) => setSearch({ ...patch, page: 1 }));
  const list = useQuery(shiftQueries.list({ page: search.page, pageSize: search.pageSize, from: search.from, to: search.to }, periodError === null));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;

  const lastPage = Math.max(1, Math.ceil(total / search.pageSize));
  const isPastEnd = list.data !== undefined && !list.isPlaceholderData && search.page > lastPage;
  useEffect(() => {
    if (isPastEnd) void navigate({ search: (prev) => inUrl({ ...readShiftsSearch(prev), page: lastPage }), replace: true });
  }, [isPastEnd, lastPage, navigate]);

  const isFiltered = Boolean(from || to);
  const clearFilters = () => setSearch({ from: undefined, to: undefined, page: 1 });

  return (
    <ListPage
      title={t('shifts.list.title')}
      titleAs="h2"
      query={list}
      what={t('shifts.list.what')}
      activeFilters={isFiltered ? 1 : 0}
      filters={
        <>
          <PeriodFields idPrefix="shifts" timeZone={timeZone} from={from} to={to} onFromChange={setFrom} onToChange={setTo} hasError={periodError !== null} />
        </>
      }
      toolbarEnd={
        <>
          {isFiltered && <ClearFiltersButton onClick={clearFilters} data-testid="shifts-clear" />}
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} disabled={periodError !== null} />
        </>
      }
      toolbarBelow={periodError && <PeriodError idPrefix="shifts" error={periodError} />}
      isBlocked={periodError !== null}
      isEmpty={total === 0 || items.length === 0}
      empty={
        <EmptyState
          icon={Banknote}
          title={t('shifts.list.emptyTitle')}
          description={isFiltered ? t('shifts.list.emptyFilteredText') : t('shifts.list.emptyText')}
          action={isFiltered ? <ClearFiltersButton variant="outline" onClick={clearFilters} /> : undefined}
          data-testid="shifts-empty"
        />
      }
      pagination={urlPagination(search, setSearch, total)}
      data-testid="shifts-list"
    >
      <Table phoneCards data-testid="shifts-table" aria-label={t('shifts.list.title')}>
        <TableHeader>
          <TableRow>
            <TableHead className={WRAP}>{t('shifts.fields.clerk')}</TableHead>
            <TableHead className={WRAP}>{t('shifts.fields.openedAt')}</TableHead>
            <TableHead className={WRAP}>{t('shifts.fields.closedAt')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.float')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.expected')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.counted')}</TableHead>
            <TableHead className={WRAP_END}>{t('shifts.fields.difference')}</TableHead>
            <TableHead className="w-0">
              <span className="sr-only">{t('common.actions')}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.map((shift) => (
            <TableRow
              key={shift.id}
              data-testid={`shift-row-${shift.id}`}
              data-state={shift.closedAt ? 'closed' : 'open'}
              data-operator={shift.operator.nickname}
              data-expected={shift.expected}
              data-counted={shift.counted ?? undefined}
              data-difference={shift.difference ?? undefined}
            >
              <TableCell className="font-medium">{shift.operator.nickname}</TableCell>
              <TableCell className="tabular-nums" data-label={t('shifts.fields.openedAt')}>
                <time dateTime={shift.openedAt}>{formatShortDateTime(shift.openedAt, timeZone)}</time>
              </TableCell>
              <TableCell className="tabular-nums" data-label={shift.closedAt ? t('shifts.fields.closedAt') : undefined}>
                {shift.closedAt ? (
                  <time dateTime={shift.closedAt}>{formatShortDateTime(shift.closedAt, timeZone)}</time>
                ) : (
                  <Badge variant="success" data-testid="shift-open-badge">
                    {t('shifts.state.open')}
                  </Badge>
                )}
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.float')}>
                <Money minor={shift.openingFloat} currency={shift.currency} />
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.expected')}>
                <Money minor={shift.expected} currency={shift.currency} />
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.counted')}>
                <Money minor={shift.counted} currency={shift.currency} />
              </TableCell>
              <TableCell className="text-end" data-label={t('shifts.fields.difference')}>
                <Difference minor={shift.difference} currency={shift.currency} testId="shift-row-difference" />
              </TableCell>
              <TableCell>
                <div className="flex items-center justify-end gap-1">
                  {!shift.closedAt && canClose(shift) && (
                    <Button size="sm" variant="outline" onClick={() => onCloseShift(shift)} data-testid="shift-row-close">
                      {t('shifts.close.action')}
                    </Button>
                  )}
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    onClick={() => onShow(shift)}
                    aria-label={t('shifts.list.details', { name: shift.operator.nickname, time: formatShortDateTime(shift.openedAt, timeZone) })}
                    data-testid="shift-row-details"
                  >
                    <FileSearch aria-hidden />
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ListPage>
  );
}
