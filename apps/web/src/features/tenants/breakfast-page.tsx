import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Check, ChevronLeft, ChevronRight, Coffee } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { z } from 'zod';
import { addDays, LOCAL_DATE_REGEX, ZBreakfastServeInput } from '@console/shared';
import { Badge } from '@/components/ui/badge';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatList, formatNumber } from '@/lib/format';
import { formatDate, formatShortDateTime, todayInHotel } from '@/lib/hotel-time';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';

type BreakfastRow = RouterOutputs['stay']['breakfast']['rows'][number];

/** `?date=YYYY-MM-DD` (a hotel date); without one, today in the hotel's zone. */
export const breakfastSearchSchema = z.object({
  date: z
    .string()
    .regex(LOCAL_DATE_REGEX)
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    .optional()
    .catch(undefined),
});

const route = getRouteApi('/_auth/room/breakfast');

/** The number of guests served: the shared rule of `stay.serveBreakfast`. */
const servedGuestsRule = ZBreakfastServeInput.shape.guests.unwrap();

/** `/room/breakfast`: the stays with breakfast on the morning of a day, and who has been served. */
export function BreakfastPage() {
  const { t } = useTranslation();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const user = useUserInfo();
  const timeZone = user?.hotel.timeZone ?? 'UTC';
  const canServe = hasPermission(user, 'stay.manage');
  const today = todayInHotel(timeZone);
  const date = search.date ?? today;
  const [serving, setServing] = useState<BreakfastRow | null>(null);

  const setDate = (next: string | undefined) => void navigate({ search: { date: next && next !== today ? next : undefined }, replace: true });

  const list = useQuery(trpc.stay.breakfast.queryOptions({ date }));
  const rows = list.data?.rows ?? [];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{t('route.breakfast')}</h1>
        {list.isFetching && !list.isLoading && <Spinner className="text-muted-foreground" />}
      </div>

      <Card className="gap-0 p-0">
        <div className="flex flex-wrap items-end gap-3 border-b p-3">
          <div className="grid gap-1.5">
            <Label htmlFor="breakfast-date">{t('tenants.breakfastDate')}</Label>
            <div className="flex items-center gap-1">
              <Button variant="outline" size="icon" onClick={() => setDate(addDays(date, -1))} aria-label={t('tenants.previousDay')} data-testid="breakfast-previous-day">
                <ChevronLeft className="size-4 rtl:rotate-180" aria-hidden />
              </Button>
              <Input
                id="breakfast-date"
                type="date"
                className="w-40"
                value={date}
                required
                onChange={(e) => {
                  if (LOCAL_DATE_REGEX.test(e.target.value)) setDate(e.target.value);
                }}
                data-testid="breakfast-date"
              />
              <Button variant="outline" size="icon" onClick={() => setDate(addDays(date, 1))} aria-label={t('tenants.nextDay')} data-testid="breakfast-next-day">
                <ChevronRight className="size-4 rtl:rotate-180" aria-hidden />
              </Button>
            </div>
          </div>
          {date !== today && (
            <Button variant="ghost" onClick={() => setDate(undefined)}>
              {t('tenants.today')}
            </Button>
          )}
          <div className="ms-auto flex flex-wrap items-center gap-2">
            <Total label={t('tenants.breakfastRooms')} value={list.data?.rows.length} testId="breakfast-total-rooms" />
            <Total label={t('tenants.breakfastExpected')} value={list.data?.guests} testId="breakfast-total-guests" />
            <Total label={t('tenants.breakfastServed')} value={list.data?.served} testId="breakfast-total-served" />
            <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />
          </div>
        </div>

        {list.isLoading ? (
          <SkeletonRows rows={5} label={t('common.loading')} />
        ) : rows.length === 0 ? (
          <EmptyState icon={Coffee} title={t('tenants.breakfastEmptyTitle')} description={t('tenants.breakfastEmptyText', { date: formatDate(date) })} data-testid="breakfast-empty" />
        ) : (
          <Table data-testid="breakfast-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('tenants.room')}</TableHead>
                <TableHead>{t('tenants.guests')}</TableHead>
                <TableHead className="text-end">{t('tenants.guestCount')}</TableHead>
                <TableHead>{t('tenants.servedAt')}</TableHead>
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
                          {t('tenants.served')}
                        </Badge>
                        <span className="text-sm whitespace-nowrap">{formatShortDateTime(row.servedAt, timeZone)}</span>
                        <span className="text-muted-foreground text-xs whitespace-nowrap">{t('tenants.servedGuests', { number: formatNumber(row.servedGuests ?? 0) })}</span>
                      </div>
                    ) : (
                      <span className="text-muted-foreground text-sm">{t('tenants.notServed')}</span>
                    )}
                  </TableCell>
                  {canServe && (
                    <TableCell className="text-end">
                      <Button size="sm" variant={row.servedAt ? 'outline' : 'default'} onClick={() => setServing(row)} data-testid={`serve-${row.stayId}`}>
                        <Coffee aria-hidden />
                        {row.servedAt ? t('tenants.serveAgain') : t('tenants.serve')}
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>

      <ServeDialog row={serving} date={date} onClose={() => setServing(null)} />
    </div>
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

/** Records the breakfast of one stay; the count starts at the guests of the stay (or the count served). */
function ServeDialog({ row, date, onClose }: { row: BreakfastRow | null; date: string; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={row !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="sm:max-w-md" data-testid="serve-dialog">
        {row && <ServeForm key={`${row.stayId}-${date}`} row={row} date={date} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function ServeForm({ row, date, onClose }: { row: BreakfastRow; date: string; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [count, setCount] = useState(String(row.servedGuests ?? Math.max(row.guests, 1)));
  const [error, setError] = useState<string | undefined>();
  const min = servedGuestsRule.minValue ?? 1;
  const max = servedGuestsRule.maxValue ?? 20;

  const serve = useMutation(
    trpc.stay.serveBreakfast.mutationOptions({
      onSuccess: (served) => {
        toast.success(t('tenants.serveSucceeded', { room: served.roomName, number: formatNumber(served.servedGuests ?? 0) }));
        void queryClient.invalidateQueries({ queryKey: trpc.stay.breakfast.queryKey({ date }) });
        onClose();
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = servedGuestsRule.safeParse(count.trim() === '' ? undefined : count);
    if (!parsed.success) {
      setError(t('tenants.serveCountInvalid', { min, max }));
      return;
    }
    setError(undefined);
    serve.mutate({ stayId: row.stayId, date, guests: parsed.data });
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{row.servedAt ? t('tenants.serveAgainTitle') : t('tenants.serveTitle')}</DialogTitle>
        <DialogDescription>{t('tenants.serveText', { room: row.roomName, date: formatDate(date) })}</DialogDescription>
      </DialogHeader>
      {row.guestNames.length > 0 && <p className="text-sm">{formatList(row.guestNames)}</p>}
      <FormField id="serve-count" label={t('tenants.serveCount')} hint={t('tenants.serveCountHint', { number: formatNumber(row.guests) })} error={error}>
        <Input
          id="serve-count"
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          value={count}
          onChange={(e) => setCount(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'serve-count-error' : 'serve-count-hint'}
          autoFocus
          className="w-32"
          data-testid="serve-count"
        />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={serve.isPending} data-testid="serve-submit">
          {serve.isPending && <Spinner />}
          {t('tenants.serveConfirm')}
        </Button>
      </DialogFooter>
    </form>
  );
}
