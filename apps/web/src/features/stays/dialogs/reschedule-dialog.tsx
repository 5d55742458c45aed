import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { TReschedulePricing } from '@console/shared';
import { toast } from '@/lib/toast';
import { FormDialog } from '@/components/form-dialog';
import { RoomPicker, type PickedRoom } from '@/components/room-picker';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue, toInputValue } from '@/lib/hotel-time';
import { formatMoney } from '@/lib/money';
import { showGuestKeys, toastRewriteCards } from '@/lib/stay-keys';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { cn } from '@/lib/utils';
import { invalidateStayKeys, stayQueries } from '../api';
import { checkDateTime, isLongEnough, take } from './form-rules';
import { isActiveStay, primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';
import { ReschedulePricing } from './reschedule-pricing';
import { StayTimeField } from './stay-time-field';

type Preview = RouterOutputs['stay']['reschedulePreview'];

function rescheduleFormSchema(timeZone: string, reserved: boolean) {
  return z.object({ checkInAt: z.string(), expectedCheckOutAt: z.string() }).superRefine((v, ctx) => {
    const start = reserved ? take(ctx, ['checkInAt'], checkDateTime(v.checkInAt, timeZone)) : null;
    const end = take(ctx, ['expectedCheckOutAt'], checkDateTime(v.expectedCheckOutAt, timeZone));
    if (start && end && !isLongEnough(start, end)) ctx.addIssue({ code: 'custom', message: 'validation.checkOutAfterCheckIn', path: ['expectedCheckOutAt'] });
  });
}
type RescheduleForm = z.input<ReturnType<typeof rescheduleFormSchema>>;

/**
 * "Change dates" (`stay.reschedule`, docs/timeline.md): a reservation to other dates and, if
 * chosen, another room; a stay in progress to a later or an earlier check-out. What the change
 * does is asked of the server as the fields change (`stay.reschedulePreview`: the nights and the
 * price before and after, the nights added or taken off, the bill's room charge) and shown before
 * the clerk confirms; a room taken is said there, naming the booking in the way. The timeline's
 * drags open it with the dates (and room) dropped on; the room page opens it empty.
 */
export function RescheduleDialog({
  stay,
  from,
  until,
  target,
  open,
  onOpenChange,
  onDone,
}: {
  stay: StayDto | null;
  /** The new arrival chosen before the dialog opened (a reservation dragged on the timeline), an ISO instant. */
  from?: string;
  /** The new check-out chosen before the dialog opened, an ISO instant. */
  until?: string;
  /** The room chosen before the dialog opened (a reservation dragged to another row). */
  target?: PickedRoom;
  open: boolean;
  onOpenChange(open: boolean): void;
  onDone?(stay: StayDto): void;
}) {
  if (!stay || !open) return null;
  return (
    <RescheduleForm
      key={`${stay.id}-${stay.expectedCheckOutAt}`}
      stay={stay}
      from={from}
      until={until}
      initialTarget={target}
      onOpenChange={onOpenChange}
      onDone={onDone}
    />
  );
}

function RescheduleForm({
  stay,
  from,
  until,
  initialTarget,
  onOpenChange,
  onDone,
}: {
  stay: StayDto;
  from?: string;
  until?: string;
  initialTarget?: PickedRoom;
  onOpenChange(open: boolean): void;
  onDone?(stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const queryClient = useQueryClient();
  const reserved = stay.state === 'reserved';
  const [target, setTarget] = useState<PickedRoom | null>(initialTarget && initialTarget.id !== stay.roomId ? initialTarget : null);
  const [defaults] = useState((): RescheduleForm => ({
    checkInAt: toInputValue(new Date(from ?? stay.checkInAt), timeZone),
    expectedCheckOutAt: toInputValue(new Date(until ?? stay.expectedCheckOutAt), timeZone),
  }));
  const form = useAppForm(rescheduleFormSchema(timeZone, reserved), defaults);
  const { errors } = form.formState;
  const [startValue, endValue] = useWatch({ control: form.control, name: ['checkInAt', 'expectedCheckOutAt'] });
  const start = reserved ? fromInputValue(startValue, timeZone) : stay.checkInAt;
  // A reservation keeps its booked rate unless the clerk prices it again (issue 36).
  const [pricing, setPricing] = useState<TReschedulePricing>('keep');
  const end = fromInputValue(endValue, timeZone);
  const input =
    start && end && isLongEnough(start, end)
      ? { stayId: stay.id, expectedCheckOutAt: end, ...(reserved ? { checkInAt: start, pricing, ...(target ? { roomId: target.id } : {}) } : {}) }
      : null;
  const preview = useQuery(stayQueries.reschedulePreview(input));

  const apply = useMutation(
    trpc.stay.reschedule.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        const difference = done.priceDifference;
        toast.success(t('frontDesk.stay.reschedule.succeeded', { room: done.roomName }), {
          description:
            difference > 0
              ? t('frontDesk.stay.differenceMore', { price: formatMoney(difference, currency) })
              : difference < 0
                ? t('frontDesk.stay.differenceLess', { price: formatMoney(-difference, currency) })
                : t('frontDesk.stay.differenceNone'),
        });
        toastRewriteCards({ ...done, holderName: primaryGuestName(done) });
        void invalidate();
        invalidateStayKeys(queryClient);
        onDone?.(done);
        onOpenChange(false);
        if (done.credentialMoves.length > 0) {
          showGuestKeys({
            stayId: done.id,
            roomId: done.roomId,
            roomName: done.roomName,
            holderName: primaryGuestName(done),
            after: 'room_change',
            fromRoomName: stay.roomName,
            moves: done.credentialMoves,
          });
        }
      },
      onError: (error) => {
        if (appErrorOf(error)?.code === 'VALIDATION') form.applyServerErrors(error);
      },
    }),
  );

  const submit = form.handleSubmit(() => {
    if (apply.isPending || !input || !preview.data || preview.data.kind === 'unchanged') return;
    apply.mutate(input);
  });

  const active = isActiveStay(stay.state);
  const ready = preview.data && !preview.isError && preview.data.kind !== 'unchanged' && input !== null;
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('frontDesk.stay.reschedule.title', { room: stay.roomName })}
      description={t(reserved ? 'frontDesk.stay.reschedule.descriptionReserved' : 'frontDesk.stay.reschedule.descriptionInHouse', {
        guest: primaryGuestName(stay),
        timeZone,
      })}
      isDirty={form.formState.isDirty || target !== null}
      isSaving={apply.isPending}
      error={apply.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('frontDesk.stay.reschedule.submit')}
      submitDisabled={!active || !ready}
      data-testid="reschedule-dialog"
      submitTestId="reschedule-submit"
    >
      <div className="space-y-4" data-testid="reschedule-form">
        {!active && (
          <p role="alert" className="text-destructive text-sm">
            {t('frontDesk.stay.notActive')}
          </p>
        )}
        {reserved ? (
          <StayTimeField
            control={form.control}
            name="checkInAt"
            id="rescheduleCheckInAt"
            label={t('frontDesk.stay.reschedule.arrival')}
            error={fieldMessage(t, errors.checkInAt?.message)}
            required
            timeZone={timeZone}
          />
        ) : (
          <dl className="grid gap-1 text-sm">
            <dt className="text-muted-foreground">{t('frontDesk.stay.reschedule.arrival')}</dt>
            <dd className="font-medium tabular-nums">{formatDateTime(stay.checkInAt, timeZone)}</dd>
          </dl>
        )}
        <StayTimeField
          control={form.control}
          name="expectedCheckOutAt"
          id="rescheduleCheckOutAt"
          label={t('frontDesk.stay.reschedule.departure')}
          error={fieldMessage(t, errors.expectedCheckOutAt?.message)}
          required
          timeZone={timeZone}
        />
        {reserved && (
          <div className="grid gap-2">
            <Label htmlFor="reschedule-room">{t('frontDesk.stay.reschedule.room')}</Label>
            <RoomPicker
              id="reschedule-room"
              value={target ? [target] : []}
              onChange={(rooms) => setTarget(rooms[0] && rooms[0].id !== stay.roomId ? rooms[0] : null)}
              excludeIds={[stay.roomId]}
              placeholder={t('frontDesk.stay.reschedule.sameRoom', { room: stay.roomName })}
              data-testid="reschedule-room"
            />
          </div>
        )}
        {input && preview.data?.prices && preview.data.prices.kept !== preview.data.prices.quoted && (
          <ReschedulePricing prices={preview.data.prices} currency={currency} value={pricing} onChange={setPricing} />
        )}
        <PreviewPanel state={preview} input={input !== null} currency={currency} />
      </div>
    </FormDialog>
  );
}

