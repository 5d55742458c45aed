import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { z } from 'zod';
import { PRICE_MODES, daysBetween, localDate } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import { showGuestKeys, toastRewriteCards } from '@/lib/stay-keys';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { checkDateTime, checkMoney, isLongEnough, take } from './form-rules';
import { PriceModeField, QuoteSummary, usePriceQuote } from './price-fields';
import { isActiveStay, primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';
import { invalidateStayKeys } from '../api';
import { ExtendButtons } from './extend-buttons';
import { StayTimeField } from './stay-time-field';
import { addToTime } from './stay-times';

function renewFormSchema(timeZone: string, currency: string, currentCheckOut: string) {
  return z.object({ expectedCheckOutAt: z.string(), priceMode: z.enum(PRICE_MODES), fixedPrice: z.string() }).superRefine((v, ctx) => {
    const end = take(ctx, ['expectedCheckOutAt'], checkDateTime(v.expectedCheckOutAt, timeZone));
    // As the server: later than the current expected check-out, and not in the past.
    if (end && (Date.parse(end) <= Date.parse(currentCheckOut) || Date.parse(end) <= Date.now())) {
      ctx.addIssue({ code: 'custom', message: 'validation.renewAfterCurrent', path: ['expectedCheckOutAt'] });
    }
    if (v.priceMode === 'fixed') take(ctx, ['fixedPrice'], checkMoney(v.fixedPrice, currency, 'price'));
  });
}
type RenewForm = z.input<ReturnType<typeof renewFormSchema>>;

const isFormField = (name: string) => name === 'expectedCheckOutAt' || name === 'fixedPrice';

/**
 * Extends a stay (`renew`): a later expected check-out, at the computed price of the added nights
 * or a set price. Sending it again after a lost answer is safe: a renewal already done makes the
 * same check-out no longer later than the current one, and the server refuses it.
 */
export function RenewDialog({
  stay,
  until,
  open,
  onOpenChange,
  onRenewed,
}: {
  stay: StayDto | null;
  /** The new check-out chosen before the dialog opened (a bar's end dragged on the timeline), an ISO instant. */
  until?: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  onRenewed?(stay: StayDto): void;
}) {
  if (!stay || !open) return null;
  return <RenewForm key={`${stay.id}-${stay.expectedCheckOutAt}`} stay={stay} until={until} onOpenChange={onOpenChange} onRenewed={onRenewed} />;
}

function RenewForm({
  stay,
  until,
  onOpenChange,
  onRenewed,
}: {
  stay: StayDto;
  until?: string;
  onOpenChange(open: boolean): void;
  onRenewed?(stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const queryClient = useQueryClient();
  // The new check-out starts at the current one (or now, for an overdue stay): nothing is added
  // until the clerk says so, and "+1 day" then adds exactly one (pressed twice, two).
  const [base] = useState(() => new Date(Math.max(Date.parse(until ?? stay.expectedCheckOutAt), Date.parse(stay.expectedCheckOutAt), Date.now())));

  const schema = useMemo(() => renewFormSchema(timeZone, currency, stay.expectedCheckOutAt), [timeZone, currency, stay.expectedCheckOutAt]);
  const [defaults] = useState((): RenewForm => ({
    expectedCheckOutAt: toInputValue(base, timeZone),
    priceMode: 'computed',
    fixedPrice: '',
  }));
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const [newCheckOut, priceMode] = useWatch({ control: form.control, name: ['expectedCheckOutAt', 'priceMode'] });

  const newEnd = fromInputValue(newCheckOut, timeZone);
  const quoteInput =
    newEnd && isLongEnough(stay.expectedCheckOutAt, newEnd)
      ? { roomId: stay.roomId, checkInAt: stay.expectedCheckOutAt, expectedCheckOutAt: newEnd, kind: 'renewal' as const }
      : null;
  const quote = usePriceQuote(quoteInput, t('frontDesk.stay.renewQuoteNeedsTime'));
  // The nights the renewal adds (hotel calendar dates), shown with the charge before it is confirmed.
  const nightsAdded = newEnd ? daysBetween(localDate(new Date(stay.expectedCheckOutAt), timeZone), localDate(new Date(newEnd), timeZone)) : 0;

  const renew = useMutation(
    trpc.stay.renew.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (renewed) => {
        // A generated door code cannot be changed on its lock: it was replaced by a new one, which the clerk tells the guest.
        toast.success(
          t('frontDesk.stay.renewSucceeded', { room: renewed.roomName, price: formatMoney(renewed.addedPrice, currency) }),
          renewed.replacedPasswords > 0 ? { description: t('frontDesk.stay.renewCodeChanged'), duration: 15_000 } : undefined,
        );
        // Written cards still end at the old check-out: said where the clerk is, with "write now".
        toastRewriteCards({ ...renewed, holderName: primaryGuestName(renewed) });
        void invalidate();
        // Its passwords, faces and cards run to the new end (a generated code is replaced): the stay card follows them.
        invalidateStayKeys(queryClient);
        onRenewed?.(renewed);
        onOpenChange(false);
        // What the guest holds now (nothing shown when the stay holds no key).
        showGuestKeys({
          stayId: renewed.id,
          roomId: renewed.roomId,
          roomName: renewed.roomName,
          holderName: primaryGuestName(renewed),
          after: 'renewal',
          replacedCodes: renewed.replacedPasswords,
        });
      },
      onError: (error) => {
        if (appErrorOf(error)?.code === 'VALIDATION') form.applyServerErrors(error);
      },
    }),
  );

  const submit = form.handleSubmit((values) => {
    if (renew.isPending) return;
    const end = fromInputValue(values.expectedCheckOutAt, timeZone);
    const fixed = checkMoney(values.fixedPrice, currency, 'price');
    if (!end) return;
    renew.mutate({
      stayId: stay.id,
      expectedCheckOutAt: end,
      priceMode: values.priceMode,
      fixedPrice: values.priceMode === 'fixed' && 'value' in fixed ? fixed.value : undefined,
    });
  });

  const active = isActiveStay(stay.state);
  const endError = fieldMessage(t, errors.expectedCheckOutAt?.message);
  const priceError = fieldMessage(t, errors.fixedPrice?.message);
  const app = appErrorOf(renew.error);
  const shownError = app?.code === 'VALIDATION' && Object.keys(app.fields ?? {}).some(isFormField) ? null : renew.error;

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('frontDesk.stay.renewTitle', { room: stay.roomName })}
      description={t('frontDesk.stay.renewDescription', { guest: primaryGuestName(stay), timeZone })}
      isDirty={form.formState.isDirty}
      isSaving={renew.isPending}
      error={shownError}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('frontDesk.stay.renewSubmit')}
      submitDisabled={!active}
      data-testid="renew-dialog"
      submitTestId="renew-submit"
    >
      <div className="space-y-4" data-testid="renew-form">
        <dl className="grid gap-1 text-sm">
          <dt className="text-muted-foreground">{t('frontDesk.stay.currentCheckOut')}</dt>
          <dd className="font-medium tabular-nums">{formatDateTime(stay.expectedCheckOutAt, timeZone)}</dd>
        </dl>
        {!active && (
          <p role="alert" className="text-destructive text-sm">
            {t('frontDesk.stay.notActive')}
          </p>
        )}
        <StayTimeField
          control={form.control}
          name="expectedCheckOutAt"
          id="renewCheckOutAt"
          label={t('frontDesk.stay.newCheckOut')}
          error={endError}
          required
          timeZone={timeZone}
        />
        <ExtendButtons
          label={t('frontDesk.stay.extendBy')}
          onExtend={(amount, unit) =>
            form.setValue('expectedCheckOutAt', addToTime(form.getValues('expectedCheckOutAt'), base, amount, unit, timeZone), {
              shouldDirty: true,
              shouldValidate: true,
            })
          }
          testIdPrefix="renew"
        />
        {nightsAdded > 0 && (
          <p className="text-sm font-medium" data-testid="renew-nights" data-nights={nightsAdded}>
            {t('frontDesk.stay.renewNights', { count: nightsAdded })}
          </p>
        )}
        <PriceModeField idPrefix="renewPriceMode" registration={form.register('priceMode')} />
        <QuoteSummary
          state={quote}
          currency={currency}
          testId="renew-quote"
          label={t(priceMode === 'computed' ? 'frontDesk.stay.renewQuoteTotal' : 'frontDesk.stay.quoteReference')}
        />
        {priceMode === 'fixed' && (
          <FormField id="renewFixedPrice" label={t('frontDesk.stay.renewQuoteTotal')} error={priceError} required>
            <MoneyInput currency={currency} {...fieldControlProps('renewFixedPrice', priceError)} aria-required {...form.register('fixedPrice')} />
          </FormField>
        )}
      </div>
    </FormDialog>
  );
}
