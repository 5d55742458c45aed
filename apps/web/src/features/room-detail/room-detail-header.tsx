import { ArrowLeftRight, CalendarClock, CalendarPlus, CalendarRange, CalendarX, LogIn, LogOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { RoomStatusBadge } from '@/components/status-badges';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useHotelSettings } from '@/lib/hotel-settings';
import { LockBattery, LockOffline, isLockOffline, roomBattery } from '../lock-panel/lock-battery';
import type { StayActionKind, StayDto } from '../stays/stay-action-dialogs';

export type RoomDetail = RouterOutputs['room']['get'];

/**
 * No guest is in the room and it is not under maintenance: it can take a check-in, a reservation
 * ahead included (the server decides by time overlap whether the stay fits before it).
 */
export function detailCanCheckIn(room: Pick<RoomDetail, 'status' | 'currentStay'>): boolean {
  return room.status === 'vacant' || room.status === 'dirty' || room.status === 'reserved';
}

/** The room's current stay is a reservation whose guest has not come yet (as the board sees it, before the stay is loaded). */
export function isReservationAhead(room: Pick<RoomDetail, 'currentStay'>, stay: StayDto | null): boolean {
  if (stay) return stay.state === 'reserved';
  const current = room.currentStay;
  return current !== null && current.status === 'reserved' && Date.parse(current.checkInAt) > Date.now();
}

/**
 * The page's heading (the room's name, status, and its lock's battery and whether it is offline, as
 * last reported) and the front-desk actions on it: check in a vacant room; for a reservation, the
 * guest's arrival or its cancellation; for a stay in progress, renew, change room and check out.
 */
export function RoomDetailHeader({
  room,
  stay,
  isStayLoading,
  canManageStays,
  onCheckIn,
  onReserve,
  onStayAction,
}: {
  room: RoomDetail;
  stay: StayDto | null;
  isStayLoading: boolean;
  canManageStays: boolean;
  onCheckIn(): void;
  /** A new reservation of this room. */
  onReserve(): void;
  onStayAction(kind: StayActionKind, stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const reservation = isReservationAhead(room, stay);
  const stayButton = (kind: StayActionKind, label: string, icon: React.ReactNode, variant: 'outline' | 'default' | 'destructive-outline' = 'outline') => (
    <Button
      variant={variant === 'destructive-outline' ? 'outline' : variant}
      className={variant === 'destructive-outline' ? 'text-destructive hover:text-destructive' : undefined}
      onClick={() => stay && onStayAction(kind, stay)}
      disabled={!stay}
      data-testid={`action-${kind}`}
    >
      {isStayLoading ? <Spinner /> : icon}
      {label}
    </Button>
  );

  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold break-all" data-testid="room-heading">
            {t('frontDesk.detail.heading', { room: room.name })}
          </h1>
          <RoomStatusBadge status={room.status} />
          <LockBattery power={roomBattery(room)} />
          {isLockOffline(room) && <LockOffline lastSeenAt={room.lock?.lastSeenAt ?? null} timeZone={timeZone} focusable withText />}
        </div>
        <p className="text-muted-foreground text-sm">
          {room.groupName ?? t('frontDesk.board.noGroup')}
          {room.remarkName && <span> · {room.remarkName}</span>}
        </p>
      </div>
      {canManageStays && (
        <div className="flex flex-wrap gap-2">
          {room.status !== 'maintain' && (
            <Button variant="outline" onClick={onReserve} data-testid="action-reserve" data-shortcut="new-reservation">
              <CalendarRange aria-hidden />
              {t('frontDesk.board.newReservation')}
            </Button>
          )}
          {detailCanCheckIn(room) && (
            // With a reservation ahead, the room is free until then: a walk-in is another guest, said so
            // beside the reservation's own "check in the guest" (arrive).
            <Button
              variant={room.currentStay && reservation ? 'outline' : 'default'}
              onClick={onCheckIn}
              title={room.currentStay && reservation ? t('frontDesk.detail.checkInOtherHint') : undefined}
              data-testid="action-check-in"
              data-shortcut="check-in"
            >
              <LogIn className="rtl:rotate-180" aria-hidden />
              {t(room.currentStay && reservation ? 'frontDesk.detail.checkInOther' : 'frontDesk.detail.checkIn')}
            </Button>
          )}
          {room.currentStay &&
            (reservation ? (
              <>
                {stayButton('change-room', t('frontDesk.detail.changeRoom'), <ArrowLeftRight aria-hidden />)}
                {stayButton('reschedule', t('frontDesk.detail.changeDates'), <CalendarClock aria-hidden />)}
                {stayButton('cancel-reservation', t('frontDesk.detail.cancelReservation'), <CalendarX aria-hidden />, 'destructive-outline')}
                {stayButton('arrive', t('frontDesk.detail.arrive'), <LogIn className="rtl:rotate-180" aria-hidden />, 'default')}
              </>
            ) : (
              <>
                {stayButton('renew', t('frontDesk.detail.renew'), <CalendarPlus aria-hidden />)}
                {stayButton('reschedule', t('frontDesk.detail.changeDates'), <CalendarClock aria-hidden />)}
                {stayButton('change-room', t('frontDesk.detail.changeRoom'), <ArrowLeftRight aria-hidden />)}
                {stayButton('check-out', t('frontDesk.detail.checkOut'), <LogOut className="rtl:rotate-180" aria-hidden />, 'default')}
              </>
            ))}
        </div>
      )}
    </div>
  );
}
