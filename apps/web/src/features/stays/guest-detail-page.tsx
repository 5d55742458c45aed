import { stayEnd } from './dialogs/stay-helpers';
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { ArrowLeft, BedDouble, Info, UserRound, UserX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { StayStateBadge } from '@/components/status-badges';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { appErrorOf } from '@/lib/api-errors';
import { formatDate, formatDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import type { RouterOutputs } from '@/lib/trpc-types';
import { stayQueries } from './api';
import { useUserInfo } from '@/lib/user-info';

type GuestDetail = RouterOutputs['stay']['guest'];
type Guest = GuestDetail['guest'];
type Stay = GuestDetail['stay'];

const route = getRouteApi('/_auth/room/thetouristsDetails');

/** The current time, refreshed every `intervalMs`, for "remaining time" texts. */
function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** "2 d 3 h", "3 h 20 min" or "20 min", without plural forms. */
function formatDuration(t: TFunction, ms: number): string {
  const totalMinutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(totalMinutes / 1440);
  const hours = Math.floor((totalMinutes % 1440) / 60);
  const minutes = totalMinutes % 60;
  if (days > 0) return t('stays.durationDays', { days, hours });
  if (hours > 0) return t('stays.durationHours', { hours, minutes });
  return t('stays.durationMinutes', { minutes });
}

/**
 * `/room/thetouristsDetails`: a guest's identity and contact, and the stay they belong to (with its
 * bill and its room cards, given by the route as `stayBill` and `stayCards`).
 */
export function GuestDetailPage({ stayCards, stayBill }: { stayCards?(stay: Stay, guestName: string): ReactNode; stayBill?(stay: Stay): ReactNode } = {}) {
  const { t } = useTranslation();
  const search = route.useSearch();
  const user = useUserInfo();
  const timeZone = user?.hotel.timeZone ?? 'UTC';
  const currency = user?.hotel.currency ?? 'CNY';
  const validId = search.id > 0;
  const detail = useQuery(stayQueries.guest(search.id));
  const isNotFound = !validId || appErrorOf(detail.error)?.code === 'NOT_FOUND';

  const header = (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="ghost" size="icon" asChild>
        <Link to="/room/tenant" aria-label={t('stays.backToList')}>
          <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden />
        </Link>
      </Button>
      <h1 className="text-xl font-semibold">{t('route.guestDetail')}</h1>
    </div>
  );

  if (isNotFound) {
    return (
      <div className="space-y-4">
        {header}
        <Card>
          <EmptyState
            icon={UserX}
            title={t('stays.guestNotFoundTitle')}
            description={t('stays.guestNotFoundText')}
            action={
              <Button variant="outline" asChild>
                <Link to="/room/tenant">{t('stays.backToList')}</Link>
              </Button>
            }
            data-testid="guest-not-found"
          />
        </Card>
      </div>
    );
  }

  if (detail.isError && !detail.data) {
    return (
      <div className="space-y-4">
        {header}
        <Card>
          <LoadError query={failedQuery(detail)} what={t('stays.guestWhat')} />
        </Card>
      </div>
    );
  }

  return (
    <div className="space-y-4" data-testid="guest-detail">
      {header}
      <LoadError query={failedQuery(detail)} what={t('stays.guestWhat')} />
      {!detail.data ? (
        <div className="grid gap-4 lg:grid-cols-2" aria-busy="true" role="status" aria-label={t('common.loading')}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-48 w-full rounded-xl" />
          ))}
        </div>
      ) : (
        <GuestDetailContent
          guest={detail.data.guest}
          stay={detail.data.stay}
          note={search.other_information}
          timeZone={timeZone}
          currency={currency}
          stayCards={stayCards}
          stayBill={stayBill}
        />
      )}
    </div>
  );
}

