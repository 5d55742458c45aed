import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { ScanLine } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { invalidateCards } from './api';
import { z } from 'zod';
import { ZCardNote, ZCardNumber } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { useDeskReader } from '@/lib/desk-reader';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { fromInputValue } from '@/lib/hotel-time';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { ValidityChoice } from '@/components/validity-choice';
import { checkValidity, validityDefaults, type ValidityMode } from '@/lib/validity';
import { readCardOnReader } from './card-writing';
import { DeskErrorAlert } from './desk-error-alert';

export interface SendCardDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  room: { id: number; name: string };
  /** The room's current stay: the card can be valid for it (until its check-out, ended with it). */
  stay: { id: number; guestName: string; expectedCheckOutAt: string } | null;
  timeZone: string;
}

/** The form's fields the server's errors may name (shown next to them; any other in the dialog's error box). */
const FIELDS_OF: Record<ValidityMode, readonly string[]> = { stay: ['cardNumber', 'note'], period: ['cardNumber', 'note', 'validFrom', 'validUntil'] };

/** The rules of the shared ZCardSendInput (same message keys), on the form as its inputs hold it (times are the hotel's wall clock). */
function sendCardSchema(timeZone: string) {
  return z
    .object({ cardNumber: z.string(), note: z.string(), mode: z.enum(['stay', 'period']), validFrom: z.string(), validUntil: z.string() })
    .superRefine((v, ctx) => {
      const add = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
      const number = ZCardNumber.safeParse(v.cardNumber);
      if (!number.success) add('cardNumber', number.error.issues[0]!.message);
      const note = ZCardNote.safeParse(v.note);
      if (!note.success) add('note', note.error.issues[0]!.message);
      checkValidity(v, timeZone, add);
    });
}

/**
 * Sends a card's number to the room's lock over the air (`card.send`; TTLock identityCard): nothing
 * is written on the card, the lock learns its number through the delivery engine and opens for it
 * once it has it. The number is typed, or read on the desk reader; the card is valid for the
 * current stay (until its check-out, ended with it) or for a period. The card then shows in the
 * room's list with each lock's delivery state. Failures (a card in use or reported lost, a reader
 * that does not answer) are shown inside the dialog, the form kept.
 */
export function SendCardDialog(props: SendCardDialogProps) {
  if (!props.open) return null;
  return <SendCardForm {...props} />;
}

