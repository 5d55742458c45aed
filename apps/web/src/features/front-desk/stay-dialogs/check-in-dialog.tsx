import { useEffect, useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Controller, useFieldArray, useWatch } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { z } from 'zod';
import { CHECK_IN_WARNINGS, PRICE_MODES, STAY_LENGTH_UNITS, addStayLength, type TCheckInWarning } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import { moneyInputValue } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import type { RouterInputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { ZGuestForm, checkDateTime, checkMoney, emptyGuest, isLongEnough, take, toGuestInput } from './form-rules';
import { GuestFields } from './guest-fields';
import { PriceModeField, QuoteSummary, usePriceQuote } from './price-fields';
import { newIdempotencyKey, toastUnshownServerError, useHotelSettings, useInvalidateFrontDesk, type StayDto } from './stay-helpers';

type CheckInInput = RouterInputs['stay']['checkIn'];

/** At most this many guests per stay (ZCheckInInput). */
const MAX_GUESTS = 10;
const REMARK_MAX = 500;

function checkInFormSchema(timeZone: string, currency: string) {
  return z
    .object({
      checkInAt: z.string(),
      lengthValue: z.string(),
      lengthUnit: z.enum(STAY_LENGTH_UNITS),
      expectedCheckOutAt: z.string(),
      guests: z.array(ZGuestForm).min(1, { error: 'validation.guestRequired' }).max(MAX_GUESTS, { error: 'validation.tooManyGuests' }),
      breakfast: z.boolean(),
      disableOldCards: z.boolean(),
      idCardUnlock: z.boolean(),
      priceMode: z.enum(PRICE_MODES),
      fixedPrice: z.string(),
      depositAmount: z.string(),
      remark: z.string().max(REMARK_MAX, { error: 'validation.textTooLong' }),
    })
    .superRefine((v, ctx) => {
      const checkIn = take(ctx, ['checkInAt'], checkDateTime(v.checkInAt, timeZone));
      const checkOut = take(ctx, ['expectedCheckOutAt'], checkDateTime(v.expectedCheckOutAt, timeZone));
      if (checkIn && checkOut) {
        if (!isLongEnough(checkIn, checkOut)) ctx.addIssue({ code: 'custom', message: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'] });
        else if (Date.parse(checkOut) <= Date.now()) ctx.addIssue({ code: 'custom', message: 'validation.checkOutInPast', path: ['expectedCheckOutAt'] });
      }
      if (v.priceMode === 'fixed') take(ctx, ['fixedPrice'], checkMoney(v.fixedPrice, currency, 'price'));
      take(ctx, ['depositAmount'], checkMoney(v.depositAmount, currency, 'amount'));
    });
}
type CheckInForm = z.infer<ReturnType<typeof checkInFormSchema>>;

/** Field names of the server's ZCheckInInput errors that this form shows. */
const isFormField = (name: string) =>
  /^(checkInAt|expectedCheckOutAt|fixedPrice|depositAmount|remark|guests\.\d+\.(name|gender|nationality|birthDate|idNumber|mobile|email))$/.test(name);

const ZConfirmationDetails = z.object({
  warnings: z.array(z.enum(CHECK_IN_WARNINGS)).min(1),
  elsewhere: z.array(z.object({ guest: z.string(), room: z.string() })).catch([]),
});

type PendingWarning = { message: string; warnings: TCheckInWarning[]; elsewhere: { guest: string; room: string }[]; input: CheckInInput };

/**
 * Checks guests into a room (spec §3-§5): times, length, guests, options, price and deposit.
 * One idempotency key per opening, so a double click or a retry never makes two stays; a dirty
 * room or a guest already in another room is confirmed, then the same input is sent again.
 */
export function CheckInDialog({
  room,
  open,
  onOpenChange,
  onCheckedIn,
}: {
  room: { id: number; name: string } | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  onCheckedIn?(stay: StayDto): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open && room !== null} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col gap-0 p-0 sm:max-w-2xl" closeLabel={t('common.close')} data-testid="check-in-dialog">
        {room && <CheckInForm key={room.id} room={room} onDone={() => onOpenChange(false)} onCheckedIn={onCheckedIn} />}
      </DialogContent>
    </Dialog>
  );
}

function CheckInForm({ room, onDone, onCheckedIn }: { room: { id: number; name: string }; onDone(): void; onCheckedIn?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  // One key for every attempt of this opening of the dialog (including the confirmed resend).
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [warning, setWarning] = useState<PendingWarning | null>(null);

  const schema = useMemo(() => checkInFormSchema(timeZone, currency), [timeZone, currency]);
  const [defaults] = useState((): CheckInForm => {
    const now = new Date();
    return {
      checkInAt: toInputValue(now, timeZone),
      lengthValue: '1',
      lengthUnit: 'day',
      expectedCheckOutAt: toInputValue(addStayLength(now, 1, 'day', timeZone), timeZone),
      guests: [{ ...emptyGuest }],
      breakfast: false,
      disableOldCards: false,
      idCardUnlock: false,
      priceMode: 'computed',
      fixedPrice: '',
      depositAmount: '',
      remark: '',
    };
  });
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const guests = useFieldArray({ control: form.control, name: 'guests' });
  const [checkInAt, expectedCheckOutAt, priceMode] = useWatch({ control: form.control, name: ['checkInAt', 'expectedCheckOutAt', 'priceMode'] });

  // The live price, while both times are valid and far enough apart.
  const checkInIso = fromInputValue(checkInAt, timeZone);
  const checkOutIso = fromInputValue(expectedCheckOutAt, timeZone);
  const quoteInput = checkInIso && checkOutIso && isLongEnough(checkInIso, checkOutIso) ? { roomId: room.id, checkInAt: checkInIso, expectedCheckOutAt: checkOutIso, kind: 'stay' as const } : null;
  const quote = usePriceQuote(quoteInput, t('frontDesk.stay.quoteNeedsTimes'));

  // The deposit starts as the room's deposit, unless the user has typed one.
  const roomDeposit = quote.kind === 'ready' ? quote.quote.depositAmount : undefined;
  useEffect(() => {
    if (roomDeposit === undefined || form.getFieldState('depositAmount').isDirty) return;
    form.setValue('depositAmount', moneyInputValue(roomDeposit, currency));
  }, [roomDeposit, currency, form]);

  /** The length and its unit fill the expected check-out from the check-in time. */
  const fillCheckOut = () => {
    const { checkInAt: start, lengthValue, lengthUnit } = form.getValues();
    const startIso = fromInputValue(start, timeZone);
    const amount = Number(lengthValue);
    if (!startIso || !Number.isInteger(amount) || amount < 1) return;
    const end = addStayLength(new Date(startIso), amount, lengthUnit, timeZone);
    const { isTouched } = form.getFieldState('expectedCheckOutAt');
    form.setValue('expectedCheckOutAt', toInputValue(end, timeZone), { shouldDirty: true, shouldValidate: isTouched || form.formState.isSubmitted });
  };

  const checkIn = useMutation(
    trpc.stay.checkIn.mutationOptions({
      meta: { handledCodes: ['VALIDATION', 'CONFIRMATION_REQUIRED'] },
      onSuccess: (stay) => {
        setWarning(null);
        toast.success(t(stay.state === 'reserved' ? 'frontDesk.stay.reserveSucceeded' : 'frontDesk.stay.checkInSucceeded', { room: stay.roomName }));
        void invalidate();
        onCheckedIn?.(stay);
        onDone();
      },
      onError: (error, input) => {
        const app = appErrorOf(error);
        if (app?.code === 'CONFIRMATION_REQUIRED') {
          const details = ZConfirmationDetails.safeParse(app.details);
          setWarning({
            message: app.message,
            warnings: details.success ? details.data.warnings : [...CHECK_IN_WARNINGS],
            elsewhere: details.success ? details.data.elsewhere : [],
            input,
          });
          return;
        }
        setWarning(null);
        if (app?.code === 'VALIDATION') {
          form.applyServerErrors(error);
          toastUnshownServerError(error, isFormField);
        }
      },
    }),
  );

  const submit = form.handleSubmit((values) => {
    if (checkIn.isPending) return;
    const start = fromInputValue(values.checkInAt, timeZone);
    const end = fromInputValue(values.expectedCheckOutAt, timeZone);
    const fixed = checkMoney(values.fixedPrice, currency, 'price');
    const deposit = checkMoney(values.depositAmount, currency, 'amount');
    if (!start || !end || 'error' in deposit) return;
    checkIn.mutate({
      roomId: room.id,
      checkInAt: start,
      expectedCheckOutAt: end,
      lengthUnit: values.lengthUnit,
      breakfast: values.breakfast,
      guests: values.guests.map(toGuestInput),
      disableOldCards: values.disableOldCards,
      idCardUnlock: values.idCardUnlock,
      priceMode: values.priceMode,
      fixedPrice: values.priceMode === 'fixed' && 'value' in fixed ? fixed.value : undefined,
      depositAmount: deposit.value,
      remark: values.remark,
      idempotencyKey,
      acknowledge: [],
    });
  });

  const confirmWarning = () => {
    if (!warning || checkIn.isPending) return;
    const acknowledge = [...new Set([...(warning.input.acknowledge ?? []), ...warning.warnings])];
    checkIn.mutate({ ...warning.input, acknowledge });
  };

  const timeError = (name: 'checkInAt' | 'expectedCheckOutAt') => fieldMessage(t, errors[name]?.message);
  const moneyError = (name: 'fixedPrice' | 'depositAmount') => fieldMessage(t, errors[name]?.message);
  const otherWarnings = warning ? warning.warnings.slice(1) : [];

  return (
    <>
      <DialogHeader className="shrink-0 border-b p-4 pe-12 sm:p-6 sm:pe-12">
        <DialogTitle>{t('frontDesk.stay.checkInTitle', { room: room.name })}</DialogTitle>
        <DialogDescription>{t('frontDesk.stay.checkInDescription', { timeZone })}</DialogDescription>
      </DialogHeader>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex min-h-0 flex-1 flex-col" data-testid="check-in-form">
        <div className="min-h-0 flex-1 space-y-6 overflow-y-auto p-4 sm:p-6">
          <section className="grid gap-3 sm:grid-cols-2" aria-labelledby="check-in-stay-heading">
            <h3 id="check-in-stay-heading" className="text-sm font-semibold sm:col-span-2">
              {t('frontDesk.stay.staySection')}
            </h3>
            <FormField id="checkInAt" label={t('frontDesk.stay.checkInAt')} error={timeError('checkInAt')} required>
              <Input
                {...fieldControlProps('checkInAt', timeError('checkInAt'))}
                type="datetime-local"
                aria-required
                {...form.register('checkInAt', { onChange: fillCheckOut, deps: ['expectedCheckOutAt'] })}
              />
            </FormField>
            <div className="grid gap-2">
              <Label htmlFor="lengthValue">{t('frontDesk.stay.length')}</Label>
              <div className="flex gap-2">
                <Input id="lengthValue" type="number" inputMode="numeric" min={1} step={1} className="min-w-0 flex-1" {...form.register('lengthValue', { onChange: fillCheckOut })} />
                <Controller
                  control={form.control}
                  name="lengthUnit"
                  render={({ field }) => (
                    <Select
                      value={field.value}
                      onValueChange={(value) => {
                        field.onChange(value);
                        fillCheckOut();
                      }}
                    >
                      <SelectTrigger id="length-unit" ref={field.ref} className="w-28 shrink-0" aria-label={t('frontDesk.stay.lengthUnit')} data-testid="length-unit">
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {STAY_LENGTH_UNITS.map((unit) => (
                          <SelectItem key={unit} value={unit}>
                            {t(`frontDesk.stay.units.${unit}`)}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                />
              </div>
            </div>
            <FormField
              id="expectedCheckOutAt"
              label={t('frontDesk.stay.expectedCheckOutAt')}
              hint={t('frontDesk.stay.expectedCheckOutHint')}
              error={timeError('expectedCheckOutAt')}
              required
              className="sm:col-span-2"
            >
              <Input
                {...fieldControlProps('expectedCheckOutAt', timeError('expectedCheckOutAt'), true)}
                type="datetime-local"
                aria-required
                className="sm:w-1/2"
                {...form.register('expectedCheckOutAt')}
              />
            </FormField>
          </section>

          <section className="space-y-3" aria-labelledby="check-in-guests-heading">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id="check-in-guests-heading" className="text-sm font-semibold">
                {t('frontDesk.stay.guestsSection', { n: guests.fields.length })}
              </h3>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => guests.append({ ...emptyGuest })}
                disabled={guests.fields.length >= MAX_GUESTS}
                title={guests.fields.length >= MAX_GUESTS ? t('frontDesk.stay.maxGuests', { max: MAX_GUESTS }) : undefined}
                data-testid="add-guest"
              >
                <Plus aria-hidden />
                {t('frontDesk.stay.addGuest')}
              </Button>
            </div>
            {errors.guests?.root?.message || errors.guests?.message ? (
              <p role="alert" className="text-destructive text-sm">
                {fieldMessage(t, errors.guests.root?.message ?? errors.guests.message)}
              </p>
            ) : null}
            {guests.fields.map((field, index) => (
              <div key={field.id} role="group" aria-labelledby={`guest-${index}-heading`} className="grid gap-3 rounded-md border p-3" data-testid={`guest-${index}`}>
                <div className="flex min-h-8 items-center justify-between gap-2">
                  <h4 id={`guest-${index}-heading`} className="text-sm font-medium">
                    {index === 0 ? t('frontDesk.stay.mainGuest') : t('frontDesk.stay.coGuest', { n: index })}
                  </h4>
                  {index > 0 && (
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      className="text-destructive hover:text-destructive"
                      onClick={() => guests.remove(index)}
                      aria-label={t('frontDesk.stay.removeCoGuestRow', { n: index })}
                      data-testid={`remove-guest-${index}`}
                    >
                      <Trash2 aria-hidden />
                      {t('frontDesk.stay.remove')}
                    </Button>
                  )}
                </div>
                <GuestFields control={form.control} register={form.register} name={`guests.${index}`} idPrefix={`guest-${index}`} autoFocus={index === 0} />
              </div>
            ))}
          </section>

          <section className="space-y-3" aria-labelledby="check-in-options-heading">
            <h3 id="check-in-options-heading" className="text-sm font-semibold">
              {t('frontDesk.stay.optionsSection')}
            </h3>
            <div className="grid gap-3 sm:grid-cols-3">
              {(['breakfast', 'disableOldCards', 'idCardUnlock'] as const).map((name) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={name}
                  render={({ field }) => (
                    <div className="flex items-center gap-2">
                      <Checkbox id={name} ref={field.ref} checked={field.value} onCheckedChange={(checked) => field.onChange(checked === true)} onBlur={field.onBlur} data-testid={name} />
                      <Label htmlFor={name} className="font-normal leading-snug">
                        {t(`frontDesk.stay.${name}`)}
                      </Label>
                    </div>
                  )}
                />
              ))}
            </div>
          </section>

          <section className="grid gap-3" aria-labelledby="check-in-price-heading">
            <h3 id="check-in-price-heading" className="text-sm font-semibold">
              {t('frontDesk.stay.priceSection')}
            </h3>
            <PriceModeField idPrefix="priceMode" registration={form.register('priceMode')} />
            <QuoteSummary state={quote} currency={currency} testId="price-quote" label={t(priceMode === 'computed' ? 'frontDesk.stay.quoteTotal' : 'frontDesk.stay.quoteReference')} />
            <div className="grid gap-3 sm:grid-cols-2">
              {priceMode === 'fixed' && (
                <FormField id="fixedPrice" label={t('frontDesk.stay.fixedPrice', { currency })} error={moneyError('fixedPrice')} required>
                  <Input {...fieldControlProps('fixedPrice', moneyError('fixedPrice'))} inputMode="decimal" autoComplete="off" dir="ltr" className="text-start" aria-required {...form.register('fixedPrice')} />
                </FormField>
              )}
              <FormField id="depositAmount" label={t('frontDesk.stay.deposit', { currency })} error={moneyError('depositAmount')}>
                <Input {...fieldControlProps('depositAmount', moneyError('depositAmount'))} inputMode="decimal" autoComplete="off" dir="ltr" className="text-start" {...form.register('depositAmount')} />
              </FormField>
            </div>
            <FormField id="remark" label={t('frontDesk.stay.remark')} error={fieldMessage(t, errors.remark?.message)}>
              <Textarea {...fieldControlProps('remark', errors.remark?.message)} rows={2} maxLength={REMARK_MAX} {...form.register('remark')} />
            </FormField>
          </section>
        </div>
        <DialogFooter className="shrink-0 border-t p-4 sm:px-6">
          <DialogClose asChild>
            <Button type="button" variant="outline">
              {t('common.cancel')}
            </Button>
          </DialogClose>
          <Button type="submit" disabled={checkIn.isPending} data-testid="check-in-submit">
            {checkIn.isPending && <Spinner />}
            {t('frontDesk.stay.checkInSubmit')}
          </Button>
        </DialogFooter>
      </form>

      <ConfirmDialog
        open={warning !== null}
        onOpenChange={(isOpen) => !isOpen && setWarning(null)}
        title={t('frontDesk.stay.warningTitle')}
        description={warning?.message}
        confirmLabel={t('frontDesk.stay.continue')}
        pending={checkIn.isPending}
        onConfirm={confirmWarning}
        data-testid="check-in-warning"
        confirmTestId="check-in-continue"
      >
        {warning && (warning.elsewhere.length > 1 || otherWarnings.length > 0) && (
          <ul className="text-muted-foreground list-disc space-y-1 ps-5 text-sm">
            {warning.warnings.includes('guest_in_other_room') &&
              warning.elsewhere.length > 1 &&
              warning.elsewhere.map((e) => <li key={`${e.guest}-${e.room}`}>{t('frontDesk.stay.guestElsewhere', { guest: e.guest, room: e.room })}</li>)}
            {otherWarnings.map((w) => (
              <li key={w}>{t(`frontDesk.stay.warnings.${w}`, { room: room.name })}</li>
            ))}
          </ul>
        )}
      </ConfirmDialog>
    </>
  );
}
