import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import type { trpc } from '@/lib/trpc';
import { primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';

/** The translation keys of an ending: `title`, `text`, `notices` get `room` and `guest`; `succeeded` gets `room`; `period`, `from` and `to`. */
export interface EndStayTexts {
  title: string;
  text: string;
  submit: string;
  /** The cancel button, when not "Cancel". */
  cancel?: string;
  succeeded: string;
  period: string;
  /** What the ending does, before "the stay's credentials are revoked". */
  notices: string[];
}

export interface EndStayDialogProps {
  stay: StayDto | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  onEnded?(stay: StayDto): void;
}

/**
 * The confirmation of a stay's end (`stay.checkOut`, `stay.cancelReservation`: the same input and
 * answer): the stay's period and what the ending does, the server's failure in the prompt, which
 * stays open for another try; once done, a toast (with how many credentials were revoked), the
 * front desk's lists asked again, `onEnded`, and the prompt closes.
 */
export function EndStayDialog({
  stay,
  open,
  onOpenChange,
  onEnded,
  endOptions,
  texts,
  'data-testid': testId,
  confirmTestId,
}: EndStayDialogProps & { endOptions: typeof trpc.stay.checkOut.mutationOptions; texts: EndStayTexts; 'data-testid': string; confirmTestId: string }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const end = useMutation(
    endOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t(texts.succeeded, { room: done.roomName }), {
          description: done.revokedCredentials > 0 ? t('frontDesk.stay.revokedCredentials', { n: done.revokedCredentials }) : undefined,
        });
        void invalidate();
        onEnded?.(done);
        onOpenChange(false);
      },
    }),
  );
  const names = stay ? { room: stay.roomName, guest: primaryGuestName(stay) } : { room: '', guest: '' };

  return (
    <ConfirmDialog
      open={open && stay !== null}
      onOpenChange={(isOpen) => {
        if (!isOpen) end.reset();
        onOpenChange(isOpen);
      }}
      title={t(texts.title, names)}
      description={t(texts.text, names)}
      cancelLabel={texts.cancel && t(texts.cancel)}
      confirmLabel={t(texts.submit)}
      destructive
      pending={end.isPending}
      disabled={!stay}
      onConfirm={() => stay && end.mutate({ stayId: stay.id })}
      data-testid={testId}
      confirmTestId={confirmTestId}
    >
      {stay && (
        <div className="grid gap-2 text-sm">
          <p className="text-muted-foreground">
            {t(texts.period, { from: formatDateTime(stay.checkInAt, timeZone), to: formatDateTime(stay.expectedCheckOutAt, timeZone) })}
          </p>
          <ul className="list-disc space-y-1 ps-5">
            {texts.notices.map((notice) => (
              <li key={notice}>{t(notice, names)}</li>
            ))}
            <li>{t('frontDesk.stay.revokeCredentialsNotice')}</li>
          </ul>
          <FormError error={end.error} />
        </div>
      )}
    </ConfirmDialog>
  );
}
