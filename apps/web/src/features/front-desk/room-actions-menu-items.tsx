import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { CalendarX, DoorOpen, Eye, KeyRound, LogIn, LogOut, Plus, Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  useFirstItemFocus,
} from '@/components/ui/dropdown-menu';
import { isReservationAhead } from './room-reservation-glance';
import { boardCanCheckIn, type RoomActionHandlers, type RoomItem } from './room-item';

/**
 * The menu of `RoomActionsMenu` (room-actions-menu.tsx), in the chunk of the console's menus: mounted
 * open by the first press of the button that stood in for its trigger.
 */
export function RoomActionsMenuItems({
  room,
  canManageStays,
  actions,
  trigger,
  openedWithKeyboard,
}: {
  room: RoomItem;
  canManageStays: boolean;
  actions: RoomActionHandlers;
  trigger: ReactNode;
  openedWithKeyboard: boolean;
}) {
  const { t } = useTranslation();
  const onFocus = useFirstItemFocus(openedWithKeyboard);
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
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-40" onFocus={onFocus}>
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
