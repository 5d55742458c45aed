import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { RoomStatusBadge } from '@/components/status-badges';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatShortDateTime } from '@/lib/format';
import { LockBattery, LockOffline, isLockOffline, roomBattery } from '../lock-panel/lock-battery';
import { DueMark } from './due-mark';
import { RoomActionsMenu } from './room-actions-menu';
import { RoomReservationGlance } from './room-reservation-glance';
import type { RoomViewProps } from './room-tiles';

/** The board as a table: one row per room with its current stay and a menu of quick actions. */
export function RoomTable({ rooms, timeZone, canManageStays, isBusy, actions, selection }: RoomViewProps) {
  const { t } = useTranslation();
  return (
    <Table phoneCards data-testid="room-table">
      <TableHeader>
        <TableRow>
          {selection && (
            <TableHead className="w-10">
              <span className="sr-only">{t('frontDesk.board.selected')}</span>
            </TableHead>
          )}
          <TableHead>{t('frontDesk.board.room')}</TableHead>
          <TableHead>{t('frontDesk.board.group')}</TableHead>
          <TableHead>{t('frontDesk.board.status')}</TableHead>
          <TableHead>{t('frontDesk.board.guest')}</TableHead>
          <TableHead>{t('frontDesk.board.checkInAt')}</TableHead>
          <TableHead>{t('frontDesk.board.expectedCheckOut')}</TableHead>
          <TableHead>{t('frontDesk.board.lockPower')}</TableHead>
          <TableHead className="w-12">
            <span className="sr-only">{t('common.actions')}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rooms.map((room) => {
          const stay = room.currentStay;
          const isSelected = selection?.isSelected(room.id) ?? false;
          return (
            <TableRow
              key={room.id}
              data-testid={`room-row-${room.name}`}
              data-status={room.status}
              data-selected={selection ? isSelected : undefined}
              data-state={isSelected ? 'selected' : undefined}
            >
              {selection && (
                <TableCell>
                  <Checkbox
                    checked={isSelected}
                    onCheckedChange={() => selection.toggle(room)}
                    aria-label={t('frontDesk.board.selectRoom', { name: room.name })}
                    data-testid={`room-select-${room.name}`}
                  />
                </TableCell>
              )}
              <TableCell>
                <Link
                  to="/room/$roomId"
                  params={{ roomId: room.id }}
                  className="focus-visible:ring-ring rounded-sm font-medium outline-none hover:underline focus-visible:ring-2"
                >
                  {room.name}
                </Link>
                {room.remarkName && <div className="text-muted-foreground text-xs">{room.remarkName}</div>}
              </TableCell>
              <TableCell className="text-muted-foreground">{room.groupName ?? t('frontDesk.board.noGroup')}</TableCell>
              <TableCell>
                <span className="flex flex-wrap items-center gap-1">
                  <RoomStatusBadge status={room.status} />
                  {stay && <DueMark owed={stay.owed} roomName={room.name} />}
                </span>
              </TableCell>
              <TableCell>
                {stay ? (
                  <span>
                    {stay.guestName ?? '—'}
                    {stay.guestCount > 1 && (
                      <span className="text-muted-foreground ms-1 text-xs">{t('frontDesk.board.moreGuests', { number: stay.guestCount - 1 })}</span>
                    )}
                    {room.nextStay && <RoomReservationGlance stay={room.nextStay} timeZone={timeZone} next className="mt-0.5" />}
                  </span>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap">{stay ? formatShortDateTime(stay.checkInAt, timeZone) : '—'}</TableCell>
              <TableCell className="whitespace-nowrap">{stay ? formatShortDateTime(stay.expectedCheckOutAt, timeZone) : '—'}</TableCell>
              <TableCell>
                <LockCell room={room} timeZone={timeZone} />
              </TableCell>
              <TableCell className="text-end">
                <RoomActionsMenu room={room} canManageStays={canManageStays} isLoading={isBusy(room)} actions={actions} />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The lock column: offline first (it matters most), then the battery; a dash when nothing is known. */
function LockCell({ room, timeZone }: { room: RoomViewProps['rooms'][number]; timeZone: string }) {
  const battery = roomBattery(room);
  const offline = isLockOffline(room);
  if (battery === null && !offline) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-flex items-center gap-2">
      {offline && <LockOffline lastSeenAt={room.lock?.lastSeenAt ?? null} timeZone={timeZone} focusable />}
      <LockBattery power={battery} />
    </span>
  );
}
