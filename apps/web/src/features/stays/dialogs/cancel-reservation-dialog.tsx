import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CANCEL_REASONS, LIMITS, ZCancelReservationInput, type TCancelReason } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { useLaterTexts } from '@/lib/use-later-texts';
import { trpc } from '@/lib/trpc';
import { primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';
import { stayQueries } from '../api';
import { CancelDepositFields, NO_DEPOSIT_CHOICE, type CancelDepositChoice } from './cancel-deposit-fields';

/**
 * Cancels a reservation whose guest has not arrived (`stay.cancelReservation`), saying why: a
 * reason from the shared list (stored as a code, translated wherever it is shown) and a note (needed
 * for "other"). The stay ends, the room is free again for those dates and nothing is marked dirty;
 * the reservation's credentials are withdrawn. Money it holds (a deposit, read from its bill) is
 * refunded in the way the clerk chooses or kept with a reason (issue 36). A failure is shown in the dialog; trying again is
 * safe (a reservation already cancelled is refused, not cancelled twice).
 */
export function CancelReservationDialog({
  stay,
  open,
  onOpenChange,
  onCancelled,
}: {
  stay: StayDto | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  onCancelled?(stay: StayDto): void;
}) {
  // Its texts are in the later part (lib/text-parts.ts), almost always there by the time it opens.
  const hasTexts = useLaterTexts('reservations.cancel.submit');
  if (!stay || !open || !hasTexts) return null;
  return <CancelForm key={stay.id} stay={stay} onOpenChange={onOpenChange} onCancelled={onCancelled} />;
}

type Errors = { reason?: string; note?: string; deposit?: string; refundMethod?: string; depositReason?: string };

function CancelForm({ stay, onOpenChange, onCancelled }: { stay: StayDto; onOpenChange(open: boolean): void; onCancelled?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const [reason, setReason] = useState<TCancelReason | ''>('');
  const [note, setNote] = useState('');
  const [money, setMoney] = useState<CancelDepositChoice>(NO_DEPOSIT_CHOICE);
  const [errors, setErrors] = useState<Errors>({});
  // What the reservation's bill holds now (not the form's deposit field).
  const folio = useQuery({ ...stayQueries.folio(stay.id), staleTime: 0 });
  const held = folio.data && folio.data.folioId !== null && folio.data.state === 'open' ? Math.max(folio.data.depositHeld, folio.data.dueBack) : 0;
  const paidBeyondDeposit = held > 0 && folio.data!.dueBack > folio.data!.depositHeld;
  const handsBack = money.deposit === 'refund' || (money.deposit === 'keep' && paidBeyondDeposit);
  const cancel = useMutation(
    trpc.stay.cancelReservation.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t('reservations.cancel.succeeded', { room: done.roomName }), {
          description: done.revokedCredentials > 0 ? t('frontDesk.stay.revokedCredentials', { n: done.revokedCredentials }) : undefined,
        });
        void invalidate();
        onCancelled?.(done);
        onOpenChange(false);
      },
      onError: (error) => {
        const fields = appErrorOf(error)?.fields;
        // Money taken on the bill since it was read (elsewhere): read it again, and the question appears.
        if (fields?.deposit) void folio.refetch();
        if (fields)
          setErrors({
            reason: fields.reason,
            note: fields.note,
            deposit: fields.deposit,
            refundMethod: fields.refundMethod,
            depositReason: fields.depositReason,
          });
      },
    }),
  );
  const names = { room: stay.roomName, guest: primaryGuestName(stay) };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (cancel.isPending) return;
    // The shared rule: a reason, and a note for "other"; with money held, what becomes of it.
    const checked = ZCancelReservationInput.safeParse({
      stayId: stay.id,
      reason: reason || undefined,
      note,
      ...(held > 0 && money.deposit ? { deposit: money.deposit, depositReason: money.deposit === 'keep' ? money.reason : '' } : {}),
      ...(held > 0 && handsBack && money.refundMethod ? { refundMethod: money.refundMethod } : {}),
    });
    const found: Errors = {};
    if (held > 0 && !money.deposit) found.deposit = 'validation.depositDecisionInvalid';
    if (held > 0 && handsBack && !money.refundMethod) found.refundMethod = 'validation.refundMethodRequired';
    if (!checked.success) for (const issue of checked.error.issues) found[issue.path[0] as keyof Errors] ??= issue.message;
    if (!checked.success || Object.keys(found).length) {
      setErrors(found);
      return;
    }
    setErrors({});
    cancel.mutate(checked.data);
  };

  const reasonError = fieldMessage(t, errors.reason);
  const noteError = fieldMessage(t, errors.note);
  const app = appErrorOf(cancel.error);
  return (
    <FormDialog
      open
      onOpenChange={(isOpen) => {
        if (!isOpen) cancel.reset();
        onOpenChange(isOpen);
      }}
      title={t('reservations.cancel.title', names)}
      description={t('reservations.cancel.text', names)}
      isDirty={reason !== '' || note !== '' || money.deposit !== null}
      isSaving={cancel.isPending}
      error={app?.code === 'VALIDATION' && app.fields ? null : cancel.error}
      onSubmit={submit}
      submitLabel={t('reservations.cancel.submit')}
      // Not "Cancel" beside "Cancel reservation": the dismiss keeps it (issue 39 §12).
      cancelLabel={t('reservations.cancel.keep')}
      initialFocus="cancel-reason"
      data-testid="cancel-reservation-confirm"
      submitTestId="cancel-reservation-submit"
    >
      <p className="text-muted-foreground text-sm" data-testid="cancel-reservation-period">
        {t('frontDesk.stay.reservationPeriod', { from: formatDateTime(stay.checkInAt, timeZone), to: formatDateTime(stay.expectedCheckOutAt, timeZone) })}
      </p>
      <FormField id="cancel-reason" label={t('reservations.cancel.reason')} error={reasonError} required>
        <NativeSelect
          {...fieldControlProps('cancel-reason', reasonError)}
          value={reason}
          onChange={(e) => setReason(e.target.value as TCancelReason | '')}
          wrapperClassName="w-full"
          aria-required
          data-testid="cancel-reason"
        >
          <NativeSelectOption value="" disabled>
            {t('reservations.cancel.reasonPlaceholder')}
          </NativeSelectOption>
          {CANCEL_REASONS.map((r) => (
            <NativeSelectOption key={r} value={r}>
              {t(`reservations.cancelReasons.${r}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        id="cancel-note"
        label={t('reservations.cancel.note')}
        hint={t('reservations.cancel.noteHint')}
        error={noteError}
        required={reason === 'other'}
      >
        <Textarea
          {...fieldControlProps('cancel-note', noteError)}
          rows={2}
          maxLength={LIMITS.remarkMaxLength}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          data-testid="cancel-note"
        />
      </FormField>
      {held > 0 && (
        <CancelDepositFields
          held={held}
          paidBeyondDeposit={paidBeyondDeposit}
          currency={currency}
          value={money}
          onChange={(next) => {
            setMoney(next);
            // An answer given clears what it answers.
            setErrors((e) => ({
              ...e,
              deposit: next.deposit ? undefined : e.deposit,
              refundMethod: next.refundMethod ? undefined : e.refundMethod,
              depositReason: next.reason.trim() ? undefined : e.depositReason,
            }));
          }}
          errors={errors}
        />
      )}
      <p className="text-muted-foreground text-sm">{t('frontDesk.stay.revokeCredentialsNotice')}</p>
    </FormDialog>
  );
}
