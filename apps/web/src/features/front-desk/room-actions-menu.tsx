import { Link } from '@tanstack/react-router';
import { CalendarX, DoorOpen, Eye, LogIn, LogOut, MoreHorizontal, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import type { RouterOutputs } from '@/lib/trpc-types';

export type RoomItem = RouterOutputs['room']['list']['items'][number];

/** A room without a guest in it can take one (the server refuses maintenance and overlaps). */
export function boardCanCheckIn(room: Pick<RoomItem, 'status'>): boolean {
  return room.status === 'vacant' || room.status === 'dirty';
}

/** What the board can do with a room, from its menu (each needs the front-desk permission). */
export interface RoomActionHandlers {
  onCheckIn(room: RoomItem): void;
  onCheckOut(stayId: number): void;
  /** The guest of a reservation has come: the reservation becomes a stay in progress. */
  onArrive(stayId: number): void;
  /** The guest of a reservation will not come. */
  onCancelReservation(stayId: number): void;
  /** Housekeeping is done: a dirty room becomes clean (vacant when nobody stays). */
  onMarkClean(room: RoomItem): void;
}

/**
 * The quick actions of a room on the board: details, mark clean, and the front desk's next step
 * for it: check in (nobody there), arrival or cancellation (a reservation), check out (a guest in).
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
  const isReservation = stay?.status === 'reserved';
  const canCheckOut = canManageStays && stay !== null && !isReservation;
  const canArrive = canManageStays && stay !== null && isReservation;
  const canMarkClean = canManageStays && room.status === 'dirty';
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
        {(canCheckIn || canCheckOut || canArrive || canMarkClean) && <DropdownMenuSeparator />}
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
        {canArrive && (
          <>
            <DropdownMenuItem onSelect={() => actions.onArrive(stay.id)} data-testid="room-action-arrive">
              <DoorOpen aria-hidden />
              {t('frontDesk.stay.arriveAction')}
            </DropdownMenuItem>
            <DropdownMenuItem variant="destructive" onSelect={() => actions.onCancelReservation(stay.id)} data-testid="room-action-cancel-reservation">
              <CalendarX aria-hidden />
              {t('frontDesk.stay.cancelReservationAction')}
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
