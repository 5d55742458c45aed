import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Spinner } from '@/components/ui/spinner';
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
    <AlertDialog open={open && stay !== null} onOpenChange={(isOpen) => (isOpen || !checkOut.isPending) && onOpenChange(isOpen)}>
      <AlertDialogContent data-testid="check-out-confirm" data-state-kind={reserved ? 'cancel' : 'check-out'}>
        <AlertDialogHeader>
          <AlertDialogTitle>{t(reserved ? 'frontDesk.stay.cancelReservationTitle' : 'frontDesk.stay.checkOutTitle', names)}</AlertDialogTitle>
          <AlertDialogDescription>{t(reserved ? 'frontDesk.stay.cancelReservationText' : 'frontDesk.stay.checkOutText', names)}</AlertDialogDescription>
        </AlertDialogHeader>
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
        <AlertDialogFooter>
          <AlertDialogCancel disabled={checkOut.isPending}>{t(reserved ? 'frontDesk.stay.keepReservation' : 'common.cancel')}</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={checkOut.isPending || !stay}
            data-testid="check-out-submit"
            onClick={(event) => {
              // Keep the dialog open until the server has answered.
              event.preventDefault();
              if (stay && !checkOut.isPending) checkOut.mutate({ stayId: stay.id });
            }}
          >
            {checkOut.isPending && <Spinner />}
            {t(reserved ? 'frontDesk.stay.cancelReservationSubmit' : 'frontDesk.stay.checkOutSubmit')}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
