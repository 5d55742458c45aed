import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UPGRADE_CHOICES, ZChangeRoomInput, type TUpgradeChoice } from '@console/shared';
import { toast } from '@/lib/toast';
import { FormDialog } from '@/components/form-dialog';
import { RadioChoices } from '@/components/radio-choices';
import { RoomPicker, type PickedRoom } from '@/components/room-picker';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useHotelSettings } from '@/lib/hotel-settings';
import { formatMoney } from '@/lib/money';
import { showGuestKeys } from '@/lib/stay-keys';
import { useLaterTexts } from '@/lib/use-later-texts';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { cn } from '@/lib/utils';
import { invalidateStayKeys, stayQueries } from '../api';
import { isLongEnough } from './form-rules';
import { usePriceQuote, type QuoteState } from './price-fields';
import { isActiveStay, primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';

/**
 * Moves a stay to a vacant room (`exchangeHouses`), chosen with the searchable room picker that
 * pages on the server (any room of any hotel, not the first 100). The price changes by the
 * difference between the two rooms over the remaining nights, shown here before the move as two
 * quotes. Sending it again after a lost answer is safe: a stay already moved is no longer active.
 * The guest's keys follow in the same action (issue 17 §2): codes, faces and cards sent over the
 * air go to the new room's lock, cards written for the old room end; right after the move, "what
 * the guest holds" (lib/stay-keys.ts) shows each delivery as the locks confirm it, says what could
 * not move and why, and offers to write the new room's cards at once.
 */
export function ChangeRoomDialog({
  stay,
  target,
  open,
  onOpenChange,
  onChanged,
}: {
  stay: StayDto | null;
  /** The room chosen before the dialog opened (a bar dragged to it on the timeline). */
  target?: PickedRoom;
  open: boolean;
  onOpenChange(open: boolean): void;
  onChanged?(stay: StayDto): void;
}) {
  if (!stay || !open) return null;
  return <ChangeRoomForm key={stay.id} stay={stay} initialTarget={target} onOpenChange={onOpenChange} onChanged={onChanged} />;
}

function ChangeRoomForm({
  stay,
  initialTarget,
  onOpenChange,
  onChanged,
}: {
  stay: StayDto;
  initialTarget?: PickedRoom;
  onOpenChange(open: boolean): void;
  onChanged?(stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const { currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  // The form holds the ids the shared rule checks; the room picked, with its name, is shown.
  const form = useAppForm(ZChangeRoomInput, { stayId: stay.id, targetRoomId: initialTarget?.id ?? '' });
  const [target, setTarget] = useState<PickedRoom | null>(initialTarget ?? null);

  // The remaining part of the stay: from now (from its start, for a reservation) to the expected check-out.
  const [from] = useState(() => (stay.state === 'reserved' ? stay.checkInAt : new Date().toISOString()));
  const end = stay.expectedCheckOutAt;
  const tooLate = !isLongEnough(from, end);
  const period = { checkInAt: from, expectedCheckOutAt: end, kind: 'stay' as const };
  const currentQuote = usePriceQuote(tooLate ? null : { roomId: stay.roomId, ...period }, t('frontDesk.stay.changeRoomTooLate'));
  const targetQuote = usePriceQuote(tooLate || !target ? null : { roomId: target.id, ...period }, t('frontDesk.stay.chooseRoom'));
  const queryClient = useQueryClient();
  // A dearer room: the clerk says whether the difference is charged or the upgrade is on the house (issue 36).
  const [upgrade, setUpgrade] = useState<TUpgradeChoice | null>(null);
  const difference = currentQuote.kind === 'ready' && targetQuote.kind === 'ready' ? targetQuote.quote.total - currentQuote.quote.total : null;
  const dearer = difference !== null && difference > 0;
  const upgradeGiven = dearer && upgrade === 'complimentary';

  const change = useMutation(
    trpc.stay.changeRoom.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (moved) => {
        const difference = moved.priceDifference;
        toast.success(t('frontDesk.stay.changeRoomSucceeded', { from: stay.roomName, room: moved.roomName }), {
          description: upgradeGiven
            ? t('frontDesk.stay.upgradeGiven')
            : difference > 0
              ? t('frontDesk.stay.differenceMore', { price: formatMoney(difference, currency) })
              : difference < 0
                ? t('frontDesk.stay.differenceLess', { price: formatMoney(-difference, currency) })
                : t('frontDesk.stay.differenceNone'),
        });
        void invalidate();
        // The keys moved with the guest: both rooms' credential lists follow their locks.
        invalidateStayKeys(queryClient);
        onChanged?.(moved);
        onOpenChange(false);
        if (moved.credentialMoves.length > 0) {
          showGuestKeys({
            stayId: moved.id,
            roomId: moved.roomId,
            roomName: moved.roomName,
            holderName: primaryGuestName(moved),
            after: 'room_change',
            fromRoomName: stay.roomName,
            moves: moved.credentialMoves,
          });
        }
      },
    }),
  );

  const active = isActiveStay(stay.state);
  // Both prices known first (or one failed: the server then decides), so a dearer room is never moved unasked.
  const priced = difference !== null || currentQuote.kind === 'error' || targetQuote.kind === 'error';
  const canSubmit = active && !tooLate && target !== null && priced && (!dearer || upgrade !== null);

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('frontDesk.stay.changeRoomTitle', { room: stay.roomName })}
      description={t('frontDesk.stay.changeRoomDescription', { room: stay.roomName, guest: primaryGuestName(stay) })}
      isDirty={target !== null}
      isSaving={change.isPending}
      error={change.error}
      onSubmit={(event) =>
        void form.handleSubmit((input) => {
          if (canSubmit && !change.isPending) change.mutate({ ...input, ...(dearer && upgrade ? { upgrade } : {}) });
        })(event)
      }
      submitLabel={target ? t('frontDesk.stay.changeRoomTo', { room: target.name }) : t('frontDesk.stay.changeRoomSubmit')}
      submitDisabled={!canSubmit}
      data-testid="change-room-dialog"
      submitTestId="change-room-submit"
    >
      <div className="space-y-4" data-testid="change-room-form">
        {!active && (
          <p role="alert" className="text-destructive text-sm">
            {t('frontDesk.stay.notActive')}
          </p>
        )}
        {active && tooLate && (
          <p role="alert" className="text-destructive text-sm">
            {t('frontDesk.stay.changeRoomTooLate')}
          </p>
        )}
        <div className="grid gap-2">
          <Label htmlFor="change-room-target">{t('frontDesk.stay.newRoom')}</Label>
          <RoomPicker
            id="change-room-target"
            value={target ? [target] : []}
            onChange={(rooms) => {
              const room = rooms[0] ?? null;
              setTarget(room);
              setUpgrade(null);
              // A refusal was about the room chosen before: another room starts afresh.
              change.reset();
              form.setValue('targetRoomId', room?.id ?? '', { shouldDirty: true });
            }}
            status="vacant"
            // Free over the stay's nights to come, not only vacant now: a room booked from tomorrow is not offered.
            freeBetween={tooLate ? undefined : { from, to: end }}
            excludeIds={[stay.roomId]}
            placeholder={t('frontDesk.stay.chooseVacantRoom')}
            disabled={!active || tooLate}
            data-testid="change-room-picker"
          />
        </div>
        {!tooLate && active && <PriceComparison stay={stay} target={target} currentQuote={currentQuote} targetQuote={targetQuote} currency={currency} />}
        {dearer && <UpgradeChoice difference={difference} currency={currency} value={upgrade} onChange={setUpgrade} />}
        {active && <KeysPreview stay={stay} target={target} />}
      </div>
    </FormDialog>
  );
}

