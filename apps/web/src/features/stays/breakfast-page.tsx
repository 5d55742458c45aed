import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { AlertTriangle, Check, ChevronLeft, ChevronRight, Coffee } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { addDays, LIMITS, ZBreakfastServeInput } from '@console/shared';
import { DateTimeField } from '@/components/date-time-field';
import { FormDialog } from '@/components/form-dialog';
import { ListPage } from '@/components/list-page';
import { Badge } from '@/components/ui/badge';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { appErrorOf } from '@/lib/api-errors';
import { formatDate, formatList, formatNumber, formatShortDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useDateDraft } from '@/lib/use-date-draft';
import { todayInHotel } from '@/lib/hotel-time';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { invalidateBreakfast, stayQueries } from './api';
import { hasPermission, useUserInfo } from '@/lib/user-info';

type BreakfastRow = RouterOutputs['stay']['breakfast']['rows'][number];

const route = getRouteApi('/_auth/room/breakfast');

/** The number of guests served: the shared rule of `stay.serveBreakfast`. */
const servedGuestsRule = ZBreakfastServeInput.shape.guests.unwrap();

/** `/room/breakfast`: the stays with breakfast on the morning of a day, and who has been served. */
export function BreakfastPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const user = useUserInfo();
  const { timeZone } = useHotelSettings();
  const canServe = hasPermission(user, 'stay.manage');
  const today = todayInHotel(timeZone);
  const date = search.date ?? today;
  const [serving, setServing] = useState<BreakfastRow | null>(null);

  const setDate = (next: string | undefined) => void navigate({ search: { date: next && next !== today ? next : undefined }, replace: true });

  const list = useQuery(stayQueries.breakfast(date));
  const rows = list.data?.rows ?? [];

  return (
    <>
      <ListPage
        title={t('route.breakfast')}
        query={list}
        what={t('stays.breakfastWhat')}
        search={
          <div className="flex flex-wrap items-start gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor="breakfast-date">{t('stays.breakfastDate')}</Label>
              <div className="flex items-start gap-1">
                <Button
                  variant="outline"
                  size="icon"
                  onClick={() => setDate(addDays(date, -1))}
                  aria-label={t('stays.previousDay')}
                  data-testid="breakfast-previous-day"
                >
                  <ChevronLeft className="size-4 rtl:rotate-180" aria-hidden />
                </Button>
                <BreakfastDate value={date} onChange={setDate} timeZone={timeZone} />
                <Button
                  variant="outline"
                  size="icon"
                  onClick={() => setDate(addDays(date, 1))}
                  aria-label={t('stays.nextDay')}
                  data-testid="breakfast-next-day"
                >
                  <ChevronRight className="size-4 rtl:rotate-180" aria-hidden />
                </Button>
              </div>
            </div>
            {date !== today && (
              <Button variant="ghost" className="mt-6" onClick={() => setDate(undefined)}>
                {t('stays.today')}
              </Button>
            )}
          </div>
        }
        toolbarEnd={
          <>
            <Total label={t('stays.breakfastRooms')} value={list.data?.rows.length} testId="breakfast-total-rooms" />
            <Total label={t('stays.breakfastExpected')} value={list.data?.guests} testId="breakfast-total-guests" />
            <Total label={t('stays.breakfastServed')} value={list.data?.served} testId="breakfast-total-served" />
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
          </>
        }
        isEmpty={rows.length === 0}
        empty={
          <EmptyState
            icon={Coffee}
            title={t('stays.breakfastEmptyTitle')}
            description={t('stays.breakfastEmptyText', { date: formatDate(date) })}
            data-testid="breakfast-empty"
          />
        }
        skeleton={<SkeletonRows rows={5} label={t('common.loading')} />}
        data-testid="breakfast-list"
      >
        <Table data-testid="breakfast-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('stays.room')}</TableHead>
              <TableHead>{t('stays.guests')}</TableHead>
              <TableHead className="text-end">{t('stays.guestCount')}</TableHead>
              <TableHead>{t('stays.servedAt')}</TableHead>
              {canServe && (
                <TableHead>
                  <span className="sr-only">{t('common.actions')}</span>
                </TableHead>
              )}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.stayId} data-testid={`breakfast-row-${row.stayId}`} data-served={row.servedAt !== null}>
                <TableCell className="font-medium">
                  <Link to="/room/$roomId" params={{ roomId: row.roomId }} className="hover:underline">
                    {row.roomName}
                  </Link>
                </TableCell>
                <TableCell className="max-w-72">{row.guestNames.length ? formatList(row.guestNames) : '—'}</TableCell>
                <TableCell className="text-end tabular-nums">{formatNumber(row.guests)}</TableCell>
                <TableCell>
                  {row.servedAt ? (
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant="success">
                        <Check aria-hidden />
                        {t('stays.served')}
                      </Badge>
                      <span className="text-sm whitespace-nowrap">{formatShortDateTime(row.servedAt, timeZone)}</span>
                      <span className="text-muted-foreground text-xs whitespace-nowrap" data-testid={`served-guests-${row.stayId}`}>
                        {t('stays.servedGuests', { number: formatNumber(row.servedGuests ?? 0) })}
                      </span>
                    </div>
                  ) : (
                    <span className="text-muted-foreground text-sm">{t('stays.notServed')}</span>
                  )}
                </TableCell>
                {canServe && (
                  <TableCell className="text-end">
                    <Button size="sm" variant={row.servedAt ? 'outline' : 'default'} onClick={() => setServing(row)} data-testid={`serve-${row.stayId}`}>
                      <Coffee aria-hidden />
                      {row.servedAt ? t('stays.serveAgain') : t('stays.serve')}
                    </Button>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListPage>

      {serving && <ServeDialog key={`${serving.stayId}-${date}`} row={serving} date={date} onClose={() => setServing(null)} />}
    </>
  );
}

