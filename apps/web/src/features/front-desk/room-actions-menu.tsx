import { Link } from '@tanstack/react-router';
import { Eye, LogIn, LogOut, MoreHorizontal } from 'lucide-react';
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

/** The quick actions of a room on the board: details, check in, check out. */
export function RoomActionsMenu({
  room,
  canManageStays,
  isLoading,
  onCheckIn,
  onCheckOut,
  className,
}: {
  room: RoomItem;
  canManageStays: boolean;
  isLoading: boolean;
  onCheckIn(): void;
  onCheckOut(stayId: number): void;
  className?: string;
}) {
  const { t } = useTranslation();
  const stay = room.currentStay;
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
        {canManageStays && (boardCanCheckIn(room) || stay) && <DropdownMenuSeparator />}
        {canManageStays && boardCanCheckIn(room) && (
          <DropdownMenuItem onSelect={onCheckIn} data-testid="room-action-check-in">
            <LogIn className="rtl:rotate-180" aria-hidden />
            {t('frontDesk.board.checkIn')}
          </DropdownMenuItem>
        )}
        {canManageStays && stay && (
          <DropdownMenuItem onSelect={() => onCheckOut(stay.id)} data-testid="room-action-check-out">
            <LogOut className="rtl:rotate-180" aria-hidden />
            {t('frontDesk.board.checkOut')}
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
