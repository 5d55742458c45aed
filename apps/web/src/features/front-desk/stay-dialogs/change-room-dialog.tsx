import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { FormDialog } from '@/components/form-dialog';
import { RoomPicker, type PickedRoom } from '@/components/room-picker';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useHotelSettings } from '@/lib/hotel-settings';
import { formatMoney } from '@/lib/money';
import { requestRoomCards } from '@/lib/room-cards';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';
import { isLongEnough } from './form-rules';
import { usePriceQuote, type QuoteState } from './price-fields';
import { isActiveStay, primaryGuestName, useInvalidateFrontDesk, type StayDto } from './stay-helpers';

/**
 * Moves a stay to a vacant room (`exchangeHouses`), chosen with the searchable room picker that
 * pages on the server (any room of any hotel, not the first 100). The price changes by the
 * difference between the two rooms over the remaining nights, shown here before the move as two
 * quotes. Sending it again after a lost answer is safe: a stay already moved is no longer active.
 * The stay's room cards stop opening with the move: when it had some, as many are written for the
 * new room right after it (new cards of that room; the desk may write them later).
 */
export function ChangeRoomDialog({ stay, open, onOpenChange, onChanged }: { stay: StayDto | null; open: boolean; onOpenChange(open: boolean): void; onChanged?(stay: StayDto): void }) {
  if (!stay || !open) return null;
  return <ChangeRoomForm key={stay.id} stay={stay} onOpenChange={onOpenChange} onChanged={onChanged} />;
}

function ChangeRoomForm({ stay, onOpenChange, onChanged }: { stay: StayDto; onOpenChange(open: boolean): void; onChanged?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const [target, setTarget] = useState<PickedRoom | null>(null);

  // The remaining part of the stay: from now (from its start, for a reservation) to the expected check-out.
  const [from] = useState(() => (stay.state === 'reserved' ? stay.checkInAt : new Date().toISOString()));
  const end = stay.expectedCheckOutAt;
  const tooLate = !isLongEnough(from, end);
  const period = { checkInAt: from, expectedCheckOutAt: end, kind: 'stay' as const };
  const currentQuote = usePriceQuote(tooLate ? null : { roomId: stay.roomId, ...period }, t('frontDesk.stay.changeRoomTooLate'));
  const targetQuote = usePriceQuote(tooLate || !target ? null : { roomId: target.id, ...period }, t('frontDesk.stay.chooseRoom'));
  // The stay's room cards in use now: as many are written for the new room after the move.
  const canWriteCards = hasPermission(useUserInfo(), 'credential.manage');
  const cards = useQuery(trpc.card.list.queryOptions({ stayId: stay.id, kind: 'room', scope: 'active', page: 1, pageSize: 1 }, { enabled: canWriteCards }));

  const change = useMutation(
    trpc.stay.changeRoom.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (moved) => {
        const difference = moved.priceDifference;
        toast.success(t('frontDesk.stay.changeRoomSucceeded', { from: stay.roomName, room: moved.roomName }), {
          description:
            difference > 0
              ? t('frontDesk.stay.differenceMore', { price: formatMoney(difference, currency) })
              : difference < 0
                ? t('frontDesk.stay.differenceLess', { price: formatMoney(-difference, currency) })
                : t('frontDesk.stay.differenceNone'),
        });
        void invalidate();
        onChanged?.(moved);
        onOpenChange(false);
        const cardCount = cards.data?.total ?? 0;
        if (canWriteCards && cardCount > 0) {
          requestRoomCards({ stayId: moved.id, roomId: moved.roomId, roomName: moved.roomName, holderName: primaryGuestName(moved), count: cardCount, mode: 'new' });
        }
      },
    }),
  );

  const active = isActiveStay(stay.state);
  const canSubmit = active && !tooLate && target !== null;

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('frontDesk.stay.changeRoomTitle', { room: stay.roomName })}
      description={t('frontDesk.stay.changeRoomDescription', { room: stay.roomName, guest: primaryGuestName(stay) })}
      isDirty={target !== null}
      isSaving={change.isPending}
      error={change.error}
      onSubmit={(event) => {
        event.preventDefault();
        if (canSubmit && target && !change.isPending) change.mutate({ stayId: stay.id, targetRoomId: target.id });
      }}
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
            onChange={(rooms) => setTarget(rooms[0] ?? null)}
            status="vacant"
            excludeIds={[stay.roomId]}
            placeholder={t('frontDesk.stay.chooseVacantRoom')}
            disabled={!active || tooLate}
            data-testid="change-room-picker"
          />
        </div>
        {!tooLate && active && <PriceComparison stay={stay} target={target} currentQuote={currentQuote} targetQuote={targetQuote} currency={currency} />}
      </div>
    </FormDialog>
  );
}

/** The price of the remaining nights in the current room and in the chosen one, and the difference. */
function PriceComparison({ stay, target, currentQuote, targetQuote, currency }: { stay: StayDto; target: PickedRoom | null; currentQuote: QuoteState; targetQuote: QuoteState; currency: string }) {
  const { t } = useTranslation();
  const amount = (quote: QuoteState) =>
    quote.kind === 'ready' ? formatMoney(quote.quote.total, currency) : quote.kind === 'loading' ? <Spinner className="text-muted-foreground inline" /> : quote.kind === 'error' ? t('frontDesk.stay.quoteFailed') : '—';
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
