import { ArrowLeftRight, CalendarPlus, LogIn, LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { RoomStatusBadge, StayStateBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { formatShortDateTime } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import type { RouterOutputs } from '@/lib/trpc-types';
import { LockBattery } from './lock-battery';
import type { StayActionKind, StayDto } from './stay-action-dialogs';

export type RoomDetail = RouterOutputs['room']['get'];

/** No guest is in the room: it can take a check-in (a reservation may still be ahead). */
export function detailCanCheckIn(room: Pick<RoomDetail, 'status'>): boolean {
  return room.status === 'vacant' || room.status === 'dirty' || room.status === 'reserved';
}

/** Name, status and group of the room, its current stay and the front-desk actions. */
export function RoomDetailHeader({
  room,
  stay,
  isStayLoading,
  timeZone,
  currency,
  canManageStays,
  onCheckIn,
  onStayAction,
}: {
  room: RoomDetail;
  stay: StayDto | null;
  isStayLoading: boolean;
  timeZone: string;
  currency: string;
  canManageStays: boolean;
  onCheckIn(): void;
  onStayAction(kind: StayActionKind, stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const current = room.currentStay;
  const stayButton = (kind: StayActionKind, testId: string, label: string, icon: React.ReactNode, variant: 'outline' | 'default' = 'outline') => (
    <Button variant={variant} onClick={() => stay && onStayAction(kind, stay)} disabled={!stay} data-testid={testId}>
      {isStayLoading ? <Spinner /> : icon}
      {label}
    </Button>
  );

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold break-all">{room.name}</h1>
            <RoomStatusBadge status={room.status} />
            <LockBattery power={room.lockPower} />
          </div>
          <p className="text-muted-foreground text-sm">
            {room.groupName ?? t('frontDesk.board.noGroup')}
            {room.remarkName && <span> · {room.remarkName}</span>}
          </p>
        </div>
        {canManageStays && (
          <div className="flex flex-wrap gap-2">
            {detailCanCheckIn(room) && (
              <Button onClick={onCheckIn} data-testid="action-check-in">
                <LogIn className="rtl:rotate-180" aria-hidden />
                {t('frontDesk.detail.checkIn')}
              </Button>
            )}
            {current && (
              <>
                {stayButton('renew', 'action-renew', t('frontDesk.detail.renew'), <CalendarPlus aria-hidden />)}
                {stayButton('change-room', 'action-change-room', t('frontDesk.detail.changeRoom'), <ArrowLeftRight aria-hidden />)}
                {stayButton('check-out', 'action-check-out', t('frontDesk.detail.checkOut'), <LogOut className="rtl:rotate-180" aria-hidden />, 'default')}
              </>
            )}
          </div>
        )}
      </div>

      {current && (
        <Card className="gap-0 px-4 py-3" data-testid="current-stay">
          <div className="mb-2 flex flex-wrap items-center gap-2">
            <h2 className="text-sm font-semibold">{t('frontDesk.detail.currentStay')}</h2>
            {stay && <StayStateBadge state={stay.state} />}
          </div>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-5">
            <Item label={t('frontDesk.detail.guest')}>
              {current.guestName ?? '—'}
              {current.guestCount > 1 && <span className="text-muted-foreground ms-1 text-xs">{t('frontDesk.board.moreGuests', { number: current.guestCount - 1 })}</span>}
            </Item>
            <Item label={t('frontDesk.detail.checkInAt')}>{formatShortDateTime(current.checkInAt, timeZone)}</Item>
            <Item label={t('frontDesk.detail.expectedCheckOutAt')}>{formatShortDateTime(current.expectedCheckOutAt, timeZone)}</Item>
            <Item label={t('frontDesk.detail.price')}>{stay ? formatMoney(stay.priceAmount, currency) : <Skeleton className="h-5 w-16" />}</Item>
            <Item label={t('frontDesk.detail.deposit')}>{stay ? formatMoney(stay.depositAmount, currency) : <Skeleton className="h-5 w-16" />}</Item>
          </dl>
        </Card>
      )}
    </div>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="truncate font-medium tabular-nums">{children}</dd>
    </div>
  );
}
