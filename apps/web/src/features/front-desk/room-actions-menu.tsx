import { Link } from '@tanstack/react-router';
import { CalendarX, DoorOpen, Eye, KeyRound, LogIn, LogOut, MoreHorizontal, Plus, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { isReservationAhead } from './room-reservation-glance';
import type { RoomItem } from './room-item';

export type { RoomItem } from './room-item';

/**
 * A room without a guest in it can take one, a reservation ahead included: whether the stay fits is
 * decided by the server by time overlap alone (a room reserved from tomorrow is sold tonight). A
 * room under maintenance takes no guest.
 */
export function boardCanCheckIn(room: Pick<RoomItem, 'status'>): boolean {
  return room.status === 'vacant' || room.status === 'dirty' || room.status === 'reserved';
}

/** What the board can do with a room, from its menu (each needs the front-desk permission). */
export interface RoomActionHandlers {
  onCheckIn(room: RoomItem): void;
  /** A new reservation of this room (for any dates: the dialog asks). */
  onReserve(room: RoomItem): void;
  onCheckOut(stayId: number): void;
  /** The guest of a reservation has come: the reservation becomes a stay in progress. */
  onArrive(stayId: number): void;
  /** The guest of a reservation will not come. */
  onCancelReservation(stayId: number): void;
  /** Housekeeping is done: a dirty room becomes clean (vacant when nobody stays). */
  onMarkClean(room: RoomItem): void;
  /** A reservation's key is not on the lock in time: an offline code now, or its credentials sent again. */
  onFixKey(stayId: number): void;
}

/**
 * The quick actions of a room on the board: details, mark clean, and the front desk's next step
 * for it: check in (nobody there), a new reservation, arrival or cancellation (a reservation),
 * check out (a guest in).
 */
export function RoomActionsMenu({
  room,
  canManageStays,
  isLoading,
  actions,
  className,
}: {
  room: RoomItem;
  canManageStays: boolean;
  isLoading: boolean;
  actions: RoomActionHandlers;
  className?: string;
}) {
  const { t } = useTranslation();
  const stay = room.currentStay;
  const canCheckIn = canManageStays && boardCanCheckIn(room);
  // A room is reserved for later dates whatever its state tonight, unless it is under maintenance.
  const canReserve = canManageStays && room.status !== 'maintain';
  // The room's stay: in progress (check out), or a reservation not begun (arrive, cancel).
  const isReservation = stay !== null && isReservationAhead(stay);
  const canCheckOut = canManageStays && stay !== null && !isReservation;
  const canArrive = canManageStays && stay !== null && isReservation;
  const canMarkClean = canManageStays && room.status === 'dirty';
  // The reservation (this one, or the next) whose key is not on the lock in time.
  const notReady = [stay, room.nextStay].find((s) => s?.keyNotReady) ?? null;
  const canFixKey = canManageStays && notReady !== null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          className={cn('size-8', className)}
          aria-label={t('frontDesk.board.roomActions', { name: room.name })}
          disabled={isLoading}
          data-testid={`room-actions-${room.name}`}
        >
          {isLoading ? <Spinner /> : <MoreHorizontal className="size-4" aria-hidden />}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-40">
        <DropdownMenuItem asChild>
          <Link to="/room/$roomId" params={{ roomId: room.id }} data-testid="room-action-details">
            <Eye aria-hidden />
            {t('frontDesk.board.details')}
          </Link>
        </DropdownMenuItem>
        {(canCheckIn || canReserve || canCheckOut || canArrive || canMarkClean || canFixKey) && <DropdownMenuSeparator />}
        {canFixKey && (
          <DropdownMenuItem onSelect={() => actions.onFixKey(notReady.id)} data-testid="room-action-fix-key">
            <KeyRound aria-hidden />
            {t('accessRules.fixNow')}
          </DropdownMenuItem>
        )}
        {canMarkClean && (
          <DropdownMenuItem onSelect={() => actions.onMarkClean(room)} data-testid="room-action-mark-clean">
            <Sparkles aria-hidden />
            {t('frontDesk.board.markClean')}
          </DropdownMenuItem>
        )}
        {canCheckIn && (
          <DropdownMenuItem onSelect={() => actions.onCheckIn(room)} data-testid="room-action-check-in">
            <LogIn className="rtl:rotate-180" aria-hidden />
            {t('frontDesk.board.checkIn')}
          </DropdownMenuItem>
        )}
        {canReserve && (
          <DropdownMenuItem onSelect={() => actions.onReserve(room)} data-testid="room-action-reserve">
            <Plus aria-hidden />
            {t('frontDesk.board.newReservation')}
          </DropdownMenuItem>
        )}
        {canArrive && (
          <>
            <DropdownMenuItem onSelect={() => actions.onArrive(stay.id)} data-testid="room-action-arrive">
              <DoorOpen aria-hidden />
              {t('frontDesk.board.arriveAction')}
            </DropdownMenuItem>
            <DropdownMenuItem variant="destructive" onSelect={() => actions.onCancelReservation(stay.id)} data-testid="room-action-cancel-reservation">
              <CalendarX aria-hidden />
              {t('frontDesk.board.cancelReservationAction')}
            </DropdownMenuItem>
          </>
        )}
        {canCheckOut && (
          <DropdownMenuItem onSelect={() => actions.onCheckOut(stay.id)} data-testid="room-action-check-out">
            <LogOut className="rtl:rotate-180" aria-hidden />
            {t('frontDesk.board.checkOut')}
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