/** The day of the list, typed or picked in the console's language; a whole date moves the list (a field emptied to type another keeps the day). */
function BreakfastDate({ value, onChange, timeZone }: { value: string; onChange(date: string): void; timeZone: string }) {
  const [text, setText] = useDateDraft(value, (date) => date && onChange(date));
  return (
    <DateTimeField id="breakfast-date" withTime={false} timeZone={timeZone} value={text} onChange={setText} className="w-48" data-testid="breakfast-date" />
  );
}

function Total({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <div className="bg-muted flex items-baseline gap-1.5 rounded-md px-3 py-1.5 text-sm" data-testid={testId}>
      <span className="text-muted-foreground">{label}</span>
      <span className="font-semibold tabular-nums">{value === undefined ? '—' : formatNumber(value)}</span>
    </div>
  );
}

/**
 * Records the breakfast of one stay; the count starts at the guests of the stay (or the count
 * served). More breakfasts than guests is allowed once the server's warning has been confirmed.
 */
function ServeDialog({ row, date, onClose }: { row: BreakfastRow; date: string; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const initial = String(row.servedGuests ?? Math.max(row.guests, 1));
  const [count, setCount] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  /** The server asked to confirm this count (more breakfasts than guests). */
  const [warning, setWarning] = useState<{ guests: number; message: string } | null>(null);
  const min = 1;
  const max = LIMITS.breakfastGuestsMax;

  const serve = useMutation(
    trpc.stay.serveBreakfast.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (served) => {
        toast.success(t('stays.serveSucceeded', { room: served.roomName, number: formatNumber(served.servedGuests ?? 0) }));
        void invalidateBreakfast(queryClient, date);
        onClose();
      },
      onError: (failure, input) => {
        const app = appErrorOf(failure);
        const warnings = app?.code === 'CONFIRMATION_REQUIRED' && Array.isArray(app.details?.warnings) ? (app.details.warnings as string[]) : [];
        if (warnings.includes('more_than_guests') && input.guests !== undefined) setWarning({ guests: Number(input.guests), message: app!.message });
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = servedGuestsRule.safeParse(count.trim() === '' ? undefined : count);
    if (!parsed.success || parsed.data === undefined) {
      setError(t('stays.serveCountInvalid', { min, max }));
      return;
    }
    setError(undefined);
    const confirmed = warning !== null && warning.guests === parsed.data;
    serve.mutate({ stayId: row.stayId, date, guests: parsed.data, acknowledge: confirmed ? ['more_than_guests'] : [] });
  };

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={row.servedAt ? t('stays.serveAgainTitle') : t('stays.serveTitle')}
      description={t('stays.serveText', { room: row.roomName, date: formatDate(date) })}
      isDirty={count !== initial}
      isSaving={serve.isPending}
      error={serve.error}
      onSubmit={submit}
      submitLabel={warning ? t('stays.serveAnyway') : t('stays.serveConfirm')}
      submitTestId="serve-submit"
      data-testid="serve-dialog"
    >
      {row.guestNames.length > 0 && <p className="text-sm">{formatList(row.guestNames)}</p>}
      <FormField id="serve-count" label={t('stays.serveCount')} hint={t('stays.serveCountHint', { number: formatNumber(row.guests) })} error={error}>
        <Input
          id="serve-count"
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={count}
          onChange={(e) => {
            setCount(e.target.value);
            // Another count is another question: the server is asked again.
            setWarning(null);
          }}
          aria-invalid={error || warning ? true : undefined}
          aria-describedby={[error ? 'serve-count-error' : 'serve-count-hint', warning ? 'serve-warning' : null].filter(Boolean).join(' ')}
          autoFocus
          className="w-32"
          data-testid="serve-count"
        />
      </FormField>
      {warning && (
        <div
          id="serve-warning"
          role="alert"
          className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="serve-warning"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p>{warning.message}</p>
        </div>
      )}
    </FormDialog>
  );
}
