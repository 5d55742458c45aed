import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { z } from 'zod';
import { PRICE_MODES, addStayLength } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { checkDateTime, checkMoney, isLongEnough, take } from './form-rules';
import { PriceModeField, QuoteSummary, usePriceQuote } from './price-fields';
import { isActiveStay, primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';
import { StayTimeField } from './stay-time-field';

function renewFormSchema(timeZone: string, currency: string, currentCheckOut: string) {
  return z
    .object({ expectedCheckOutAt: z.string(), priceMode: z.enum(PRICE_MODES), fixedPrice: z.string() })
    .superRefine((v, ctx) => {
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

/** Quick choices: the new check-out this long after the current one. */
const QUICK_EXTENSIONS = [
  { key: 'plusDay', amount: 1, unit: 'day' },
  { key: 'plusWeek', amount: 7, unit: 'day' },
  { key: 'plusMonth', amount: 1, unit: 'month' },
] as const;

/**
 * Extends a stay (`renew`): a later expected check-out, at the computed price of the added nights
 * or a set price. Sending it again after a lost answer is safe: a renewal already done makes the
 * same check-out no longer later than the current one, and the server refuses it.
 */
export function RenewDialog({ stay, open, onOpenChange, onRenewed }: { stay: StayDto | null; open: boolean; onOpenChange(open: boolean): void; onRenewed?(stay: StayDto): void }) {
  if (!stay || !open) return null;
  return <RenewForm key={`${stay.id}-${stay.expectedCheckOutAt}`} stay={stay} onOpenChange={onOpenChange} onRenewed={onRenewed} />;
}

function RenewForm({ stay, onOpenChange, onRenewed }: { stay: StayDto; onOpenChange(open: boolean): void; onRenewed?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const queryClient = useQueryClient();
  // Extensions count from the current expected check-out, or from now for an overdue stay.
  const [base] = useState(() => new Date(Math.max(Date.parse(stay.expectedCheckOutAt), Date.now())));
  const extended = (amount: number, unit: 'day' | 'month') => toInputValue(addStayLength(base, amount, unit, timeZone), timeZone);

  const schema = useMemo(() => renewFormSchema(timeZone, currency, stay.expectedCheckOutAt), [timeZone, currency, stay.expectedCheckOutAt]);
  const [defaults] = useState((): RenewForm => ({ expectedCheckOutAt: extended(1, 'day'), priceMode: 'computed', fixedPrice: '' }));
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const [newCheckOut, priceMode] = useWatch({ control: form.control, name: ['expectedCheckOutAt', 'priceMode'] });

  const newEnd = fromInputValue(newCheckOut, timeZone);
  const quoteInput = newEnd && isLongEnough(stay.expectedCheckOutAt, newEnd) ? { roomId: stay.roomId, checkInAt: stay.expectedCheckOutAt, expectedCheckOutAt: newEnd, kind: 'renewal' as const } : null;
  const quote = usePriceQuote(quoteInput, t('frontDesk.stay.renewQuoteNeedsTime'));

  const renew = useMutation(
    trpc.stay.renew.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (renewed) => {
        // A generated door code cannot be changed on its lock: it was replaced by a new one, which the clerk tells the guest.
        toast.success(
          t('frontDesk.stay.renewSucceeded', { room: renewed.roomName, price: formatMoney(renewed.addedPrice, currency) }),
          renewed.replacedPasswords > 0 ? { description: t('frontDesk.stay.renewCodeChanged'), duration: 15_000 } : undefined,
        );
        void invalidate();
        // Its passwords and faces run to the new end (a generated code is replaced): the stay card follows them.
        void queryClient.invalidateQueries({ queryKey: trpc.password.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.face.pathKey() });
        onRenewed?.(renewed);
        onOpenChange(false);
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
        <StayTimeField control={form.control} name="expectedCheckOutAt" id="renewCheckOutAt" label={t('frontDesk.stay.newCheckOut')} error={endError} required timeZone={timeZone} />
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t('frontDesk.stay.extendBy')}>
          <span className="text-muted-foreground text-sm">{t('frontDesk.stay.extendBy')}</span>
          {QUICK_EXTENSIONS.map((quick) => (
            <Button
              key={quick.key}
              type="button"
              variant="outline"
              size="sm"
              onClick={() => form.setValue('expectedCheckOutAt', extended(quick.amount, quick.unit), { shouldDirty: true, shouldValidate: true })}
              data-testid={`renew-${quick.key}`}
            >
              {t(`frontDesk.stay.${quick.key}`)}
            </Button>
          ))}
        </div>
        <PriceModeField idPrefix="renewPriceMode" registration={form.register('priceMode')} />
        <QuoteSummary state={quote} currency={currency} testId="renew-quote" label={t(priceMode === 'computed' ? 'frontDesk.stay.renewQuoteTotal' : 'frontDesk.stay.quoteReference')} />
        {priceMode === 'fixed' && (
          <FormField id="renewFixedPrice" label={t('frontDesk.stay.renewQuoteTotal')} error={priceError} required>
            <MoneyInput currency={currency} {...fieldControlProps('renewFixedPrice', priceError)} aria-required {...form.register('fixedPrice')} />
          </FormField>
        )}
      </div>
    </FormDialog>
  );
}
