import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formatDateTime } from '@/lib/format';
import { trpc } from '@/lib/trpc';
import { primaryGuestName, useHotelSettings, useInvalidateFrontDesk, type StayDto } from './stay-helpers';

/**
 * "A confirm prompt comes before checkout." The room becomes dirty and the stay's cards,
 * passwords and faces are revoked; a reservation that has not begun is cancelled instead.
 */
export function CheckOutDialog({ stay, open, onOpenChange, onCheckedOut }: { stay: StayDto | null; open: boolean; onOpenChange(open: boolean): void; onCheckedOut?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const checkOut = useMutation(
    trpc.stay.checkOut.mutationOptions({
      onSuccess: (done) => {
        // A reservation that had not begun is cancelled ("ended") rather than checked out.
        const cancelled = done.state === 'ended';
        toast.success(t(cancelled ? 'frontDesk.stay.cancelReservationSucceeded' : 'frontDesk.stay.checkOutSucceeded', { room: done.roomName }), {
          description: done.revokedCredentials > 0 ? t('frontDesk.stay.revokedCredentials', { n: done.revokedCredentials }) : undefined,
        });
        void invalidate();
        onCheckedOut?.(done);
        onOpenChange(false);
      },
    }),
  );

  const reserved = stay?.state === 'reserved';
  const names = stay ? { room: stay.roomName, guest: primaryGuestName(stay) } : { room: '', guest: '' };

  return (
    <ConfirmDialog
      open={open && stay !== null}
      onOpenChange={onOpenChange}
      title={t(reserved ? 'frontDesk.stay.cancelReservationTitle' : 'frontDesk.stay.checkOutTitle', names)}
      description={t(reserved ? 'frontDesk.stay.cancelReservationText' : 'frontDesk.stay.checkOutText', names)}
      cancelLabel={reserved ? t('frontDesk.stay.keepReservation') : undefined}
      confirmLabel={t(reserved ? 'frontDesk.stay.cancelReservationSubmit' : 'frontDesk.stay.checkOutSubmit')}
      destructive
      pending={checkOut.isPending}
      disabled={!stay}
      onConfirm={() => stay && checkOut.mutate({ stayId: stay.id })}
      data-testid="check-out-confirm"
      confirmTestId="check-out-submit"
    >
      {stay && (
        <div className="grid gap-2 text-sm">
          <p className="text-muted-foreground">
            {t(reserved ? 'frontDesk.stay.reservationPeriod' : 'frontDesk.stay.stayPeriod', {
              from: formatDateTime(stay.checkInAt, timeZone),
              to: formatDateTime(stay.expectedCheckOutAt, timeZone),
            })}
          </p>
          <ul className="list-disc space-y-1 ps-5">
            {!reserved && <li>{t('frontDesk.stay.checkOutRoomDirty', names)}</li>}
            <li>{t('frontDesk.stay.revokeCredentialsNotice')}</li>
          </ul>
        </div>
      )}
    </ConfirmDialog>
  );
}
