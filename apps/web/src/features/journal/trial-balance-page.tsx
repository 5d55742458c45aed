import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, getRouteApi } from '@tanstack/react-router';
import { BookOpenCheck, ChevronLeft, ChevronRight, Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { addDays, isLocalDate } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { ExportButton } from '@/components/export-button';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { todayInHotel } from '@/lib/hotel-time';
import { useDateDraft } from '@/lib/use-date-draft';
import { withoutDefaults } from '@/lib/url-defaults';
import { AccountsTable } from './accounts-table';
import { journalQueries, readTrialBalanceSearch, selectionOf, type Selection, type TrialBalance, type TrialBalanceSearch } from './api';
import { ChecksPanel } from './checks-panel';
import { JournalLinesPanel } from './journal-lines-panel';
import { selectionKey, selectionLabel, shiftLabel } from './labels';
import { JOURNAL_FORMATS, LedgerFiles } from './ledger-files';
import { trialBalanceSearchDefaults } from './trial-balance-search';

const route = getRouteApi('/_auth/order/trialBalance');

/**
 * `/order/trialBalance`, the trial balance of a business date (issue 36, docs/journal.md): each
 * account's opening, the day's debits and credits and its closing (money per way of paying and
 * cashier shift), whether the books tie and why not, a drill-down from any row to its lines of the
 * day, the exports (.xlsx, .csv) and the general ledger under the hotel's chart-of-accounts codes.
 * For managers of the whole hotel. An open day follows the ledger live (lib/live-events.ts).
 */
export function TrialBalancePage() {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const raw = route.useSearch();
  const search = useMemo(() => readTrialBalanceSearch(raw), [raw]);
  const navigate = route.useNavigate();
  const today = todayInHotel(timeZone);
  const date = search.date ?? today;
  const setSearch = (patch: Partial<TrialBalanceSearch>) =>
    void navigate({ search: (prev) => withoutDefaults({ ...readTrialBalanceSearch(prev), ...patch }, trialBalanceSearchDefaults), replace: true });
  // Another day keeps the drill-down's row, from its first page.
  const [typed, setTyped] = useDateDraft(search.date ?? today, (value) => setSearch({ date: value, page: 1 }));
  const dateError = typed !== '' && !isLocalDate(typed) ? 'validation.dateInvalid' : null;
  const canSend = isLocalDate(date) && !dateError;
  const step = (by: -1 | 1) => setSearch({ date: addDays(date, by), page: 1 });

  return (
    <div className="space-y-6" data-testid="trial-balance-page" data-date={date}>
      <PageHeader
        title={t('route.trialBalance')}
        actions={
          canSend && (
            <ExportButton
              list="trialBalance"
              filters={{ date }}
              page={1}
              pageSize={100}
              total={0}
              whole
              formats={JOURNAL_FORMATS}
              what={t('journal.what', { date: formatDate(date) })}
              testId="tb-export"
            />
          )
        }
      />
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="tb-date">{t('journal.date')}</Label>
          <div className="flex items-center gap-1">
            <Button
              variant="outline"
              size="icon"
              onClick={() => step(-1)}
              disabled={!isLocalDate(date)}
              aria-label={t('journal.previousDay')}
              data-testid="tb-prev"
            >
              <ChevronLeft aria-hidden className="rtl:rotate-180" />
            </Button>
            <DateTimeField
              id="tb-date"
              withTime={false}
              timeZone={timeZone}
              className="w-44"
              value={typed}
              onChange={setTyped}
              invalid={dateError !== null}
              describedBy={dateError ? 'tb-date-error' : undefined}
              data-testid="tb-date"
            />
            <Button variant="outline" size="icon" onClick={() => step(1)} disabled={!isLocalDate(date)} aria-label={t('journal.nextDay')} data-testid="tb-next">
              <ChevronRight aria-hidden className="rtl:rotate-180" />
            </Button>
          </div>
        </div>
        {search.date !== undefined && search.date !== today && (
          <Button variant="ghost" onClick={() => setSearch({ date: undefined, page: 1 })} data-testid="tb-today">
            {t('journal.today')}
          </Button>
        )}
      </div>
      {dateError && (
        <p id="tb-date-error" role="alert" className="text-destructive text-sm">
          {t(dateError)}
        </p>
      )}
      <TrialBalanceView
        date={date}
        enabled={canSend}
        selection={selectionOf(search)}
        page={search.page}
        onSelect={(selection) => setSearch({ account: selection.account, method: selection.method, shift: selection.shift?.toString(), page: 1 })}
        onPage={(page) => setSearch({ page })}
        onClose={() => {
          const key = selectionOf(search);
          setSearch({ account: undefined, method: undefined, shift: undefined, page: 1 });
          // The focus goes back to the row that was opened.
          if (key) requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(selectionKey(key))}"]`)?.focus());
        }}
      />
      {canSend && <LedgerFiles date={date} />}
    </div>
  );
}

