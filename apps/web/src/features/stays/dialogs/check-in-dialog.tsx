import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { FormDialog } from '@/components/form-dialog';
import { appErrorOf } from '@/lib/api-errors';
import { useHotelSettings } from '@/lib/hotel-settings';
import { fromInputValue } from '@/lib/hotel-time';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { rememberCheckInCardCount } from '@/lib/room-cards';
import { showGuestKeys } from '@/lib/stay-keys';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { CheckInCards } from './check-in-cards';
import {
  checkInDefaults,
  checkInFormSchema,
  isCheckInField,
  roomCardCount,
  toCheckInInput,
  toStayPasswordInput,
  type CheckInInput,
  type PasswordCreateInput,
} from './check-in-form';
import { CheckInGuests } from './check-in-guests';
import { CheckInOptions, CheckInPrice } from './check-in-extras';
import { CheckInFace } from './check-in-face';
import { CheckInPassword } from './check-in-password';
import { isLongEnough } from './form-rules';
import { usePriceQuote } from './price-fields';
import { newIdempotencyKey } from '@/lib/idempotency';
import { primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';
import { RoomDirtyNotice } from './room-dirty-notice';
import { StayPeriodFields } from './stay-period-fields';
import { CheckInAheadHint } from './check-in-ahead-hint';
import type { HotelClock } from './stay-times';
import { StayWarningDialog, stayWarningOf, type StayWarning } from './stay-warning-dialog';
import { useHotelClock } from './use-hotel-clock';
import { refetchFaces, refetchPasswords } from '../api';

/**
 * Checks guests into a room (spec §3-§5); with a check-in time ahead, a stay that begins by itself
 * then (said under the times: a guest who checks in at the desk is a reservation instead). One
 * idempotency key per opening of the dialog, sent with every attempt: a double click, a retry
 * after a lost answer or the confirmed resend never makes a second stay. A failure is shown inside
 * the dialog with the form kept; a dirty room or a guest already in another room is confirmed,
 * then the same input is sent again. A lock password and the guest's faces asked for are issued for
 * the new stay once the check-in has succeeded (their failure leaves the stay as it is, and says so);
 * then "what the guest holds" (lib/stay-keys.ts) shows them as their locks confirm them, and the
 * room cards asked for are written one by one in the card-writing dialog above it.
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
  // The proposed times come from the hotel's check-in and check-out times: the form opens once they are read.
  const hotel = useHotelClock();
  if (!room || !open || !hotel) return null;
  return <CheckInForm key={room.id} room={room} hotel={hotel} onOpenChange={onOpenChange} onCheckedIn={onCheckedIn} />;
}

function CheckInForm({
  room,
  hotel,
  onOpenChange,
  onCheckedIn,
}: {
  room: { id: number; name: string };
  hotel: HotelClock;
  onOpenChange(open: boolean): void;
  onCheckedIn?(stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const { timeZone, currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  // One key for every attempt of this opening of the dialog (including the confirmed resend).
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [warning, setWarning] = useState<(StayWarning & { input: CheckInInput }) | null>(null);

  const schema = useMemo(() => checkInFormSchema(timeZone, currency), [timeZone, currency]);
  const [defaults] = useState(() => checkInDefaults(hotel));
  const form = useAppForm(schema, defaults);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const canIssuePassword = hasPermission(useUserInfo(), 'credential.manage');
  const [checkInAt, expectedCheckOutAt] = useWatch({ control: form.control, name: ['checkInAt', 'expectedCheckOutAt'] });

  // The live price, while both times are valid and far enough apart.
  const checkInIso = fromInputValue(checkInAt, timeZone);
  const checkOutIso = fromInputValue(expectedCheckOutAt, timeZone);
  const quoteInput =
    checkInIso && checkOutIso && isLongEnough(checkInIso, checkOutIso)
      ? { roomId: room.id, checkInAt: checkInIso, expectedCheckOutAt: checkOutIso, kind: 'stay' as const }
      : null;
  const quote = usePriceQuote(quoteInput, t('frontDesk.stay.quoteNeedsTimes'));

  // The room's deposit is what to take: shown beside the deposit, never filled in (nothing about money is assumed).
  const roomDeposit = quote.kind === 'ready' ? quote.quote.depositAmount : undefined;

  const issuePassword = useMutation(trpc.password.create.mutationOptions({ meta: { showsErrors: true } }));

  /**
   * The password asked for at check-in, issued for the stay just made. The stay stands whatever
   * happens here: a failure is said with its reason and a way to the room's Credentials tab, where
   * the password can be issued again.
   */
  const issueStayPassword = async (input: PasswordCreateInput, stay: StayDto) => {
    try {
      const password = await issuePassword.mutateAsync(input);
      toast.success(t('credentials.issueDialog.succeeded', { holder: password.holderName }));
    } catch (error) {
      toast.error(t('credentials.checkIn.failed', { reason: appErrorOf(error)?.message ?? t('errors.network') }), {
        id: `stay-password-${stay.id}`,
        duration: 20_000,
        action: {
          label: t('credentials.checkIn.openCredentials'),
          onClick: () => void navigate({ to: '/room/$roomId', params: { roomId: stay.roomId }, search: { tab: 'credentials' } }),
        },
      });
    } finally {
      void refetchPasswords(queryClient);
    }
  };

  const authorizeFace = useMutation(trpc.face.authorize.mutationOptions({ meta: { showsErrors: true } }));

  /** The guest's faces ticked at check-in, authorised on the lock for the stay just made (as the password: the stay stands whatever happens). */
  const authorizeStayFaces = async (faceIds: number[], stay: StayDto) => {
    for (const id of faceIds) {
      try {
        const authorization = await authorizeFace.mutateAsync({ id, roomId: stay.roomId, stayId: stay.id });
        toast.success(t('credentials.checkInFace.succeeded', { face: authorization.face.faceId }));
      } catch (error) {
        toast.error(t('credentials.checkInFace.failed', { reason: appErrorOf(error)?.message ?? t('errors.network') }), {
          id: `stay-face-${stay.id}-${id}`,
          duration: 20_000,
          action: {
            label: t('credentials.checkIn.openCredentials'),
            onClick: () => void navigate({ to: '/room/$roomId', params: { roomId: stay.roomId }, search: { tab: 'credentials' } }),
          },
        });
      }
    }
    void refetchFaces(queryClient);
  };

  const checkIn = useMutation(
    trpc.stay.checkIn.mutationOptions({
      // Every failure is shown inside the dialog (field errors next to their fields).
      meta: { showsErrors: true },
      // Awaited: the dialog stays (its button spinning) until the password asked for is issued too.
      onSuccess: async (stay) => {
        setWarning(null);
        toast.success(t(stay.state === 'reserved' ? 'frontDesk.stay.reserveSucceeded' : 'frontDesk.stay.checkInSucceeded', { room: stay.roomName }));
        void invalidate();
        // The form is kept (and unchanged) while the check-in is sent: it says which password to issue.
        const password = toStayPasswordInput(form.getValues(), stay);
        if (password) await issueStayPassword(password, stay);
        const faceIds = form.getValues('authorizeFaceIds');
        if (faceIds.length > 0) await authorizeStayFaces(faceIds, stay);
        // The room cards asked for are written next, one by one, in the card-writing dialog.
        const cards = canIssuePassword ? (roomCardCount(form.getValues('roomCards')) ?? 0) : 0;
        if (canIssuePassword) rememberCheckInCardCount(cards);
        onCheckedIn?.(stay);
        onOpenChange(false);
        // What the guest holds, followed until the locks answer; the cards asked for are written next, above it.
        if (password || faceIds.length > 0 || cards > 0) {
          showGuestKeys({
            stayId: stay.id,
            roomId: stay.roomId,
            roomName: stay.roomName,
            holderName: primaryGuestName(stay),
            after: 'check_in',
            writeCards: cards > 0 ? { count: cards, mode: form.getValues('roomCardsMode') } : undefined,
          });
        }
      },
      onError: (error, input) => {
        const asked = stayWarningOf(error);
        setWarning(asked && { ...asked, input });
        if (appErrorOf(error)?.code === 'VALIDATION') form.applyServerErrors(error);
      },
    }),
  );

  const submit = form.handleSubmit((values) => {
    if (checkIn.isPending) return;
    const input = toCheckInInput(values, { roomId: room.id, timeZone, currency, idempotencyKey });
    if (input) checkIn.mutate(input);
  });

  const confirmWarning = () => {
    if (!warning || checkIn.isPending) return;
    const { input, warnings } = warning;
    checkIn.mutate({ ...input, acknowledge: [...new Set([...(input.acknowledge ?? []), ...warnings])] });
  };

  // A field error the form shows needs no second telling in the dialog's error box.
  const app = appErrorOf(checkIn.error);
  const shownError = app?.code === 'VALIDATION' && Object.keys(app.fields ?? {}).some(isCheckInField) ? null : checkIn.error;

  return (
    <>
      <FormDialog
        open
        onOpenChange={onOpenChange}
        title={t('frontDesk.stay.checkInTitle', { room: room.name })}
        description={t('frontDesk.stay.checkInDescription', { timeZone })}
        isDirty={form.formState.isDirty}
        isSaving={checkIn.isPending}
        error={shownError}
        onSubmit={(event) => void submit(event)}
        submitLabel={t('frontDesk.stay.checkInSubmit')}
        size="lg"
        initialFocus="guest-0-name"
        data-testid="check-in-dialog"
        submitTestId="check-in-submit"
      >
        <RoomDirtyNotice roomId={room.id} roomName={room.name} />
        <section className="space-y-3" aria-labelledby="check-in-stay-heading" data-testid="check-in-form">
          <h3 id="check-in-stay-heading" className="text-sm font-semibold">
            {t('frontDesk.stay.staySection')}
          </h3>
          <StayPeriodFields form={form} hotel={hotel} />
          <CheckInAheadHint checkInAt={checkInIso} timeZone={timeZone} />
        </section>
        <CheckInGuests form={form} timeZone={timeZone} />
        <CheckInOptions form={form} />
        {canIssuePassword && <CheckInPassword form={form} room={room} />}
        {canIssuePassword && <CheckInFace form={form} />}
        {canIssuePassword && <CheckInCards form={form} roomId={room.id} />}
        <CheckInPrice form={form} quote={quote} currency={currency} suggestedDeposit={roomDeposit} />
      </FormDialog>
      <StayWarningDialog warning={warning} roomName={room.name} pending={checkIn.isPending} onConfirm={confirmWarning} onCancel={() => setWarning(null)} />
    </>
  );
}