/** The nights and price before and after, the nights added or taken off, and the bill's room charge. */
function PreviewPanel({
  state,
  input,
  currency,
}: {
  state: { data?: Preview; isError: boolean; isFetching: boolean; error: unknown };
  input: boolean;
  currency: string;
}) {
  const { t } = useTranslation();
  if (!input) return null;
  if (state.isError) {
    return (
      <p role="alert" className="text-destructive text-sm" data-testid="reschedule-refused">
        {appErrorOf(state.error)?.message ?? t('frontDesk.stay.quoteFailed')}
      </p>
    );
  }
  const p = state.data;
  if (!p) return <Spinner className="text-muted-foreground" />;
  if (p.kind === 'unchanged') return <p className="text-muted-foreground text-sm">{t('frontDesk.stay.reschedule.unchanged')}</p>;
  const money = (v: number) => formatMoney(v, currency);
  const rows: [string, string, string, string?][] = [
    [t('frontDesk.stay.reschedule.nights'), String(p.before.nights), String(p.after.nights), 'nights'],
    [t('frontDesk.stay.reschedule.price'), money(p.before.price), money(p.after.price), 'price'],
  ];
  if (p.before.roomId !== p.after.roomId) rows.unshift([t('frontDesk.stay.reschedule.room'), p.before.roomName, p.after.roomName]);
  if (p.roomCharge) rows.push([t('frontDesk.stay.reschedule.roomCharge'), money(p.roomCharge.posted), money(p.roomCharge.after), 'charge']);
  return (
    <div
      className={cn('bg-muted/40 grid gap-1.5 rounded-md border p-3 text-sm', state.isFetching && 'opacity-70')}
      data-testid="reschedule-preview"
      data-kind={p.kind}
      data-difference={p.priceDifference}
      data-nights={p.after.nights}
      aria-live="polite"
    >
      <div className="text-muted-foreground grid grid-cols-[1fr_auto_auto] gap-x-4">
        <span />
        <span>{t('frontDesk.stay.reschedule.before')}</span>
        <span>{t('frontDesk.stay.reschedule.after')}</span>
      </div>
      {rows.map(([label, before, after, id]) => (
        <div key={label} className="grid grid-cols-[1fr_auto_auto] gap-x-4 tabular-nums" data-testid={id ? `reschedule-${id}` : undefined}>
          <span className="text-muted-foreground">{label}</span>
          <span>{before}</span>
          <span className="font-medium">{after}</span>
        </div>
      ))}
      <p className="font-medium" data-testid="reschedule-difference">
        {p.priceDifference > 0
          ? t('frontDesk.stay.differenceMore', { price: money(p.priceDifference) })
          : p.priceDifference < 0
            ? t('frontDesk.stay.differenceLess', { price: money(-p.priceDifference) })
            : t('frontDesk.stay.differenceNone')}
      </p>
      {p.kind === 'shorten' && p.changedNights.length > 0 && (
        <p className="text-muted-foreground">{t('frontDesk.stay.reschedule.shortenNote', { count: p.changedNights.length })}</p>
      )}
      {p.kind === 'extend' && p.changedNights.length > 0 && (
        <p className="text-muted-foreground">{t('frontDesk.stay.renewNights', { count: p.changedNights.length })}</p>
      )}
    </div>
  );
}