/** Charge a dearer room's difference, or a complimentary upgrade: nothing chosen for the clerk. */
function UpgradeChoice({
  difference,
  currency,
  value,
  onChange,
}: {
  difference: number;
  currency: string;
  value: TUpgradeChoice | null;
  onChange(next: TUpgradeChoice): void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="grid gap-2 text-sm" data-testid="change-room-upgrade">
      <legend className="mb-1 font-medium">{t('frontDesk.stay.upgradeQuestion')}</legend>
      <RadioChoices
        name="change-room-upgrade"
        choices={UPGRADE_CHOICES}
        value={value}
        onChange={onChange}
        label={(choice) => t(`frontDesk.stay.upgrade.${choice}`, { price: formatMoney(difference, currency) })}
        testId="change-room-upgrade"
      />
    </fieldset>
  );
}

/** The price of the remaining nights in the current room and in the chosen one, and the difference. */
function PriceComparison({
  stay,
  target,
  currentQuote,
  targetQuote,
  currency,
}: {
  stay: StayDto;
  target: PickedRoom | null;
  currentQuote: QuoteState;
  targetQuote: QuoteState;
  currency: string;
}) {
  const { t } = useTranslation();
  const amount = (quote: QuoteState) =>
    quote.kind === 'ready' ? (
      formatMoney(quote.quote.total, currency)
    ) : quote.kind === 'loading' ? (
      <Spinner className="text-muted-foreground inline" />
    ) : quote.kind === 'error' ? (
      t('frontDesk.stay.quoteFailed')
    ) : (
      '—'
    );
  const difference = currentQuote.kind === 'ready' && targetQuote.kind === 'ready' ? targetQuote.quote.total - currentQuote.quote.total : null;
  const nights = currentQuote.kind === 'ready' ? currentQuote.quote.nights.length : null;
  return (
    <div className="bg-muted/40 grid gap-1.5 rounded-md border p-3 text-sm" data-testid="change-room-price" aria-live="polite">
      <p className="font-medium">{nights === null ? t('frontDesk.stay.remainingNightsTitle') : t('frontDesk.stay.remainingNightCount', { count: nights })}</p>
      <div className="flex justify-between gap-2">
        <span className="text-muted-foreground">{t('frontDesk.stay.roomPrice', { room: stay.roomName })}</span>
        <span className="tabular-nums">{amount(currentQuote)}</span>
      </div>
      <div className="flex justify-between gap-2">
        <span className="text-muted-foreground">{target ? t('frontDesk.stay.roomPrice', { room: target.name }) : t('frontDesk.stay.chooseRoom')}</span>
        <span className="tabular-nums">{target ? amount(targetQuote) : '—'}</span>
      </div>
      {difference !== null && (
        <div className="flex justify-between gap-2 border-t pt-1.5 font-medium" data-testid="change-room-difference">
          <span>{t('frontDesk.stay.priceDifference')}</span>
          <span className={cn('tabular-nums', difference > 0 && 'text-amber-700', difference < 0 && 'text-emerald-700')} dir="ltr">
            {difference > 0 ? '+' : difference < 0 ? '−' : ''}
            {formatMoney(Math.abs(difference), currency)}
          </span>
        </div>
      )}
    </div>
  );
}

