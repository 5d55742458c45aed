import { Link } from '@tanstack/react-router';
import { LogOut, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ROOM_STATUS_STYLES, RoomStatusBadge } from '@/components/status-badges';
import { Skeleton } from '@/components/ui/skeleton';
import { formatShortDateTime } from '@/lib/hotel-time';
import { cn } from '@/lib/utils';
import { LockBattery } from './lock-battery';
import { RoomActionsMenu, type RoomItem } from './room-actions-menu';

export interface RoomViewProps {
  rooms: RoomItem[];
  timeZone: string;
  canManageStays: boolean;
  loadingStayId: number | null;
  onCheckIn(room: RoomItem): void;
  onCheckOut(stayId: number): void;
}

const GRID = 'grid grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] gap-3';

/** The board as tiles, one per room, coloured by status; each tile opens the room. */
export function RoomTiles({ rooms, ...props }: RoomViewProps) {
  return (
    <ul className={GRID} data-testid="room-tiles">
      {rooms.map((room) => (
        <li key={room.id}>
          <RoomTile room={room} {...props} />
        </li>
      ))}
    </ul>
  );
}

function RoomTile({ room, timeZone, canManageStays, loadingStayId, onCheckIn, onCheckOut }: Omit<RoomViewProps, 'rooms'> & { room: RoomItem }) {
  const { t } = useTranslation();
  const stay = room.currentStay;
  return (
    <div className={cn('relative h-full rounded-lg border-2 transition-shadow hover:shadow-md', ROOM_STATUS_STYLES[room.status].tile)}>
      <Link
        to="/room/$roomId"
        params={{ roomId: room.id }}
        className="focus-visible:ring-ring flex h-full min-h-36 flex-col gap-1.5 rounded-md p-3 outline-none focus-visible:ring-2"
        data-testid={`room-tile-${room.name}`}
        data-status={room.status}
      >
        <span className="pe-8 text-2xl leading-tight font-semibold break-all">{room.name}</span>
        {room.remarkName && <span className="text-muted-foreground truncate text-xs">{room.remarkName}</span>}
        <span className="text-muted-foreground truncate text-xs">{room.groupName ?? t('frontDesk.board.noGroup')}</span>
        <RoomStatusBadge status={room.status} />
        {stay && (
          <span className="mt-auto grid gap-0.5 text-xs">
            <span className="flex min-w-0 items-center gap-1 font-medium">
              <UserRound className="size-3.5 shrink-0" aria-hidden />
              <span className="sr-only">{t('frontDesk.board.guest')}</span>
              <span className="truncate">{stay.guestName ?? '—'}</span>
              {stay.guestCount > 1 && <span className="text-muted-foreground shrink-0">{t('frontDesk.board.moreGuests', { number: stay.guestCount - 1 })}</span>}
            </span>
            <span className="text-muted-foreground flex items-center gap-1">
              <LogOut className="size-3.5 shrink-0 rtl:rotate-180" aria-hidden />
              <span className="sr-only">{t('frontDesk.board.expectedCheckOut')}</span>
              <time dateTime={stay.expectedCheckOutAt}>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</time>
            </span>
          </span>
        )}
        {room.lockPower !== null && (
          <span className={cn('flex justify-end', !stay && 'mt-auto')}>
            <LockBattery power={room.lockPower} />
          </span>
        )}
      </Link>
      <RoomActionsMenu
        room={room}
        canManageStays={canManageStays}
        isLoading={stay !== null && loadingStayId === stay.id}
        onCheckIn={() => onCheckIn(room)}
        onCheckOut={onCheckOut}
        className="absolute end-1.5 top-1.5"
      />
    </div>
  );
}

export function RoomTilesSkeleton({ label }: { label: string }) {
  return (
    <div className={GRID} aria-busy="true" aria-label={label}>
      {Array.from({ length: 12 }, (_, i) => (
        <Skeleton key={i} className="h-36 w-full rounded-lg" />
      ))}
    </div>
  );
}
