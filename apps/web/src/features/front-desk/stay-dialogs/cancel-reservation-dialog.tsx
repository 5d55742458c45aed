import { trpc } from '@/lib/trpc';
import { EndStayDialog, type EndStayDialogProps, type EndStayTexts } from './end-stay-dialog';
import type { StayDto } from './stay-helpers';

const TEXTS: EndStayTexts = {
  title: 'frontDesk.stay.cancelReservationTitle',
  text: 'frontDesk.stay.cancelReservationText',
  submit: 'frontDesk.stay.cancelReservationSubmit',
  cancel: 'frontDesk.stay.keepReservation',
  succeeded: 'frontDesk.stay.cancelReservationSucceeded',
  period: 'frontDesk.stay.reservationPeriod',
  notices: [],
};

/**
 * Cancels a reservation whose guest has not arrived (`stay.cancelReservation`), after a confirm:
 * the stay ends, the room is free again and nothing is marked dirty. A failure is shown in the
 * prompt; trying again is safe (a reservation already cancelled is refused, not cancelled twice).
 */
export function CancelReservationDialog({ onCancelled, ...props }: Omit<EndStayDialogProps, 'onEnded'> & { onCancelled?(stay: StayDto): void }) {
  return <EndStayDialog {...props} onEnded={onCancelled} endOptions={trpc.stay.cancelReservation.mutationOptions} texts={TEXTS} data-testid="cancel-reservation-confirm" confirmTestId="cancel-reservation-submit" />;
}
