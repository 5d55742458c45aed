import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { BedDouble } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { SearchInput } from '@/components/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { formatMoney } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { cn } from '@/lib/utils';
import { usePriceQuote, type QuoteState } from './price-fields';
import { isLongEnough } from './form-rules';
import { isActiveStay, primaryGuestName, useDebouncedValue, useHotelSettings, useInvalidateFrontDesk, type StayDto } from './stay-helpers';

type RoomItem = RouterOutputs['room']['list']['items'][number];

/**
 * Moves a stay to a vacant room (`exchangeHouses`). The price changes by the difference between
 * the two rooms over the remaining nights, shown here before the move as two quotes.
 */
export function ChangeRoomDialog({ stay, open, onOpenChange, onChanged }: { stay: StayDto | null; open: boolean; onOpenChange(open: boolean): void; onChanged?(stay: StayDto): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open && stay !== null} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col gap-0 p-0 sm:max-w-xl" closeLabel={t('common.close')} data-testid="change-room-dialog">
        {stay && <ChangeRoomForm key={stay.id} stay={stay} onDone={() => onOpenChange(false)} onChanged={onChanged} />}
      </DialogContent>
    </Dialog>
  );
}

function ChangeRoomForm({ stay, onDone, onChanged }: { stay: StayDto; onDone(): void; onChanged?(stay: StayDto): void }) {
  const { t } = useTranslation();
  const { currency } = useHotelSettings();
  const invalidate = useInvalidateFrontDesk();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), 300);
  const [target, setTarget] = useState<RoomItem | null>(null);

  const rooms = useQuery(
    trpc.room.list.queryOptions({ status: 'vacant', pageSize: 100, sort: 'name_asc', search: search || undefined }, { placeholderData: keepPreviousData }),
  );
  const options = (rooms.data?.items ?? []).filter((room) => room.id !== stay.roomId);

  // The remaining part of the stay: from now (from its start, for a reservation) to the expected check-out.
  const [from] = useState(() => (stay.state === 'reserved' ? stay.checkInAt : new Date().toISOString()));
  const end = stay.expectedCheckOutAt;
  const tooLate = !isLongEnough(from, end);
  const period = { checkInAt: from, expectedCheckOutAt: end, kind: 'stay' as const };
  const currentQuote = usePriceQuote(tooLate ? null : { roomId: stay.roomId, ...period }, t('frontDesk.stay.changeRoomTooLate'));
  const targetQuote = usePriceQuote(tooLate || !target ? null : { roomId: target.id, ...period }, t('frontDesk.stay.chooseRoom'));

  const change = useMutation(
    trpc.stay.changeRoom.mutationOptions({
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
        onDone();
      },
    }),
  );

  const active = isActiveStay(stay.state);
  const canSubmit = active && !tooLate && target !== null && !change.isPending;

  return (
    <>
      <DialogHeader className="shrink-0 border-b p-4 pe-12 sm:p-6 sm:pe-12">
        <DialogTitle>{t('frontDesk.stay.changeRoomTitle', { room: stay.roomName })}</DialogTitle>
        <DialogDescription>{t('frontDesk.stay.changeRoomDescription', { room: stay.roomName, guest: primaryGuestName(stay) })}</DialogDescription>
      </DialogHeader>
      <form
        noValidate
        className="flex min-h-0 flex-1 flex-col"
        onSubmit={(event) => {
          event.preventDefault();
          if (canSubmit && target) change.mutate({ stayId: stay.id, targetRoomId: target.id });
        }}
        data-testid="change-room-form"
      >
        <div className="min-h-0 flex-1 space-y-4 overflow-y-auto p-4 sm:p-6">
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
          <SearchInput
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            onKeyDown={(event) => {
              // Enter in the search box picks the only match instead of submitting.
              if (event.key !== 'Enter') return;
              event.preventDefault();
              if (options.length === 1 && options[0]) setTarget(options[0]);
            }}
            placeholder={t('frontDesk.stay.searchRooms')}
            aria-label={t('frontDesk.stay.searchRooms')}
            data-testid="change-room-search"
          />
          <fieldset className="grid gap-2">
            <legend className="mb-2 flex items-center gap-2 text-sm font-medium">
              {t('frontDesk.stay.vacantRooms')}
              {rooms.isFetching && !rooms.isLoading && <Spinner className="text-muted-foreground" />}
            </legend>
            {rooms.isLoading ? (
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-3" aria-busy="true" aria-label={t('common.loading')}>
                {Array.from({ length: 6 }, (_, i) => (
                  <Skeleton key={i} className="h-16 w-full" />
                ))}
              </div>
            ) : options.length === 0 ? (
              <p className="text-muted-foreground rounded-md border border-dashed p-4 text-center text-sm" data-testid="change-room-empty">
                {t(search ? 'frontDesk.stay.noVacantRoomsFound' : 'frontDesk.stay.noVacantRooms')}
              </p>
            ) : (
              <div className="grid max-h-64 grid-cols-2 gap-2 overflow-y-auto p-0.5 sm:grid-cols-3">
                {options.map((room) => (
                  <label
                    key={room.id}
                    className={cn(
                      'hover:bg-accent flex cursor-pointer flex-col gap-0.5 rounded-md border p-2 text-sm transition-colors',
                      'has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-ring/50 has-[:focus-visible]:ring-[3px]',
                    )}
                    data-testid={`change-room-option-${room.name}`}
                    data-selected={target?.id === room.id}
                  >
                    <input
                      type="radio"
                      name="targetRoom"
                      value={room.id}
                      checked={target?.id === room.id}
                      onChange={() => setTarget(room)}
                      disabled={!active || tooLate}
                      className="sr-only"
                    />
                    <span className="flex items-center gap-1.5 font-medium">
                      <BedDouble className="text-muted-foreground size-4" aria-hidden />
                      <span className="truncate">{room.name}</span>
                    </span>
                    {(room.remarkName || room.groupName) && <span className="text-muted-foreground truncate text-xs">{room.remarkName || room.groupName}</span>}
                    <span className="text-muted-foreground text-xs tabular-nums">{t('frontDesk.stay.perNight', { price: formatMoney(room.usualPrice, currency) })}</span>
                  </label>
                ))}
              </div>
            )}
            {rooms.data && rooms.data.total > rooms.data.items.length && <p className="text-muted-foreground text-xs">{t('frontDesk.stay.moreRooms')}</p>}
          </fieldset>

          {!tooLate && active && <PriceComparison stay={stay} target={target} currentQuote={currentQuote} targetQuote={targetQuote} currency={currency} />}
        </div>
        <DialogFooter className="shrink-0 border-t p-4 sm:px-6">
          <DialogClose asChild>
            <Button type="button" variant="outline">
              {t('common.cancel')}
            </Button>
          </DialogClose>
          <Button type="submit" disabled={!canSubmit} data-testid="change-room-submit">
            {change.isPending && <Spinner />}
            {target ? t('frontDesk.stay.changeRoomTo', { room: target.name }) : t('frontDesk.stay.changeRoomSubmit')}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}

/** The price of the remaining nights in the current room and in the chosen one, and the difference. */
function PriceComparison({ stay, target, currentQuote, targetQuote, currency }: { stay: StayDto; target: RoomItem | null; currentQuote: QuoteState; targetQuote: QuoteState; currency: string }) {
  const { t } = useTranslation();
  const amount = (quote: QuoteState) =>
    quote.kind === 'ready' ? formatMoney(quote.quote.total, currency) : quote.kind === 'loading' ? <Spinner className="text-muted-foreground inline" /> : quote.kind === 'error' ? t('frontDesk.stay.quoteFailed') : '—';
  const difference = currentQuote.kind === 'ready' && targetQuote.kind === 'ready' ? targetQuote.quote.total - currentQuote.quote.total : null;
  const nights = currentQuote.kind === 'ready' ? currentQuote.quote.nights.length : null;
  return (
    <div className="bg-muted/40 grid gap-1.5 rounded-md border p-3 text-sm" data-testid="change-room-price" aria-live="polite">
      <p className="font-medium">{nights === null ? t('frontDesk.stay.remainingNightsTitle') : t('frontDesk.stay.remainingNights', { n: nights })}</p>
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