/**
 * What moves with the guest, before the move (what the guest holds now, `stay.keys`): custom codes
 * keep their digits, generated codes are replaced, faces and cards sent over the air follow,
 * written cards end; and, once a room is chosen, whether its lock can take them at all.
 */
function KeysPreview({ stay, target }: { stay: StayDto; target: PickedRoom | null }) {
  const { t } = useTranslation();
  // Its texts are in the later part (the dialog may open on the board before it came).
  const hasTexts = useLaterTexts('guestKeys.preview.title');
  const keys = useQuery(stayQueries.keys(stay.id));
  const targetRoom = useQuery(stayQueries.moveTarget(target?.id));
  const data = keys.data;
  if (!hasTexts || !data) return null;
  const custom = data.passwords.filter((p) => p.kind === 'custom' && p.code).map((p) => p.code!);
  const generated = data.passwords.filter((p) => p.kind !== 'custom').length;
  const sent = data.cards.filter((c) => c.medium === 'number').length;
  const written = data.cards.filter((c) => c.medium === 'data').map((c) => c.cardNumber);
  const faces = data.faces.length;
  const deliverable = custom.length + generated + faces + sent;
  if (deliverable + written.length === 0) return null;
  const noLock = target !== null && targetRoom.data !== undefined && targetRoom.data.lockId === null && deliverable > 0;
  return (
    <section className="grid gap-1.5 rounded-md border p-3 text-sm" aria-labelledby="change-room-keys-title" data-testid="change-room-keys">
      <h3 id="change-room-keys-title" className="font-medium">
        {t('guestKeys.preview.title')}
      </h3>
      <ul className="text-muted-foreground grid gap-1">
        {custom.length > 0 && <li>{t('guestKeys.preview.sameCodes', { codes: custom.join(', ') })}</li>}
        {generated > 0 && <li>{t('guestKeys.preview.newCodes', { count: generated })}</li>}
        {faces > 0 && <li>{t('guestKeys.preview.faces', { count: faces })}</li>}
        {sent > 0 && <li>{t('guestKeys.preview.sentCards', { count: sent })}</li>}
        {written.length > 0 && <li>{t('guestKeys.preview.writtenCards', { room: stay.roomName, numbers: written.join(', ') })}</li>}
      </ul>
      {noLock && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900" data-testid="change-room-keys-no-lock">
          {t('guestKeys.noLock', { room: target.name })}
        </p>
      )}
    </section>
  );
}
