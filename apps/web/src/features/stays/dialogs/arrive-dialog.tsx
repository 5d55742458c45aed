import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { z } from 'zod';
import { PRICE_MODES } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { Badge } from '@/components/ui/badge';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import type { RouterInputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { checkDateTime, checkMoney, isLongEnough, stayLength, take } from './form-rules';
import { PriceModeField, QuoteSummary, usePriceQuote } from './price-fields';
import { useInvalidateFrontDesk, type StayDto } from './stay-helpers';
import { RoomDirtyNotice } from './room-dirty-notice';
import { StayTimeField } from './stay-time-field';
import { StayWarningDialog, stayWarningOf, type StayWarning } from './stay-warning-dialog';
import { stayQueries } from '../api';

type ArriveInput = RouterInputs['stay']['arrive'];

/**
 * The arrival form: when the guest came (now unless set, never in the future) and when they leave
 * (the reservation's check-out unless moved). A moved check-out is priced again, by the pricing
 * function or at a set price; otherwise the reservation's price stands.
 */
function arriveFormSchema(timeZone: string, currency: string, reservedCheckOut: string) {
  return z.object({ checkInAt: z.string(), expectedCheckOutAt: z.string(), priceMode: z.enum(PRICE_MODES), fixedPrice: z.string() }).superRefine((v, ctx) => {
    const start = take(ctx, ['checkInAt'], checkDateTime(v.checkInAt, timeZone));
    const end = take(ctx, ['expectedCheckOutAt'], checkDateTime(v.expectedCheckOutAt, timeZone));
    if (start && Date.parse(start) > Date.now()) ctx.addIssue({ code: 'custom', message: 'validation.arrivalInFuture', path: ['checkInAt'] });
    if (start && end) {
      if (!isLongEnough(start, end)) ctx.addIssue({ code: 'custom', message: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'] });
      else if (Date.parse(end) <= Date.now()) ctx.addIssue({ code: 'custom', message: 'validation.checkOutInPast', path: ['expectedCheckOutAt'] });
    }
    if (v.expectedCheckOutAt !== reservedCheckOut && v.priceMode === 'fixed') take(ctx, ['fixedPrice'], checkMoney(v.fixedPrice, currency, 'price'));
  });
}
type ArriveForm = z.input<ReturnType<typeof arriveFormSchema>>;

const isFormField = (name: string) => name === 'checkInAt' || name === 'expectedCheckOutAt' || name === 'fixedPrice';

/**
 * The guest of a reservation arrives (`stay.arrive`): the reserved stay becomes in house with its
 * guests, options and price. The check-in time defaults to now, the expected check-out can be
 * moved (with a live quote), a room not yet cleaned is confirmed first. A failure stays in the
 * dialog; sending again after a lost answer is safe, since an arrival already recorded is
 * recognised and reported as done.
 */
export function ArriveDialog({
  stay,
  open,
  onOpenChange,
  onArrived,
}: {
  stay: StayDto | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  onArrived?(stay: StayDto): void;
}) {
  if (!stay || !open) return null;
  return <ArriveForm key={stay.id} stay={stay} onOpenChange={onOpenChange} onArrived={onArrived} />;
}

function ArriveForm({ stay, onOpenChange, onArrived }: { stay: StayDto; onOpenChange(open: boolean): void; onArrived?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateFrontDesk();
  // The stay as it is now, with its bill: the deposit shown is the one its folio holds.
  const current = useQuery(stayQueries.current(stay.id));
  const [warning, setWarning] = useState<(StayWarning & { input: ArriveInput }) | null>(null);

  const reservedCheckOut = toInputValue(stay.expectedCheckOutAt, timeZone);
  const schema = useMemo(() => arriveFormSchema(timeZone, currency, reservedCheckOut), [timeZone, currency, reservedCheckOut]);
  const [defaults] = useState((): ArriveForm => ({
    checkInAt: toInputValue(new Date(), timeZone),
    expectedCheckOutAt: reservedCheckOut,
    priceMode: 'computed',
    fixedPrice: '',
  }));
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const [checkInAt, expectedCheckOutAt, priceMode] = useWatch({ control: form.control, name: ['checkInAt', 'expectedCheckOutAt', 'priceMode'] });

  const checkOutMoved = expectedCheckOutAt !== reservedCheckOut;
  const startIso = fromInputValue(checkInAt, timeZone);
  const endIso = fromInputValue(expectedCheckOutAt, timeZone);
  const periodIsValid = Boolean(startIso && endIso && isLongEnough(startIso, endIso));
  const quote = usePriceQuote(
    checkOutMoved && periodIsValid ? { roomId: stay.roomId, checkInAt: startIso!, expectedCheckOutAt: endIso!, kind: 'stay' } : null,
    t('frontDesk.stay.quoteNeedsTimes'),
  );
  const nights = periodIsValid ? stayLength(new Date(startIso!), new Date(endIso!), 'day', timeZone) : null;

  const done = (arrived: StayDto) => {
    setWarning(null);
    toast.success(t('frontDesk.stay.arriveSucceeded', { room: arrived.roomName }));
    void invalidate();
    onArrived?.(arrived);
    onOpenChange(false);
  };

  const arrive = useMutation(
    trpc.stay.arrive.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: done,
      onError: async (error, input) => {
        const asked = stayWarningOf(error);
        setWarning(asked && { ...asked, input });
        const app = appErrorOf(error);
        if (app?.code === 'VALIDATION') form.applyServerErrors(error);
        // The answer to an earlier attempt was lost but the arrival was recorded: it is done.
        if (app?.code === 'CONFLICT') {
          const now = await queryClient.fetchQuery(stayQueries.current(stay.id)).catch(() => null);
          if (now && (now.state === 'in_house' || now.state === 'expired')) done(now);
        }
      },
    }),
  );

  const submit = form.handleSubmit((values) => {
    if (arrive.isPending) return;
    const moved = values.expectedCheckOutAt !== reservedCheckOut;
    const fixed = checkMoney(values.fixedPrice, currency, 'price');
    arrive.mutate({
      stayId: stay.id,
      // Untouched, the time of arrival is the server's now.
      checkInAt: form.getFieldState('checkInAt').isDirty ? fromInputValue(values.checkInAt, timeZone) : undefined,
      expectedCheckOutAt: moved ? fromInputValue(values.expectedCheckOutAt, timeZone) : undefined,
      priceMode: moved ? values.priceMode : 'computed',
      fixedPrice: moved && values.priceMode === 'fixed' && 'value' in fixed ? fixed.value : undefined,
      acknowledge: [],
    });
  });

  const confirmWarning = () => {
    if (!warning || arrive.isPending) return;
    const { input, warnings } = warning;
    arrive.mutate({ ...input, acknowledge: [...new Set([...(input.acknowledge ?? []), ...warnings])] });
  };

  const app = appErrorOf(arrive.error);
  const shownError = app?.code === 'VALIDATION' && Object.keys(app.fields ?? {}).some(isFormField) ? null : arrive.error;
  const error = (name: 'checkInAt' | 'expectedCheckOutAt' | 'fixedPrice') => fieldMessage(t, errors[name]?.message);

  return (
    <>
      <FormDialog
        open
        onOpenChange={onOpenChange}
        title={t('frontDesk.stay.arriveTitle', { room: stay.roomName })}
        description={t('frontDesk.stay.arriveDescription', { timeZone })}
        isDirty={form.formState.isDirty}
        isSaving={arrive.isPending}
        error={shownError}
        onSubmit={(event) => void submit(event)}
        submitLabel={t('frontDesk.stay.arriveSubmit')}
        size="lg"
        data-testid="arrive-dialog"
        submitTestId="arrive-submit"
      >
        <RoomDirtyNotice roomId={stay.roomId} roomName={stay.roomName} />
        <section className="bg-muted/40 grid gap-3 rounded-md border p-3 text-sm" aria-labelledby="arrive-reservation-heading" data-testid="arrive-reservation">
          <h3 id="arrive-reservation-heading" className="font-semibold">
            {t('frontDesk.stay.reservationSection')}
          </h3>
          <p className="text-muted-foreground">
            {t('frontDesk.stay.reservationPeriod', { from: formatDateTime(stay.checkInAt, timeZone), to: formatDateTime(stay.expectedCheckOutAt, timeZone) })}
          </p>
          <ul className="flex flex-wrap gap-2" aria-label={t('frontDesk.stay.guestsSection', { n: stay.guests.length })} data-testid="arrive-guests">
            {stay.guests.map((guest) => (
              <li key={guest.id} className="bg-background flex items-center gap-1.5 rounded-full border px-2.5 py-0.5">
                {guest.name}
                {guest.isPrimary && <Badge variant="secondary">{t('frontDesk.stay.mainGuest')}</Badge>}
              </li>
            ))}
          </ul>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 sm:grid-cols-3">
            <Fact label={t('frontDesk.stay.priceLabel')}>{formatMoney(stay.priceAmount, currency)}</Fact>
            <Fact label={t('frontDesk.stay.depositLabel')}>
              {/* What the folio holds now (the ledger), not the amount the reservation asked for. */}
              <span data-testid="arrive-deposit">{current.data ? formatMoney(current.data.bill.depositHeld, currency) : current.isError ? '—' : '…'}</span>
            </Fact>
            <Fact label={t('frontDesk.stay.optionsSection')}>{t(stay.breakfast ? 'frontDesk.stay.breakfast' : 'frontDesk.stay.noBreakfast')}</Fact>
            {stay.remark && (
              <Fact label={t('frontDesk.stay.remark')} wide>
                {stay.remark}
              </Fact>
            )}
          </dl>
        </section>

        <section className="grid gap-x-3 gap-y-1 sm:grid-cols-2" aria-label={t('frontDesk.stay.staySection')}>
          <StayTimeField
            control={form.control}
            name="checkInAt"
            id="arriveCheckInAt"
            label={t('frontDesk.stay.arrivedAt')}
            error={error('checkInAt')}
            required
            timeZone={timeZone}
          />
          <StayTimeField
            control={form.control}
            name="expectedCheckOutAt"
            id="arriveCheckOutAt"
            label={t('frontDesk.stay.expectedCheckOutAt')}
            hint={nights === null ? undefined : t('frontDesk.stay.nightCount', { count: nights })}
            error={error('expectedCheckOutAt')}
            required
            timeZone={timeZone}
          />
        </section>

        <section className="grid gap-3" aria-labelledby="arrive-price-heading">
          <h3 id="arrive-price-heading" className="text-sm font-semibold">
            {t('frontDesk.stay.priceSection')}
          </h3>
          {checkOutMoved ? (
            <>
              <PriceModeField idPrefix="arrivePriceMode" registration={form.register('priceMode')} />
              <QuoteSummary
                state={quote}
                currency={currency}
                testId="arrive-quote"
                label={t(priceMode === 'computed' ? 'frontDesk.stay.quoteTotal' : 'frontDesk.stay.quoteReference')}
              />
              {priceMode === 'fixed' && (
                <FormField id="arriveFixedPrice" label={t('frontDesk.stay.quoteTotal')} error={error('fixedPrice')} required>
                  <MoneyInput
                    currency={currency}
                    {...fieldControlProps('arriveFixedPrice', error('fixedPrice'))}
                    aria-required
                    {...form.register('fixedPrice')}
                  />
                </FormField>
              )}
            </>
          ) : (
            <p className="text-muted-foreground text-sm" data-testid="arrive-price-kept">
              {t('frontDesk.stay.reservedPriceKept', { price: formatMoney(stay.priceAmount, currency) })}
            </p>
          )}
        </section>
      </FormDialog>
      <StayWarningDialog warning={warning} roomName={stay.roomName} pending={arrive.isPending} onConfirm={confirmWarning} onCancel={() => setWarning(null)} />
    </>
  );
}

function Fact({ label, wide, children }: { label: string; wide?: boolean; children: React.ReactNode }) {
  return (
    <div className={wide ? 'col-span-full min-w-0' : 'min-w-0'}>
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="font-medium break-words tabular-nums">{children}</dd>
    </div>
  );
}
