import { startTransition, useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Check, LogOut, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ROOM_STATUS_STYLES, RoomStatusBadge } from '@/components/status-badges';
import { Skeleton } from '@/components/ui/skeleton';
import { formatShortDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { DueMark } from './due-mark';
import { KeyNotReadyMark } from '@/components/fix-key';
import { LockBattery, LockOffline, isLockOffline, roomBattery } from '../lock-panel/lock-battery';
import { RoomActionsMenu, type RoomActionHandlers, type RoomItem } from './room-actions-menu';
import { RoomReservationGlance, isReservationAhead } from './room-reservation-glance';

/** Rooms picked on the board for an action on several at once. */
export interface RoomSelection {
  isSelected(roomId: number): boolean;
  toggle(room: RoomItem): void;
}

export interface RoomViewProps {
  rooms: RoomItem[];
  timeZone: string;
  canManageStays: boolean;
  /** Rooms whose menu waits for the server (a stay loading, a status being changed). */
  isBusy(room: RoomItem): boolean;
  actions: RoomActionHandlers;
  /** While rooms are being picked: a tile or row toggles its room instead of opening it. */
  selection: RoomSelection | null;
}

// A phone (390 px) fits three compact tiles a row; wider screens get the full tiles.
const GRID = 'grid grid-cols-[repeat(auto-fill,minmax(6.25rem,1fr))] gap-2 sm:grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] sm:gap-3';

/** About a phone's screenful of tiles (three a row): shown first when the board appears. */
const FIRST_TILES = 12;

/**
 * The board as tiles, one per room, coloured by status; each tile opens the room. When the board
 * appears, the first screenful is put on the page first and the others in a second background
 * render right after (issue 18 §4: one commit of every tile was one long task on a phone).
 */
export function RoomTiles({ rooms, ...props }: RoomViewProps) {
  const [isComplete, setIsComplete] = useState(rooms.length <= FIRST_TILES);
  useEffect(() => {
    if (!isComplete) startTransition(() => setIsComplete(true));
  }, [isComplete]);
  const shown = isComplete ? rooms : rooms.slice(0, FIRST_TILES);
  return (
    <ul className={GRID} data-testid="room-tiles">
      {shown.map((room) => (
        <li key={room.id}>
          <RoomTile room={room} {...props} />
        </li>
      ))}
    </ul>
  );
}

function RoomTile({ room, timeZone, canManageStays, isBusy, actions, selection }: Omit<RoomViewProps, 'rooms'> & { room: RoomItem }) {
  const { t } = useTranslation();
  const stay = room.currentStay;
  const isSelected = selection?.isSelected(room.id) ?? false;
  const battery = roomBattery(room);
  const content = (
    <>
      {/* On a phone the name is shortened, never the amount owed below it (issue 26 §3). */}
      <span className={cn('text-lg leading-tight font-semibold max-sm:truncate sm:text-2xl sm:break-all', selection ? 'ps-6' : 'pe-7 sm:pe-8')}>
        {room.name}
      </span>
      {room.remarkName && <span className="text-muted-foreground hidden truncate text-xs sm:block">{room.remarkName}</span>}
      <span className="text-muted-foreground hidden truncate text-xs sm:block">{room.groupName ?? t('frontDesk.board.noGroup')}</span>
      <span className="flex min-w-0 flex-wrap items-center gap-1">
        <RoomStatusBadge status={room.status} />
        {stay && <DueMark owed={stay.owed} roomName={room.name} />}
        {(stay?.keyNotReady || room.nextStay?.keyNotReady) && <KeyNotReadyMark roomName={room.name} />}
        {isLockOffline(room) && <LockOffline lastSeenAt={room.lock?.lastSeenAt ?? null} timeZone={timeZone} />}
        {room.housekeeping && (
          // Today's housekeeping state, live (docs/housekeeping.md): words, never colour alone. Not on a
          // phone's three tiles a row, where it would push the money down (the housekeeping page has it).
          <span className="hidden rounded border px-1 text-xs sm:inline" data-testid="tile-housekeeping" data-hk-status={room.housekeeping.status}>
            {t('housekeeping.board.state', { status: t(`housekeeping.status.${room.housekeeping.status}`) })}
          </span>
        )}
      </span>
      {stay && (
        <span className="mt-auto grid gap-0.5 text-xs">
          <span className="flex min-w-0 items-center gap-1 font-medium">
            <UserRound className="size-3.5 shrink-0" aria-hidden />
            <span className="sr-only">{t('frontDesk.board.guest')}</span>
            {/* Its own direction: a Latin name in an Arabic tile is shortened at its end, not its start. */}
            <span className="truncate" dir="auto">
              {stay.guestName ?? '—'}
            </span>
            {stay.guestCount > 1 && <span className="text-muted-foreground shrink-0">{t('frontDesk.board.moreGuests', { number: stay.guestCount - 1 })}</span>}
          </span>
          {isReservationAhead(stay) ? (
            <RoomReservationGlance stay={stay} timeZone={timeZone} className="hidden sm:flex" />
          ) : (
            <span className="text-muted-foreground hidden items-center gap-1 sm:flex">
              <LogOut className="size-3.5 shrink-0 rtl:rotate-180" aria-hidden />
              <span className="sr-only">{t('frontDesk.board.expectedCheckOut')}</span>
              <time dateTime={stay.expectedCheckOutAt}>{formatShortDateTime(stay.expectedCheckOutAt, timeZone)}</time>
            </span>
          )}
          {room.nextStay && <RoomReservationGlance stay={room.nextStay} timeZone={timeZone} next className="hidden sm:flex" />}
        </span>
      )}
      {battery !== null && (
        <span className={cn('hidden justify-end sm:flex', !stay && 'mt-auto')}>
          <LockBattery power={battery} />
        </span>
      )}
    </>
  );
  const body =
    'focus-visible:ring-ring flex h-full min-h-24 w-full flex-col gap-1 rounded-md p-2 text-start outline-none focus-visible:ring-2 sm:min-h-36 sm:gap-1.5 sm:p-3';
  return (
    <div
      className={cn(
        'relative h-full rounded-lg border-2 transition-shadow hover:shadow-md',
        ROOM_STATUS_STYLES[room.status].tile,
        isSelected && 'ring-primary ring-2 ring-offset-2',
      )}
      data-selected={selection ? isSelected : undefined}
    >
      {selection ? (
        <button
          type="button"
          role="checkbox"
          aria-checked={isSelected}
          onClick={() => selection.toggle(room)}
          className={body}
          data-testid={`room-tile-${room.name}`}
          data-status={room.status}
        >
          <span
            className={cn(
              'absolute start-2 top-2.5 flex size-4 items-center justify-center rounded-[4px] border sm:top-3.5',
              isSelected ? 'bg-primary border-primary text-primary-foreground' : 'bg-background border-input',
            )}
            aria-hidden
          >
            {isSelected && <Check className="size-3.5" />}
          </span>
          {content}
        </button>
      ) : (
        <Link to="/room/$roomId" params={{ roomId: room.id }} className={body} data-testid={`room-tile-${room.name}`} data-status={room.status}>
          {content}
        </Link>
      )}
      {!selection && (
        <RoomActionsMenu
          room={room}
          canManageStays={canManageStays}
          isLoading={isBusy(room)}
          actions={actions}
          className="absolute end-1 top-1 sm:end-1.5 sm:top-1.5"
        />
      )}
    </div>
  );
}

export function RoomTilesSkeleton({ label }: { label: string }) {
  return (
    <div className={cn(GRID, 'p-3')} aria-busy="true" aria-label={label}>
      {Array.from({ length: 12 }, (_, i) => (
        <Skeleton key={i} className="h-24 w-full rounded-lg sm:h-36" />
      ))}
    </div>
  );
}
