import { useTranslation } from 'react-i18next';
import { formatShortDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { RoomItem } from './room-item';

type BoardStay = NonNullable<RoomItem['currentStay']>;

/** Whether a stay the board shows is a reservation not begun (one awaiting its guest stays one past its check-in time). */
export function isReservationAhead(stay: BoardStay, now = Date.now()): boolean {
  return stay.status === 'reserved' && (stay.awaitsArrival || Date.parse(stay.checkInAt) > now);
}

/**
 * A reservation as the board shows it on a room: when the guest arrives and leaves, and who
 * (`next`: the reservation after the stay in the room now, e.g. a room sold tonight and reserved
 * from tomorrow). A room reserved from a later day keeps its status for tonight; this line says
 * which nights are taken.
 */
export function RoomReservationGlance({ stay, timeZone, next = false, className }: { stay: BoardStay; timeZone: string; next?: boolean; className?: string }) {
  const { t } = useTranslation();
  const from = formatShortDateTime(stay.checkInAt, timeZone);
  const to = formatShortDateTime(stay.expectedCheckOutAt, timeZone);
  const text = next ? t('frontDesk.board.nextReservation', { from, to, guest: stay.guestName ?? '—' }) : t('frontDesk.board.reservedFromTo', { from, to });
  return (
    <span
      className={cn('text-muted-foreground min-w-0 text-xs break-words', className)}
      data-testid={next ? 'room-next-reservation' : 'room-reservation'}
      data-stay-id={stay.id}
    >
      {text}
    </span>
  );
}
