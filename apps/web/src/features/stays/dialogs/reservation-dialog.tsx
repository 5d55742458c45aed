import { useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { RoomGroupPicker } from '@/components/room-group-select';
import { RoomPicker } from '@/components/room-picker';
import { FormField, fieldControlProps, fieldErrorId } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatShortDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue } from '@/lib/hotel-time';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { useLaterTexts } from '@/lib/use-later-texts';
import { DepositFields } from './deposit-fields';
import { isLongEnough } from './form-rules';
import { GuestFields } from './guest-fields';
import { PriceModeField, QuoteSummary, usePriceQuote } from './price-fields';
import {
  RESERVATION_TARGETS,
  departureAfter,
  nightsBetween,
  reservationDefaults,
  reservationField,
  reservationFormSchema,
  toReservationInput,
} from './reservation-form';
import { newIdempotencyKey } from '@/lib/idempotency';
import { useInvalidateFrontDesk, type StayDto } from './stay-helpers';
import { StayTimeField } from './stay-time-field';
import { stayQueries } from '../api';
import type { ReservationDates } from '../stay-action-types';

/** The hotel's default times when its information has not come yet. */
const DEFAULT_TIMES = { checkInTime: '14:00', checkOutTime: '12:00' };

/**
 * Takes a reservation at the desk (`stay.reserve`, issue 17 §4): a room, or any room of a group
 * that the server finds free for the dates; arrival and departure in the hotel's zone; the main
 * guest; the price (the live quote of the room, or a set price); the deposit and how it was paid;
 * a note. One idempotency key per opening of the dialog: a double click or a retry takes one
 * reservation. A refusal (the room taken for those dates, no room of the group free) is shown in
 * the dialog with the form kept.
 */
export function ReservationDialog({
  room,
  dates,
  open,
  onOpenChange,
  onReserved,
}: {
  room: { id: number; name: string } | null;
  /** The arrival day and nights chosen before the dialog opened (an empty range of the timeline). */
  dates?: ReservationDates;
  open: boolean;
  onOpenChange(open: boolean): void;
  onReserved?(stay: StayDto): void;
}) {
  const hotel = useQuery(stayQueries.reservationTimes(open));
  // Its texts are in the later part (lib/text-parts.ts), almost always there by the time it opens.
  const hasTexts = useLaterTexts('reservations.submit');
  if (!open || !hasTexts) return null;
  // The form starts from the hotel's default times: it waits for them a moment (or goes on without).
  if (hotel.isLoading) return null;
  const times = hotel.data ? { checkInTime: hotel.data.checkInTime, checkOutTime: hotel.data.checkOutTime } : DEFAULT_TIMES;
  return <ReservationForm key={room?.id ?? 'any'} room={room} dates={dates} times={times} onOpenChange={onOpenChange} onReserved={onReserved} />;
}

