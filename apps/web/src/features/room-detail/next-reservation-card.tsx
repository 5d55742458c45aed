import { CalendarRange, CalendarX, LogIn } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import type { RoomDetail } from './room-detail-header';
import type { StayActionKind } from '../stays/stay-action-dialogs';

/**
 * The reservation after the stay the page shows (a room sold tonight and reserved from tomorrow):
 * who, which nights, and for the front desk its arrival and cancellation.
 */
export function NextReservationCard({
  stay,
  timeZone,
  canManageStays,
  isLoading,
  onAction,
}: {
  stay: NonNullable<RoomDetail['nextStay']>;
  timeZone: string;
  canManageStays: boolean;
  isLoading: boolean;
  onAction(kind: StayActionKind, stayId: number): void;
}) {
  const { t } = useTranslation();
  return (
    <Card className="flex-row flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="next-reservation" data-stay-id={stay.id}>
      <CalendarRange className="text-muted-foreground size-5 shrink-0" aria-hidden />
      <div className="min-w-0 flex-1 text-sm">
        <h2 className="font-semibold">{t('frontDesk.detail.nextReservation')}</h2>
        <p className="text-muted-foreground">
          {t('frontDesk.detail.nextReservationText', {
            guest: stay.guestName ?? '—',
            from: formatDateTime(stay.checkInAt, timeZone),
            to: formatDateTime(stay.expectedCheckOutAt, timeZone),
          })}
        </p>
      </div>
      {canManageStays && (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:text-destructive"
            disabled={isLoading}
            onClick={() => onAction('cancel-reservation', stay.id)}
            data-testid="next-reservation-cancel"
          >
            {isLoading ? <Spinner /> : <CalendarX aria-hidden />}
            {t('frontDesk.detail.cancelReservation')}
          </Button>
          <Button size="sm" disabled={isLoading} onClick={() => onAction('arrive', stay.id)} data-testid="next-reservation-arrive">
            {isLoading ? <Spinner /> : <LogIn className="rtl:rotate-180" aria-hidden />}
            {t('frontDesk.detail.arrive')}
          </Button>
        </div>
      )}
    </Card>
  );
}