function SendCardForm({ onOpenChange, room, stay, timeZone }: SendCardDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const desk = useDeskReader();
  const schema = useMemo(() => sendCardSchema(timeZone), [timeZone]);
  const [defaults] = useState(() => ({ cardNumber: '', note: '', ...validityDefaults(timeZone, stay !== null) }));
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const mode = useWatch({ control: form.control, name: 'mode' });
  const [isReading, setIsReading] = useState(false);
  const [readError, setReadError] = useState<unknown>(null);
  const [readNumber, setReadNumber] = useState<string | null>(null);

  const send = useMutation(
    trpc.card.send.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (card) => {
        toast.success(t('cards.send.sent', { number: card.cardNumber }));
        onOpenChange(false);
      },
      onError: (error) => form.applyServerErrors(error),
      onSettled: () => void invalidateCards(queryClient),
    }),
  );

  const read = async () => {
    if (isReading) return;
    setIsReading(true);
    setReadError(null);
    setReadNumber(null);
    try {
      const { cardNumber } = await readCardOnReader(await desk.getReader());
      form.setValue('cardNumber', cardNumber, { shouldDirty: true, shouldTouch: true, shouldValidate: true });
      setReadNumber(cardNumber);
    } catch (error) {
      setReadError(error);
    } finally {
      setIsReading(false);
    }
  };

  const submit = form.handleSubmit((v) => {
    if (send.isPending || isReading) return;
    const base = { cardNumber: v.cardNumber.trim(), kind: 'room' as const, note: v.note.trim() };
    send.mutate(
      v.mode === 'stay' && stay
        ? { ...base, stayId: stay.id }
        : { ...base, roomIds: [room.id], validFrom: fromInputValue(v.validFrom, timeZone), validUntil: fromInputValue(v.validUntil, timeZone) },
    );
  });

  // A field error the form shows needs no second telling in the dialog's error box.
  const fields = Object.keys(appErrorOf(send.error)?.fields ?? {});
  const shownError = fields.length > 0 && fields.every((f) => FIELDS_OF[mode].includes(f)) ? null : send.error;
  const error = (name: keyof typeof errors) => fieldMessage(t, errors[name]?.message);
  const numberError = error('cardNumber');

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('cards.send.title', { room: room.name })}
      description={t('cards.send.description')}
      isDirty={form.formState.isDirty}
      isSaving={send.isPending}
      error={shownError}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('cards.send.submit')}
      submitDisabled={isReading}
      size="lg"
      initialFocus="send-card-number"
      safeToRetry={false}
      data-testid="send-card-dialog"
      submitTestId="send-card-submit"
    >
      <div className="grid gap-2">
        <FormField
          id="send-card-number"
          label={t('cards.send.numberLabel')}
          // The hint says how to fill the field, and then what the reader read (announced).
          hint={
            <span aria-live="polite" data-testid="send-card-read-status" data-read={readNumber ?? undefined}>
              {isReading ? (
                t('cards.send.reading')
              ) : readNumber ? (
                <span className="[unicode-bidi:isolate]">{t('cards.send.readDone', { number: readNumber })}</span>
              ) : (
                t('cards.send.numberHint')
              )}
            </span>
          }
          error={numberError}
          required
        >
          <div className="flex flex-wrap items-center gap-2">
            <Input
              {...fieldControlProps('send-card-number', numberError, true)}
              aria-required
              autoComplete="off"
              inputMode="numeric"
              spellCheck={false}
              dir="ltr"
              className="text-start tabular-nums sm:w-64"
              {...form.register('cardNumber', { onChange: () => setReadNumber(null) })}
              data-testid="send-card-number"
            />
            <Button
              type="button"
              variant="outline"
              onClick={() => void read()}
              disabled={isReading || send.isPending}
              aria-busy={isReading || undefined}
              data-testid="send-card-read"
            >
              {isReading ? <Spinner /> : <ScanLine aria-hidden />}
              {t('cards.send.readButton')}
            </Button>
          </div>
        </FormField>
        <DeskErrorAlert error={readError} testId="send-card-read-error" />
      </div>

      <ValidityChoice
        control={form.control}
        register={form.register}
        mode={mode}
        hasStay={stay !== null}
        timeZone={timeZone}
        legend={t('cards.send.validity')}
        labels={{
          stay: t('cards.send.forStay'),
          period: t('cards.send.forPeriod'),
          validFrom: t('cards.send.validFrom'),
          validUntil: t('cards.send.validUntil'),
        }}
        hints={{
          stay: stay
            ? t('cards.send.forStayHint', { guest: stay.guestName || '—', id: stay.id, at: formatDateTime(stay.expectedCheckOutAt, timeZone) })
            : t('cards.send.noStay'),
          period: t('cards.send.forPeriodHint'),
        }}
        errors={{ validFrom: error('validFrom'), validUntil: error('validUntil') }}
        idPrefix="send-card"
        testIdPrefix="send-card-mode"
        testId="send-card-mode"
      />

      <FormField
        id="send-card-note"
        label={t('cards.send.noteLabel')}
        hint={t(mode === 'period' ? 'cards.send.noteHintPeriod' : 'cards.send.noteHint')}
        error={error('note')}
      >
        <Input
          {...fieldControlProps('send-card-note', error('note'), true)}
          autoComplete="off"
          dir="auto"
          className="sm:w-96"
          {...form.register('note')}
          data-testid="send-card-note"
        />
      </FormField>
    </FormDialog>
  );
}
