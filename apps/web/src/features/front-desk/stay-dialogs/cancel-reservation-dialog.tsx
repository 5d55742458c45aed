import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { trpc } from '@/lib/trpc';
import { primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';

/**
 * Cancels a reservation whose guest has not arrived (`stay.cancelReservation`), after a confirm:
 * the stay ends, the room is free again and nothing is marked dirty. A failure is shown in the
 * prompt; trying again is safe (a reservation already cancelled is refused, not cancelled twice).
 */
export function CancelReservationDialog({ stay, open, onOpenChange, onCancelled }: { stay: StayDto | null; open: boolean; onOpenChange(open: boolean): void; onCancelled?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const cancel = useMutation(
    trpc.stay.cancelReservation.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t('frontDesk.stay.cancelReservationSucceeded', { room: done.roomName }), {
          description: done.revokedCredentials > 0 ? t('frontDesk.stay.revokedCredentials', { n: done.revokedCredentials }) : undefined,
        });
        void invalidate();
        onCancelled?.(done);
        onOpenChange(false);
      },
    }),
  );
  const names = stay ? { room: stay.roomName, guest: primaryGuestName(stay) } : { room: '', guest: '' };

  return (
    <ConfirmDialog
      open={open && stay !== null}
      onOpenChange={(isOpen) => {
        if (!isOpen) cancel.reset();
        onOpenChange(isOpen);
      }}
      title={t('frontDesk.stay.cancelReservationTitle', names)}
      description={t('frontDesk.stay.cancelReservationText', names)}
      cancelLabel={t('frontDesk.stay.keepReservation')}
      confirmLabel={t('frontDesk.stay.cancelReservationSubmit')}
      destructive
      pending={cancel.isPending}
      disabled={!stay}
      onConfirm={() => stay && cancel.mutate({ stayId: stay.id })}
      data-testid="cancel-reservation-confirm"
      confirmTestId="cancel-reservation-submit"
    >
      {stay && (
        <div className="grid gap-2 text-sm">
          <p className="text-muted-foreground">{t('frontDesk.stay.reservationPeriod', { from: formatDateTime(stay.checkInAt, timeZone), to: formatDateTime(stay.expectedCheckOutAt, timeZone) })}</p>
          <ul className="list-disc space-y-1 ps-5">
            <li>{t('frontDesk.stay.revokeCredentialsNotice')}</li>
          </ul>
          <FormError error={cancel.error} />
        </div>
      )}
    </ConfirmDialog>
  );
}