function GuestDetailContent({
  guest,
  stay,
  note,
  timeZone,
  currency,
  stayCards,
  stayBill,
}: {
  guest: Guest;
  stay: Stay;
  note?: string;
  timeZone: string;
  currency: string;
  stayCards?(stay: Stay, guestName: string): ReactNode;
  stayBill?(stay: Stay): ReactNode;
}) {
  const { t } = useTranslation();
  const others = stay.guests.filter((g) => g.id !== guest.id);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="gap-4">
        <CardHeader>
          <CardTitle className="flex flex-wrap items-center gap-2 text-lg">
            <UserRound className="text-muted-foreground size-5" aria-hidden />
            <span data-testid="guest-name">{guest.name}</span>
            {guest.isPrimary && <Badge variant="secondary">{t('stays.primaryGuest')}</Badge>}
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-5">
          <section aria-labelledby="guest-identity">
            <h2 id="guest-identity" className="text-muted-foreground mb-2 text-sm font-medium">
              {t('stays.identity')}
            </h2>
            <DetailList>
              <DetailItem label={t('stays.guestName')}>{guest.name}</DetailItem>
              <DetailItem label={t('stays.gender')}>{t(`stays.genders.${guest.gender}`)}</DetailItem>
              <DetailItem label={t('stays.nationality')}>{guest.nationality || '—'}</DetailItem>
              <DetailItem label={t('stays.birthDate')}>{guest.birthDate ? formatDate(guest.birthDate) : '—'}</DetailItem>
              <DetailItem label={t('stays.idNumber')} ltr>
                {guest.idNumber ?? '—'}
              </DetailItem>
            </DetailList>
          </section>
          <section aria-labelledby="guest-contact">
            <h2 id="guest-contact" className="text-muted-foreground mb-2 text-sm font-medium">
              {t('stays.contact')}
            </h2>
            <DetailList>
              <DetailItem label={t('stays.mobile')} ltr>
                {guest.mobile ? (
                  <a href={`tel:${guest.mobile}`} className="hover:underline">
                    {guest.mobile}
                  </a>
                ) : (
                  '—'
                )}
              </DetailItem>
              <DetailItem label={t('stays.email')} ltr>
                {guest.email ? (
                  <a href={`mailto:${guest.email}`} className="break-all hover:underline">
                    {guest.email}
                  </a>
                ) : (
                  '—'
                )}
              </DetailItem>
            </DetailList>
          </section>
          {note && (
            <section aria-labelledby="guest-note" className="bg-muted rounded-lg p-3" data-testid="guest-other-information">
              <h2 id="guest-note" className="mb-1 flex items-center gap-1.5 text-sm font-medium">
                <Info className="size-4" aria-hidden />
                {t('stays.otherInformation')}
              </h2>
              <p className="text-sm break-words whitespace-pre-wrap">{note}</p>
            </section>
          )}
        </CardContent>
      </Card>

      <StayCard stay={stay} timeZone={timeZone} currency={currency} />

      {stayBill?.(stay)}

      {stayCards?.(stay, guest.name)}

      {others.length > 0 && (
        <Card className="gap-4 lg:col-span-2">
          <CardHeader>
            <CardTitle className="text-base">{t('stays.otherGuestsOfStay')}</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y" data-testid="other-guests">
              {others.map((g) => (
                <li key={g.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm">
                  <Link to="/room/thetouristsDetails" search={{ id: g.id }} className="text-primary font-medium hover:underline">
                    {g.name}
                  </Link>
                  {g.isPrimary && <Badge variant="secondary">{t('stays.primaryGuest')}</Badge>}
                  <span className="text-muted-foreground">{t(`stays.genders.${g.gender}`)}</span>
                  {g.mobile && (
                    <span className="text-muted-foreground tabular-nums" dir="ltr">
                      {g.mobile}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function StayCard({ stay, timeZone, currency }: { stay: Stay; timeZone: string; currency: string }) {
  const { t } = useTranslation();
  const end = stayEnd(stay);
  const now = useNow(30_000);
  const checkIn = Date.parse(stay.checkInAt);
  const checkOut = Date.parse(stay.expectedCheckOutAt);
  const yesNo = (value: boolean) => (value ? t('stays.yes') : t('stays.no'));

  let remaining: ReactNode = null;
  if (stay.state === 'in_house')
    remaining = <span className="text-primary font-medium">{t('stays.remaining', { time: formatDuration(t, checkOut - now) })}</span>;
  else if (stay.state === 'reserved')
    remaining = <span className="font-medium text-amber-700">{t('stays.startsIn', { time: formatDuration(t, checkIn - now) })}</span>;
  else if (stay.state === 'expired')
    remaining = <span className="text-destructive font-medium">{t('stays.overdueBy', { time: formatDuration(t, now - checkOut) })}</span>;

  return (
    <Card className="gap-4" data-testid="guest-stay">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-lg">
          <BedDouble className="text-muted-foreground size-5" aria-hidden />
          {t('stays.stay')}
          <StayStateBadge state={stay.state} />
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <DetailList>
          <DetailItem label={t('stays.room')}>
            <Link to="/room/$roomId" params={{ roomId: stay.roomId }} className="text-primary font-medium hover:underline" data-testid="guest-room-link">
              {stay.roomName}
            </Link>
          </DetailItem>
          <DetailItem label={t('stays.checkIn')}>
            {/* The visit's check-in: after a room change this stay begins at the move, the guest arrived earlier (issue 39 §10). */}
            <span data-testid="guest-stay-check-in">{formatDateTime(stay.visitCheckInAt, timeZone)}</span>
            {stay.visitCheckInAt !== stay.checkInAt && (
              <span className="text-muted-foreground block text-xs" data-testid="guest-stay-in-room-since">
                {t('frontDesk.detail.inRoomSince', { time: formatDateTime(stay.checkInAt, timeZone) })}
              </span>
            )}
          </DetailItem>
          <DetailItem label={t('stays.expectedCheckOut')}>{formatDateTime(stay.expectedCheckOutAt, timeZone)}</DetailItem>
          {end?.at && <DetailItem label={t(end.labelKey)}>{formatDateTime(end.at, timeZone)}</DetailItem>}
          {remaining && (
            <DetailItem label={t('stays.remainingTime')}>
              <span data-testid="stay-remaining">{remaining}</span>
            </DetailItem>
          )}
          <DetailItem label={t('stays.breakfast')}>{yesNo(stay.breakfast)}</DetailItem>
          <DetailItem label={t('stays.disableOldCards')}>{yesNo(stay.disableOldCards)}</DetailItem>
          <DetailItem label={t('stays.idCardUnlock')}>{yesNo(stay.idCardUnlock)}</DetailItem>
          <DetailItem label={t('stays.price')}>
            <span className="tabular-nums">{formatMoney(stay.priceAmount, currency)}</span>
          </DetailItem>
          <DetailItem label={t('stays.deposit')}>
            <span className="tabular-nums" data-testid="guest-stay-deposit">
              {formatMoney(stay.bill.depositHeld, currency)}
            </span>
          </DetailItem>
        </DetailList>
        <div>
          <div className="text-muted-foreground mb-1 text-sm">{t('stays.remark')}</div>
          <p className="text-sm break-words whitespace-pre-wrap">{stay.remark || t('stays.noRemark')}</p>
        </div>
      </CardContent>
    </Card>
  );
}

function DetailList({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 gap-y-2.5 text-sm">{children}</dl>;
}

function DetailItem({ label, children, ltr }: { label: string; children: ReactNode; ltr?: boolean }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">
        {ltr ? (
          <span dir="ltr" className="tabular-nums">
            {children}
          </span>
        ) : (
          children
        )}
      </dd>
    </>
  );
}