function ReservationForm({
  room,
  dates,
  times,
  onOpenChange,
  onReserved,
}: {
  room: { id: number; name: string } | null;
  dates?: ReservationDates;
  times: { checkInTime: string; checkOutTime: string };
  onOpenChange(open: boolean): void;
  onReserved?(stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const schema = useMemo(() => reservationFormSchema(timeZone, currency), [timeZone, currency]);
  const [defaults] = useState(() => reservationDefaults(timeZone, times, room, dates));
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const [target, picked, checkInAt, expectedCheckOutAt, priceMode] = useWatch({
    control: form.control,
    name: ['target', 'room', 'checkInAt', 'expectedCheckOutAt', 'priceMode'],
  });

  // The live price of the room chosen, for those dates (a group's room is priced once assigned).
  const checkInIso = fromInputValue(checkInAt, timeZone);
  const checkOutIso = fromInputValue(expectedCheckOutAt, timeZone);
  const quoteInput =
    target === 'room' && picked && checkInIso && checkOutIso && isLongEnough(checkInIso, checkOutIso)
      ? { roomId: picked.id, checkInAt: checkInIso, expectedCheckOutAt: checkOutIso, kind: 'stay' as const }
      : null;
  const quote = usePriceQuote(quoteInput, t(target === 'group' ? 'reservations.groupPriced' : 'reservations.quoteNeedsRoom'));

  // The room's deposit is what to take: shown beside the deposit, never filled in (nothing about money is assumed).
  const roomDeposit = quote.kind === 'ready' ? quote.quote.depositAmount : undefined;

  /** The arrival or the nights changed: the departure follows (same time of day). */
  const fillDeparture = () => {
    const v = form.getValues();
    const next = departureAfter(v.checkInAt, v.nights, v.expectedCheckOutAt, times.checkOutTime);
    if (next) form.setValue('expectedCheckOutAt', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  };
  /** The departure changed by hand: the nights follow it. */
  const followDeparture = (value: string) => {
    const nights = nightsBetween(form.getValues('checkInAt'), value);
    if (nights !== null) form.setValue('nights', String(nights), { shouldDirty: true });
  };

  const reserve = useMutation(
    trpc.stay.reserve.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (stay) => {
        toast.success(
          t('reservations.created', {
            room: stay.roomName,
            from: formatShortDateTime(stay.checkInAt, timeZone),
            to: formatShortDateTime(stay.expectedCheckOutAt, timeZone),
          }),
        );
        void invalidate();
        onReserved?.(stay);
        onOpenChange(false);
      },
      onError: (error) => {
        const app = appErrorOf(error);
        if (app?.code !== 'VALIDATION' || !app.fields) return;
        for (const [name, message] of Object.entries(app.fields)) {
          const field = reservationField(name);
          if (field) form.setError(field as 'room', { type: 'server', message });
        }
      },
    }),
  );

  const submit = form.handleSubmit((values) => {
    if (reserve.isPending) return;
    const input = toReservationInput(values, { timeZone, currency, idempotencyKey });
    if (input) reserve.mutate(input);
  });

  // A field error the form shows needs no second telling in the dialog's error box.
  const app = appErrorOf(reserve.error);
  const shownError = app?.code === 'VALIDATION' && Object.keys(app.fields ?? {}).some((f) => reservationField(f) !== null) ? null : reserve.error;
  const error = (name: 'room' | 'groupId' | 'checkInAt' | 'expectedCheckOutAt' | 'fixedPrice' | 'depositAmount' | 'depositMethod' | 'remark') =>
    fieldMessage(t, errors[name]?.message);

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={room ? t('reservations.titleRoom', { room: room.name }) : t('reservations.title')}
      description={t('reservations.description', { timeZone })}
      isDirty={form.formState.isDirty}
      isSaving={reserve.isPending}
      error={shownError}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('reservations.submit')}
      size="lg"
      initialFocus={room ? 'reservation-guest-0-name' : 'reservation-room'}
      data-testid="reservation-dialog"
      submitTestId="reservation-submit"
    >
      <section className="space-y-3" aria-labelledby="reservation-room-heading">
        <h3 id="reservation-room-heading" className="text-sm font-semibold">
          {t('reservations.roomSection')}
        </h3>
        <fieldset className="flex flex-wrap gap-x-6 gap-y-2">
          <legend className="sr-only">{t('reservations.roomSection')}</legend>
          {RESERVATION_TARGETS.map((value) => (
            <div key={value} className="flex items-center gap-2">
              <input
                type="radio"
                id={`reservation-target-${value}`}
                value={value}
                className="accent-primary size-4"
                data-testid={`reservation-target-${value}`}
                {...form.register('target')}
              />
              <Label htmlFor={`reservation-target-${value}`} className="font-normal">
                {t(`reservations.targets.${value}`)}
              </Label>
            </div>
          ))}
        </fieldset>
        {target === 'room' ? (
          <FormField id="reservation-room" label={t('reservations.room')} error={error('room')} required>
            <Controller
              control={form.control}
              name="room"
              render={({ field }) => (
                <RoomPicker
                  id="reservation-room"
                  value={field.value ? [field.value] : []}
                  onChange={(rooms) => field.onChange(rooms[0] ?? null)}
                  placeholder={t('reservations.roomPlaceholder')}
                  invalid={Boolean(error('room'))}
                  describedBy={error('room') ? fieldErrorId('reservation-room') : undefined}
                  data-testid="reservation-room"
                />
              )}
            />
          </FormField>
        ) : (
          <FormField id="reservation-group" label={t('reservations.group')} hint={t('reservations.groupHint')} error={error('groupId')} required>
            <Controller
              control={form.control}
              name="groupId"
              render={({ field }) => (
                <RoomGroupPicker
                  id="reservation-group"
                  value={field.value}
                  onChange={field.onChange}
                  placeholder={t('reservations.groupPlaceholder')}
                  invalid={Boolean(error('groupId'))}
                  data-testid="reservation-group"
                />
              )}
            />
          </FormField>
        )}
      </section>

      <section className="space-y-3" aria-labelledby="reservation-period-heading">
        <h3 id="reservation-period-heading" className="text-sm font-semibold">
          {t('reservations.periodSection')}
        </h3>
        <div className="grid gap-x-3 gap-y-1 sm:grid-cols-[1fr_7rem_1fr]">
          <StayTimeField
            control={form.control}
            name="checkInAt"
            id="reservation-checkInAt"
            label={t('reservations.arrival')}
            error={error('checkInAt')}
            required
            timeZone={timeZone}
            onValueChange={fillDeparture}
          />
          <FormField id="reservation-nights" label={t('reservations.nights')}>
            <Input
              {...fieldControlProps('reservation-nights')}
              type="number"
              inputMode="numeric"
              min={1}
              max={366}
              step={1}
              data-testid="reservation-nights"
              {...form.register('nights', { onChange: fillDeparture })}
            />
          </FormField>
          <StayTimeField
            control={form.control}
            name="expectedCheckOutAt"
            id="reservation-expectedCheckOutAt"
            label={t('reservations.departure')}
            error={error('expectedCheckOutAt')}
            required
            timeZone={timeZone}
            onValueChange={followDeparture}
          />
        </div>
      </section>

      <section className="space-y-3" aria-labelledby="reservation-guest-heading">
        <h3 id="reservation-guest-heading" className="text-sm font-semibold">
          {t('reservations.guestSection')}
        </h3>
        <div className="rounded-md border p-3" data-testid="reservation-guest">
          <GuestFields
            control={form.control}
            register={form.register}
            name="guests.0"
            idPrefix="reservation-guest-0"
            autoFocus={room !== null}
            timeZone={timeZone}
          />
        </div>
      </section>

      <section className="grid gap-3" aria-labelledby="reservation-money-heading">
        <h3 id="reservation-money-heading" className="text-sm font-semibold">
          {t('reservations.moneySection')}
        </h3>
        <PriceModeField idPrefix="reservation-priceMode" registration={form.register('priceMode')} />
        <QuoteSummary
          state={quote}
          currency={currency}
          testId="reservation-quote"
          label={t(priceMode === 'computed' ? 'frontDesk.stay.quoteTotal' : 'frontDesk.stay.quoteReference')}
        />
        <div className="grid gap-x-3 gap-y-1 sm:grid-cols-2">
          {priceMode === 'fixed' && (
            <FormField id="reservation-fixedPrice" label={t('frontDesk.stay.quoteTotal')} error={error('fixedPrice')} required>
              <MoneyInput
                currency={currency}
                {...fieldControlProps('reservation-fixedPrice', error('fixedPrice'))}
                aria-required
                {...form.register('fixedPrice')}
                data-testid="reservation-fixedPrice"
              />
            </FormField>
          )}
          <DepositFields
            idPrefix="reservation-"
            currency={currency}
            suggested={roomDeposit}
            amount={form.register('depositAmount')}
            method={form.register('depositMethod')}
            amountError={error('depositAmount')}
            methodError={error('depositMethod')}
          />
        </div>
        <FormField id="reservation-remark" label={t('reservations.note')} error={error('remark')}>
          <Textarea
            {...fieldControlProps('reservation-remark', error('remark'))}
            rows={2}
            maxLength={LIMITS.remarkMaxLength}
            {...form.register('remark')}
            data-testid="reservation-remark"
          />
        </FormField>
      </section>
    </FormDialog>
  );
}