function TrialBalanceView({
  date,
  enabled,
  selection,
  page,
  onSelect,
  onPage,
  onClose,
}: {
  date: string;
  enabled: boolean;
  selection: Selection | null;
  page: number;
  onSelect(selection: Selection): void;
  onPage(page: number): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const query = useQuery(journalQueries.trialBalance(date, enabled));
  const codes = useQuery(journalQueries.codes());
  const codeMap = useMemo(() => new Map((codes.data?.codes ?? []).map((c) => [c.key as string, c.code])), [codes.data]);
  const tb = query.data?.date === date ? query.data : undefined;
  if (!enabled) return null;
  if (query.isError && !tb) return <LoadError query={failedQuery(query)} what={t('journal.what', { date: formatDate(date) })} />;
  if (!tb) {
    return (
      <div className="space-y-4" role="status" aria-busy="true" aria-label={t('common.loading')} data-testid="tb-loading">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  const isEmpty = tb.rows.every((r) => r.opening === 0 && r.debits === 0 && r.credits === 0);
  const shiftName = (s: Selection) =>
    typeof s.shift === 'number'
      ? (() => {
          const shift = tb.money.flatMap((w) => w.shifts).find((p) => p.shift?.id === s.shift)?.shift;
          return shift ? shiftLabel(t, shift, timeZone) : `#${s.shift}`;
        })()
      : undefined;
  return (
    <div className="space-y-6" data-testid="tb-view" data-ties={tb.ties} data-closed={tb.closed}>
      <DayState tb={tb} date={date} refetch={query.refetch} fetching={query.isFetching} />
      {isEmpty ? (
        <Card>
          <EmptyState icon={BookOpenCheck} title={t('journal.empty.title')} description={t('journal.empty.description')} data-testid="tb-empty" />
        </Card>
      ) : (
        <>
          <ChecksPanel tb={tb} />
          <section aria-labelledby="tb-accounts-title" className="space-y-2">
            <h2 id="tb-accounts-title" className="text-lg font-semibold">
              {t('journal.accountsTitle')}
            </h2>
            <p className="text-muted-foreground text-sm">{t('journal.accountsHint')}</p>
            <AccountsTable tb={tb} codes={codeMap} selected={selection} onSelect={onSelect} />
          </section>
        </>
      )}
      {selection && (
        <JournalLinesPanel
          date={date}
          selection={selection}
          title={selectionLabel(t, selection, shiftName(selection))}
          page={page}
          currency={tb.currency}
          onPage={onPage}
          onClose={onClose}
        />
      )}
    </div>
  );
}

/** Whether the day is closed (its books frozen) or still moves, with the day's report beside it. */
function DayState({ tb, date, refetch, fetching }: { tb: TrialBalance; date: string; refetch(): unknown; fetching: boolean }) {
  const { t } = useTranslation();
  return (
    <Card className="flex flex-row flex-wrap items-center justify-between gap-3 p-4" data-testid="tb-state" data-state={tb.closed ? 'closed' : 'open'}>
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        {tb.closed ? (
          <Badge variant="success">
            <Lock aria-hidden />
            {t('journal.state.closed')}
          </Badge>
        ) : (
          <Badge variant="outline">{t('journal.state.open')}</Badge>
        )}
        <p className="text-sm">{t(tb.closed ? 'journal.state.closedHint' : 'journal.state.openHint')}</p>
      </div>
      <div className="flex items-center gap-2">
        <Button variant="link" asChild>
          <Link to="/reports" search={{ date }} data-testid="tb-report-link">
            {t('journal.state.report')}
          </Link>
        </Button>
        <RefreshButton onRefresh={refetch} fetching={fetching} />
      </div>
    </Card>
  );
}
