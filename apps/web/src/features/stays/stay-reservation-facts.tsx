import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import type { StayDto } from './stay-action-dialogs';
import { StayAccessCard, StayAccessOutcome, StayOfflineCode } from './stay-access-outcome';

/**
 * What a stay says as a reservation: a reservation awaiting its guest, when it becomes a no-show;
 * a cancelled one, why (the reason's code translated here) and the clerk's note; what the hotel's
 * access rule gave it, and an offline code given in place of a code the lock had not confirmed.
 */
export function StayReservationFacts({
  stay,
  timeZone,
}: {
  stay: Pick<StayDto, 'state' | 'noShowAt' | 'cancelReason' | 'cancelNote' | 'accessOutcome' | 'accessCard' | 'offlineCode'>;
  timeZone: string;
}) {
  return (
    <>
      <ReservationFacts stay={stay} timeZone={timeZone} />
      <StayAccessOutcome outcome={stay.accessOutcome} />
      <StayAccessCard card={stay.accessCard} />
      <StayOfflineCode offlineCode={stay.offlineCode} timeZone={timeZone} />
    </>
  );
}

function ReservationFacts({ stay, timeZone }: { stay: Pick<StayDto, 'state' | 'noShowAt' | 'cancelReason' | 'cancelNote'>; timeZone: string }) {
  const { t } = useTranslation();
  if (stay.state === 'reserved' && stay.noShowAt) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="stay-no-show-at">
        {t('reservations.noShowAfter', { time: formatDateTime(stay.noShowAt, timeZone) })}
      </p>
    );
  }
  if (stay.cancelReason) {
    return (
      <p className="text-sm" data-testid="stay-cancel-reason" data-reason={stay.cancelReason}>
        <span className="text-muted-foreground">{t('reservations.cancelledBecause')}</span> {t(`reservations.cancelReasons.${stay.cancelReason}`)}
        {stay.cancelNote && <span className="text-muted-foreground break-words"> · {stay.cancelNote}</span>}
      </p>
    );
  }
  return null;
}
