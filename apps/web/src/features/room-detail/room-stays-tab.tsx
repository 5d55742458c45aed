import { stayEnd } from '../stays/dialogs/stay-helpers';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CalendarX, LogIn, UserRound, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LoadError, failedQuery } from '@/components/load-error';
import { StayStateBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ListPagination } from '@/components/list-pagination';
import { Skeleton } from '@/components/ui/skeleton';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { StayReservationFacts } from '../stays/stay-reservation-facts';
import { ROOM_STAYS_PAGE_SIZE, roomDetailQueries } from './api';
import type { StayActionKind, StayDto } from '../stays/stay-action-dialogs';

/**
 * The other stays of the room, newest first: past ones, and reservations ahead (which can be
 * arrived or cancelled from here). The current stay is shown once, above the tabs.
 */
export function RoomStaysTab({
  roomId,
  currentStayId,
  timeZone,
  currency,
  canManageStays,
  onStayAction,
}: {
  roomId: number;
  currentStayId: number | null;
  timeZone: string;
  currency: string;
  canManageStays: boolean;
  onStayAction(kind: StayActionKind, stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(roomDetailQueries.stays(roomId, page));
  const total = list.data?.total ?? 0;
  const stays = (list.data?.items ?? []).filter((stay) => stay.id !== currentStayId);

  if (list.isError && !list.data) {
    return (
      <Card className="p-0">
        <LoadError query={failedQuery(list)} what={t('frontDesk.detail.loadWhat.stays')} />
      </Card>
    );
  }
  if (list.isLoading) {
    return (
      <div className="space-y-3" aria-busy="true" role="status" aria-label={t('common.loading')}>
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-28 w-full" />
        ))}
      </div>
    );
  }
  if (stays.length === 0 && page === 1) {
    return (
      <Card className="p-0">
        <LoadError query={failedQuery(list)} what={t('frontDesk.detail.loadWhat.stays')} className="m-3" />
        <EmptyState
          icon={Users}
          title={t(currentStayId === null ? 'frontDesk.detail.staysEmptyTitle' : 'frontDesk.detail.noOtherStaysTitle')}
          description={t(currentStayId === null ? 'frontDesk.detail.staysEmptyText' : 'frontDesk.detail.noOtherStaysText')}
          data-testid="room-stays-empty"
        />
      </Card>
    );
  }
  return (
    <div className="space-y-3">
      <LoadError query={failedQuery(list)} what={t('frontDesk.detail.loadWhat.stays')} />
      <h2 className="sr-only">{t('frontDesk.detail.otherStays')}</h2>
      <ul className="space-y-3" data-testid="stay-list">
        {stays.map((stay) => (
          <li key={stay.id}>
            <StayCard stay={stay} timeZone={timeZone} currency={currency} canManageStays={canManageStays} onStayAction={onStayAction} />
          </li>
        ))}
      </ul>
      {total > ROOM_STAYS_PAGE_SIZE && <ListPagination page={page} pageSize={ROOM_STAYS_PAGE_SIZE} total={total} onPageChange={setPage} />}
    </div>
  );
}

function StayCard({
  stay,
  timeZone,
  currency,
  canManageStays,
  onStayAction,
}: {
  stay: StayDto;
  timeZone: string;
  currency: string;
  canManageStays: boolean;
  onStayAction(kind: StayActionKind, stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const end = stayEnd(stay);
  const isReservation = stay.state === 'reserved';
  return (
    <Card className="gap-3 px-4 py-3" data-testid={`stay-${stay.id}`} data-state={stay.state}>
      <div className="flex flex-wrap items-center gap-2">
        <StayStateBadge state={stay.state} />
        <span className="text-muted-foreground text-xs tabular-nums">#{stay.id}</span>
        {stay.movedFromStayId !== null && <span className="text-muted-foreground text-xs">{t('frontDesk.detail.movedIn')}</span>}
        {canManageStays && isReservation && (
          <div className="ms-auto flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              className="text-destructive hover:text-destructive"
              onClick={() => onStayAction('cancel-reservation', stay)}
              data-testid={`stay-${stay.id}-cancel-reservation`}
            >
              <CalendarX aria-hidden />
              {t('frontDesk.detail.cancelReservation')}
            </Button>
            <Button size="sm" onClick={() => onStayAction('arrive', stay)} data-testid={`stay-${stay.id}-arrive`}>
              <LogIn className="rtl:rotate-180" aria-hidden />
              {t('frontDesk.detail.arrive')}
            </Button>
          </div>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-5">
        <Item label={t('frontDesk.detail.checkInAt')}>{formatShortDateTime(stay.checkInAt, timeZone)}</Item>
        <Item label={t('frontDesk.detail.expectedCheckOutAt')}>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</Item>
        <Item label={end ? t(end.labelKey) : t('frontDesk.detail.checkedOutAt')}>{end?.at ? formatShortDateTime(end.at, timeZone) : '—'}</Item>
        <Item label={t('frontDesk.detail.price')}>{formatMoney(stay.priceAmount, currency)}</Item>
        <Item label={t('frontDesk.detail.deposit')}>{formatMoney(stay.depositAmount, currency)}</Item>
        {stay.remark && (
          <div className="col-span-full min-w-0">
            <dt className="text-muted-foreground text-xs">{t('frontDesk.stay.remark')}</dt>
            <dd className="break-words whitespace-pre-wrap">{stay.remark}</dd>
          </div>
        )}
      </dl>
      <StayReservationFacts stay={stay} timeZone={timeZone} />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="text-muted-foreground text-xs">{t('frontDesk.detail.guests')}</span>
        {stay.guests.map((guest) => (
          <Link
            key={guest.id}
            to="/room/thetouristsDetails"
            search={{ id: guest.id }}
            className="text-primary focus-visible:ring-ring inline-flex items-center gap-1 rounded-sm underline-offset-4 outline-none hover:underline focus-visible:ring-2"
            data-testid={`guest-link-${guest.id}`}
          >
            <UserRound className="size-3.5" aria-hidden />
            {guest.name}
            {guest.isPrimary && <span className="text-muted-foreground text-xs">({t('frontDesk.detail.primaryGuest')})</span>}
          </Link>
        ))}
      </div>
    </Card>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="truncate tabular-nums">{children}</dd>
    </div>
  );
}
