import { Suspense, lazy, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CalendarOff, CalendarRange, UserCheck, UserX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { addDays } from '@console/shared';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber, formatShortDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { todayInHotel } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { loadStayDialogs, type StayAction } from '../stays/stay-action-dialogs';
import { frontDeskQueries } from './api';

/**
 * The stay dialogs, loaded at the first action. Opened with the stays this list already holds (no
 * second load); imported on their own so that the today board does not share the board's chunk of
 * stay actions (bench/bundle-size.ts: the board's budget).
 */
const StayDialogSet = lazy(() => loadStayDialogs().then((m) => ({ default: m.StayDialogSet })));

type Arrivals = RouterOutputs['stay']['arrivals'];
type ArrivalStay = Arrivals['expected'][number];

/** Whether an instant has passed (an arrival time: the guest is late). */
function isPast(iso: string): boolean {
  return Date.parse(iso) <= Date.now();
}

const guestOf = (stay: ArrivalStay) => stay.guests.find((g) => g.isPrimary)?.name ?? stay.guests[0]?.name ?? '—';

/**
 * The day's arrivals on the today board (issue 17 §4, `stay.arrivals`), today's or tomorrow's: the
 * reservations expected (today late ones too, until their no-show time), each with "arrive" (the
 * arrival dialog) and "cancel" (with a reason); the no-shows of the day; the reservations whose
 * guest has arrived. A new reservation is taken from here as from the board. It refreshes every
 * minute, as the board's figures do.
 */
export function ArrivalsPanel() {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const canManageStays = hasPermission(useUserInfo(), 'stay.manage');
  const [action, setAction] = useState<StayAction | null>(null);
  // Today's arrivals, or tomorrow's (the desk prepares them); the hotel's calendar.
  const [day, setDay] = useState<'today' | 'tomorrow'>('today');
  const input = day === 'today' ? {} : { date: addDays(todayInHotel(timeZone), 1) };
  const query = useQuery(frontDeskQueries.arrivals(input));
  const data = query.data;
  const open = (kind: 'arrive' | 'cancel-reservation', stay: ArrivalStay) => setAction({ kind, stay });

  return (
    <section className="space-y-3" aria-labelledby="arrivals-heading" data-testid="arrivals-panel">
      <PageHeader
        as="h2"
        headingId="arrivals-heading"
        title={t('today.reservations.title')}
        isBusy={query.isFetching && !query.isLoading}
        actions={
          <>
            {/* Plain buttons, not the toggle group: the board's chunks stay its own (bench/bundle-size.ts). */}
            <div className="flex gap-1" role="group" aria-label={t('today.reservations.title')}>
              {(['today', 'tomorrow'] as const).map((value) => (
                <Button
                  key={value}
                  variant={day === value ? 'secondary' : 'ghost'}
                  aria-pressed={day === value}
                  onClick={() => setDay(value)}
                  data-testid={`arrivals-${value}`}
                >
                  {t(`today.reservations.${value}`)}
                </Button>
              ))}
            </div>
            {canManageStays && (
              <Button variant="outline" onClick={() => setAction({ kind: 'reserve', room: null })} data-testid="arrivals-new-reservation">
                <CalendarRange aria-hidden />
                {t('frontDesk.board.newReservation')}
              </Button>
            )}
          </>
        }
      />
      {query.isError && <LoadError query={failedQuery(query)} what={t('today.reservations.title')} />}
      {query.isLoading && <Skeleton className="h-40 w-full rounded-xl" aria-label={t('common.loading')} />}
      {data && (
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-[2fr_1fr]" data-date={data.date}>
          <Card className="gap-0 p-0" data-testid="arrivals-expected">
            <h3 className="px-4 pt-3 pb-2 text-sm font-semibold">{t('today.reservations.expected', { number: formatNumber(data.expectedTotal) })}</h3>
            {data.expected.length === 0 ? (
              <p className="text-muted-foreground px-4 pb-4 text-sm" data-testid="arrivals-expected-empty">
                {t('today.reservations.noneExpected')}
              </p>
            ) : (
              <div className="overflow-x-auto">
                {/* On a phone each reservation is a card (issue 26 §3): its deposit and actions in sight, no sideways scroll. */}
                <Table phoneCards>
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t('frontDesk.board.room')}</TableHead>
                      <TableHead>{t('frontDesk.board.guest')}</TableHead>
                      <TableHead>{t('reservations.arrival')}</TableHead>
                      <TableHead>{t('reservations.departure')}</TableHead>
                      <TableHead className="text-end">{t('frontDesk.stay.depositLabel')}</TableHead>
                      {canManageStays && (
                        <TableHead className="text-end">
                          <span className="sr-only">{t('common.actions')}</span>
                        </TableHead>
                      )}
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {data.expected.map((stay) => {
                      const isLate = isPast(stay.checkInAt);
                      return (
                        <TableRow key={stay.id} data-testid={`arrival-${stay.id}`} data-room={stay.roomName}>
                          <TableCell>
                            <RoomLink roomId={stay.roomId} name={stay.roomName} />
                          </TableCell>
                          <TableCell className="max-w-48 truncate">{guestOf(stay)}</TableCell>
                          <TableCell className="whitespace-nowrap" data-label={t('reservations.arrival')}>
                            {formatShortDateTime(stay.checkInAt, timeZone)}
                            {isLate && stay.awaitsArrival && (
                              <span
                                className="ms-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900"
                                title={stay.noShowAt ? t('reservations.noShowAfter', { time: formatShortDateTime(stay.noShowAt, timeZone) }) : undefined}
                              >
                                {t('today.reservations.late')}
                              </span>
                            )}
                          </TableCell>
                          <TableCell className="whitespace-nowrap" data-label={t('reservations.departure')}>
                            {formatShortDateTime(stay.expectedCheckOutAt, timeZone)}
                          </TableCell>
                          <TableCell
                            className="text-end tabular-nums"
                            data-label={t('frontDesk.stay.depositLabel')}
                            data-testid="arrival-deposit"
                            data-amount={stay.bill.depositHeld}
                          >
                            {formatMoney(stay.bill.depositHeld, currency)}
                          </TableCell>
                          {canManageStays && (
                            <TableCell>
                              <div className="flex justify-end gap-2">
                                <Button
                                  variant="ghost"
                                  size="sm"
                                  className="text-destructive hover:text-destructive"
                                  onClick={() => open('cancel-reservation', stay)}
                                  data-testid={`arrival-${stay.id}-cancel`}
                                >
                                  <CalendarOff aria-hidden />
                                  {t('today.reservations.cancel')}
                                </Button>
                                <Button size="sm" onClick={() => open('arrive', stay)} data-testid={`arrival-${stay.id}-arrive`}>
                                  <UserCheck aria-hidden />
                                  {t('today.reservations.arrive')}
                                </Button>
                              </div>
                            </TableCell>
                          )}
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </div>
            )}
            {data.expectedTotal > data.expected.length && <MoreLink date={data.date} number={data.expectedTotal - data.expected.length} />}
          </Card>
          <div className="grid min-w-0 grid-cols-1 content-start gap-4">
            <Card className="gap-2 px-4 py-3" data-testid="arrivals-no-shows">
              <h3 className="flex items-center gap-2 text-sm font-semibold">
                <UserX className="size-4" aria-hidden />
                {t('today.reservations.noShows', { number: formatNumber(data.noShowsTotal) })}
              </h3>
              {data.noShows.length === 0 ? (
                <p className="text-muted-foreground text-sm">{t('today.reservations.noneNoShows')}</p>
              ) : (
                <ul className="space-y-1 text-sm">
                  {data.noShows.map((stay) => (
                    <li key={stay.id} className="flex flex-wrap items-baseline justify-between gap-x-2" data-testid={`no-show-${stay.id}`}>
                      <span className="max-w-full min-w-0 truncate">
                        <RoomLink roomId={stay.roomId} name={stay.roomName} /> · {guestOf(stay)}
                      </span>
                      <span className="text-muted-foreground text-xs">
                        {t('today.reservations.noShowDeposit', {
                          time: formatShortDateTime(stay.noShowAt ?? stay.checkedOutAt, timeZone),
                          deposit: formatMoney(stay.bill.depositHeld, currency),
                        })}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            <Card className="gap-2 px-4 py-3" data-testid="arrivals-arrived">
              <h3 className="text-sm font-semibold">{t('today.reservations.arrived', { number: formatNumber(data.arrivedTotal) })}</h3>
              {data.arrived.length > 0 && (
                <ul className="space-y-1 text-sm">
                  {data.arrived.map((stay) => (
                    <li key={stay.id} className="flex flex-wrap items-baseline justify-between gap-x-2" data-testid={`arrived-${stay.id}`}>
                      <span className="max-w-full min-w-0 truncate">
                        <RoomLink roomId={stay.roomId} name={stay.roomName} /> · {guestOf(stay)}
                      </span>
                      <span className="text-muted-foreground text-xs tabular-nums">{formatShortDateTime(stay.checkInAt, timeZone)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
        </div>
      )}
      {action && (
        <Suspense fallback={null}>
          <StayDialogSet action={action} onClose={() => setAction(null)} />
        </Suspense>
      )}
    </section>
  );
}

function RoomLink({ roomId, name }: { roomId: number; name: string }) {
  return (
    <Link to="/room/$roomId" params={{ roomId }} className="focus-visible:ring-ring rounded-sm font-medium outline-none hover:underline focus-visible:ring-2">
      {name}
    </Link>
  );
}

/** The arrivals past the first page are in the guest list, filtered to the day's reservations. */
function MoreLink({ date, number }: { date: string; number: number }) {
  const { t } = useTranslation();
  return (
    <p className="px-4 pb-3 text-sm">
      <Link to="/room/tenant" search={{ state: 'reserved', from: date, to: date }} className="text-primary underline-offset-4 hover:underline">
        {t('today.reservations.more', { number: formatNumber(number) })}
      </Link>
    </p>
  );
}
