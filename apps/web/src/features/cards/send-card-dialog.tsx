import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { ScanLine } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ZCardNote, ZCardNumber } from '@console/shared';
import { DateTimeFormField } from '@/components/date-time-form-field';
import { FormDialog } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { useDeskReader } from '@/lib/desk-reader';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { cn } from '@/lib/utils';
import { readCardOnReader } from './card-writing';
import { DeskErrorAlert } from './desk-error-alert';

type Mode = 'stay' | 'period';
const MODES: readonly Mode[] = ['stay', 'period'];

export interface SendCardDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  room: { id: number; name: string };
  /** The room's current stay: the card can be valid for it (until its check-out, ended with it). */
  stay: { id: number; guestName: string; expectedCheckOutAt: string } | null;
  timeZone: string;
}

/** The form's fields the server's errors may name (shown next to them; any other in the dialog's error box). */
const FIELDS_OF: Record<Mode, readonly string[]> = { stay: ['cardNumber', 'note'], period: ['cardNumber', 'note', 'validFrom', 'validUntil'] };

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
      if (v.mode === 'stay') return;
      const from = v.validFrom.trim() ? fromInputValue(v.validFrom, timeZone) : undefined;
      const until = v.validUntil.trim() ? fromInputValue(v.validUntil, timeZone) : undefined;
      if (!v.validFrom.trim()) add('validFrom', 'validation.dateTimeRequired');
      else if (!from) add('validFrom', 'validation.dateTimeInvalid');
      if (!v.validUntil.trim()) add('validUntil', 'validation.dateTimeRequired');
      else if (!until) add('validUntil', 'validation.dateTimeInvalid');
      else if (from && Date.parse(until) <= Date.parse(from)) add('validUntil', 'validation.endAfterStart');
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
  const [defaults] = useState(() => {
    const now = new Date();
    return { cardNumber: '', note: '', mode: stay ? ('stay' as const) : ('period' as const), validFrom: toInputValue(now, timeZone), validUntil: toInputValue(new Date(now.getTime() + 24 * 3_600_000), timeZone) };
  });
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
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.card.pathKey() }),
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
              {isReading ? t('cards.send.reading') : readNumber ? <span className="[unicode-bidi:isolate]">{t('cards.send.readDone', { number: readNumber })}</span> : t('cards.send.numberHint')}
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
            <Button type="button" variant="outline" onClick={() => void read()} disabled={isReading || send.isPending} aria-busy={isReading || undefined} data-testid="send-card-read">
              {isReading ? <Spinner /> : <ScanLine aria-hidden />}
              {t('cards.send.readButton')}
            </Button>
          </div>
        </FormField>
        <DeskErrorAlert error={readError} testId="send-card-read-error" />
      </div>

      <fieldset className="grid gap-2" data-testid="send-card-mode">
        <legend className="mb-2 text-sm leading-none font-medium">{t('cards.send.validity')}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {MODES.map((value) => {
            const disabled = value === 'stay' && !stay;
            return (
              <label
                key={value}
                htmlFor={`send-card-mode-${value}`}
                className={cn(
                  'has-focus-visible:ring-ring flex gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                  disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
                  mode === value ? 'border-primary bg-primary/5' : !disabled && 'hover:bg-accent/50',
                )}
              >
                <input type="radio" id={`send-card-mode-${value}`} value={value} disabled={disabled} className="accent-primary mt-0.5 size-4 shrink-0" {...form.register('mode')} data-testid={`send-card-mode-${value}`} />
                <span className="grid gap-1">
                  <span className="font-medium">{t(value === 'stay' ? 'cards.send.forStay' : 'cards.send.forPeriod')}</span>
                  <span className="text-muted-foreground text-xs leading-snug">
                    {value === 'period'
                      ? t('cards.send.forPeriodHint')
                      : stay
                        ? t('cards.send.forStayHint', { guest: stay.guestName || '—', id: stay.id, at: formatDateTime(stay.expectedCheckOutAt, timeZone) })
                        : t('cards.send.noStay')}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        {mode === 'period' && (
          <div className="mt-2 grid gap-x-3 gap-y-1 sm:grid-cols-2">
            <DateTimeFormField control={form.control} name="validFrom" id="send-card-valid-from" label={t('cards.send.validFrom')} error={error('validFrom')} required timeZone={timeZone} />
            <DateTimeFormField control={form.control} name="validUntil" id="send-card-valid-until" label={t('cards.send.validUntil')} error={error('validUntil')} required timeZone={timeZone} />
          </div>
        )}
      </fieldset>

      <FormField id="send-card-note" label={t('cards.send.noteLabel')} hint={t(mode === 'period' ? 'cards.send.noteHintPeriod' : 'cards.send.noteHint')} error={error('note')}>
        <Input {...fieldControlProps('send-card-note', error('note'), true)} autoComplete="off" dir="auto" className="sm:w-96" {...form.register('note')} data-testid="send-card-note" />
      </FormField>
    </FormDialog>
  );
}
