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
 * "A confirm prompt comes before checkout." The room becomes dirty and the stay's cards,
 * passwords and faces are revoked. (A reservation whose guest has not come is cancelled instead:
 * CancelReservationDialog.) A failure is shown in the prompt, which stays open for another try.
 */
export function CheckOutDialog({ stay, open, onOpenChange, onCheckedOut }: { stay: StayDto | null; open: boolean; onOpenChange(open: boolean): void; onCheckedOut?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const checkOut = useMutation(
    trpc.stay.checkOut.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t('frontDesk.stay.checkOutSucceeded', { room: done.roomName }), {
          description: done.revokedCredentials > 0 ? t('frontDesk.stay.revokedCredentials', { n: done.revokedCredentials }) : undefined,
        });
        void invalidate();
        onCheckedOut?.(done);
        onOpenChange(false);
      },
    }),
  );
  const names = stay ? { room: stay.roomName, guest: primaryGuestName(stay) } : { room: '', guest: '' };

  return (
    <ConfirmDialog
      open={open && stay !== null}
      onOpenChange={(isOpen) => {
        if (!isOpen) checkOut.reset();
        onOpenChange(isOpen);
      }}
      title={t('frontDesk.stay.checkOutTitle', names)}
      description={t('frontDesk.stay.checkOutText', names)}
      confirmLabel={t('frontDesk.stay.checkOutSubmit')}
      destructive
      pending={checkOut.isPending}
      disabled={!stay}
      onConfirm={() => stay && checkOut.mutate({ stayId: stay.id })}
      data-testid="check-out-confirm"
      confirmTestId="check-out-submit"
    >
      {stay && (
        <div className="grid gap-2 text-sm">
          <p className="text-muted-foreground">{t('frontDesk.stay.stayPeriod', { from: formatDateTime(stay.checkInAt, timeZone), to: formatDateTime(stay.expectedCheckOutAt, timeZone) })}</p>
          <ul className="list-disc space-y-1 ps-5">
            <li>{t('frontDesk.stay.checkOutRoomDirty', names)}</li>
            <li>{t('frontDesk.stay.revokeCredentialsNotice')}</li>
          </ul>
          <FormError error={checkOut.error} />
        </div>
      )}
    </ConfirmDialog>
  );
}
