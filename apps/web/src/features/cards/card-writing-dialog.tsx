import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDownToLine, Check, CircleDashed, CreditCard, Hand, SkipForward, ShieldAlert, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cardQueries, invalidateCards, invalidateDispensers } from './api';
import { cardNumberOfUid } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useDeskReader } from '@/lib/desk-reader';
import type { RoomCardMode, RoomCardRequest } from '@/lib/room-cards';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { cn } from '@/lib/utils';
import { isReaderError } from '@/readers/errors';
import type { CardReader } from '@/readers/types';
import {
  DispensedCardFailure,
  writeCardAtDesk,
  writeDispensedCardAtDesk,
  type CardWritingApi,
  type CardWritingStep,
  type DispensedWritingStep,
} from './card-writing';
import { DeskErrorAlert } from './desk-error-alert';
import { DeskCardError } from './desk-errors';

const STEPS: readonly CardWritingStep[] = ['reading', 'preparing', 'writing', 'confirming'];
const DISPENSED_STEPS: readonly DispensedWritingStep[] = ['dispensing', ...STEPS];

/** Where this computer keeps whether the desk takes room cards from the card dispenser ('1') or places them by hand. */
const FROM_DISPENSER_KEY = 'cardWriteFromDispenser';

function storedFromDispenser(): boolean {
  try {
    return window.localStorage.getItem(FROM_DISPENSER_KEY) === '1';
  } catch {
    return false;
  }
}

function storeFromDispenser(on: boolean) {
  try {
    window.localStorage.setItem(FROM_DISPENSER_KEY, on ? '1' : '0');
  } catch {
    // Storage refused (private mode): the choice holds for this dialog only.
  }
}

type CardIssued = RouterOutputs['card']['confirm'];

/** A failed write: why, at which step, and for a card from the dispenser whether it went into the bin. */
type Failure = { error: unknown; step: DispensedWritingStep; dispensed?: { captured: true } | { captured: false; captureError: unknown } };

type Slot = { status: 'waiting' } | { status: 'written'; uid: string; cardNumber: string } | { status: 'skipped' };

/**
 * Writes a stay's room cards at the desk, one after the other (issue 8 §2; spec §3 "number of
 * room cards"): "place card 1 of 2 on the reader", then for each card reading, preparing its data,
 * writing and checking it, recording it, and "card written"; a failure says why in the reader's
 * words (spec §8) and offers to try again or to skip the card. The first card is new or a duplicate
 * as asked (or as the desk chooses here, when the stay already has cards); the others duplicate
 * it. A card counts as issued only once it read back exactly what was written (card-writing.ts).
 *
 * When the hotel has a card dispenser (issue 8 §5), the desk may take the cards from it instead
 * (remembered on this computer): each write first has the dispenser put a blank card on the
 * reader; a card that fails is pulled into the dispenser's bin, never handed out half-written, and
 * the dialog says so; an empty dispenser is said in the reader's words, and the desk can go on
 * placing cards by hand. After each card dispensed, the dispenser's stock is reported for the
 * registered dispenser of this desk's reader (the dispensers page lists it).
 */
export function CardWritingDialog({ request, onClose }: { request: RoomCardRequest; onClose(): void }) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const queryClient = useQueryClient();
  const count = request.rewrite ? 1 : request.count;
  const [slots, setSlots] = useState<Slot[]>(() => Array.from({ length: count }, () => ({ status: 'waiting' })));
  const [index, setIndex] = useState(0);
  const [step, setStep] = useState<DispensedWritingStep | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const primary = useRef<HTMLButtonElement>(null);

  // "Ask": the stay's cards in use decide whether there is a choice (none: the first card is new).
  const asks = request.mode === 'ask' && !request.rewrite;
  const inUse = useQuery(cardQueries.stayCardsInUse(request.stayId, asks));
  const [chosen, setChosen] = useState<RoomCardMode>('duplicate');
  const stayHasCards = (inUse.data?.total ?? 0) > 0;
  // When the stay's cards cannot be counted, the desk chooses rather than voiding them unasked.
  const isChoosing = asks && (stayHasCards || inUse.isError);
  const isWaitingForChoice = asks && inUse.isLoading;

  const reserve = useMutation(trpc.card.reserve.mutationOptions({ meta: { showsErrors: true } }));
  const confirm = useMutation(trpc.card.confirm.mutationOptions({ meta: { showsErrors: true } }));
  const giveUp = useMutation(trpc.card.voidReservation.mutationOptions({ meta: { showsErrors: true } }));

  // The card dispenser: offered when the hotel has one (a rewrite needs the guest's own card).
  const dispensers = useQuery(cardQueries.dispensers(!request.rewrite));
  const hasDispenser = !request.rewrite && (dispensers.data?.items.length ?? 0) > 0;
  const [wantsDispenser, setWantsDispenser] = useState(storedFromDispenser);
  const fromDispenser = hasDispenser && wantsDispenser;
  const recordDispenser = useMutation(trpc.dispenser.checkStatus.mutationOptions({ onSettled: () => void invalidateDispensers(queryClient) }));

  /** Takes the cards from the dispenser or places them by hand; `remember`: this computer keeps the choice. */
  const chooseDispenser = (on: boolean, remember = true) => {
    if (isBusy) return;
    setWantsDispenser(on);
    if (remember) storeFromDispenser(on);
    setFailure(null);
  };

  /** The dispenser's stock now, recorded for the registered dispenser of this desk's reader (as the dispensers page does). */
  const reportDispenser = async (reader: CardReader) => {
    try {
      const deviceId = reader.readerInfo?.deviceId;
      if (!deviceId) return;
      const known = (await queryClient.fetchQuery(cardQueries.dispensers(true))).items.find((d) => d.deviceId === deviceId);
      if (!known) return;
      const status = await reader.dispenserStatus();
      await recordDispenser.mutateAsync({ id: known.id, status: 'online', stock: status.stock, capacity: status.capacity });
    } catch {
      // The stock is reported again after the next card; the card written is what matters here.
    }
  };

  const written = slots.filter((s): s is Extract<Slot, { status: 'written' }> => s.status === 'written');
  const isFinished = index >= count;
  const firstMode: RoomCardMode = request.rewrite || written.length > 0 ? 'duplicate' : request.mode === 'ask' ? (isChoosing ? chosen : 'new') : request.mode;

  // The button to press next has the focus: Enter writes the next card, or closes when all are done.
  useEffect(() => {
    if (!isBusy) primary.current?.focus();
  }, [index, isBusy, isFinished]);

  const advance = (next: Slot[]) => {
    const after = next.findIndex((s, i) => i > index && s.status === 'waiting');
    setIndex(after === -1 ? count : after);
  };

  const write = async () => {
    if (isBusy || isFinished || isWaitingForChoice) return;
    setIsBusy(true);
    setFailure(null);
    const dispensing = fromDispenser;
    let at: DispensedWritingStep = dispensing ? 'dispensing' : 'reading';
    setStep(at);
    const mode = firstMode;
    const writtenUids = new Set(written.map((s) => s.uid));
    const onStep = (next: DispensedWritingStep) => {
      at = next;
      setStep(next);
    };
    let reader: CardReader | null = null;
    try {
      reader = await desk.getReader();
      const api: CardWritingApi<CardIssued> = {
        reserve: async (uid) => {
          if (writtenUids.has(uid.toUpperCase())) throw new DeskCardError('write.sameCardAgain');
          if (request.rewrite) {
            if (cardNumberOfUid(uid) !== request.rewrite.cardNumber) throw new DeskCardError('write.wrongCard', { number: request.rewrite.cardNumber });
            // Written again in place: the card's writing now ends only once the new one reads back.
            return reserve.mutateAsync({ uid, kind: 'room', stayId: request.stayId, mode, replaces: request.rewrite.issueId });
          }
          return reserve.mutateAsync({ uid, kind: 'room', stayId: request.stayId, mode });
        },
        confirm: (input) => confirm.mutateAsync(input),
        voidReservation: (input) => giveUp.mutateAsync(input),
      };
      const issued = dispensing ? await writeDispensedCardAtDesk(reader, api, onStep) : await writeCardAtDesk(reader, api, onStep);
      const next = slots.map((s, i) => (i === index ? ({ status: 'written', uid: issued.uid.toUpperCase(), cardNumber: issued.cardNumber } as const) : s));
      setSlots(next);
      toast.success(t('cards.write.cardWritten', { number: issued.cardNumber }));
      advance(next);
    } catch (error) {
      if (error instanceof DispensedCardFailure) {
        setFailure({ error: error.error, step: at, dispensed: error.captured ? { captured: true } : { captured: false, captureError: error.captureError } });
      } else {
        setFailure({ error, step: at });
      }
    } finally {
      if (dispensing && reader) await reportDispenser(reader);
      setStep(null);
      setIsBusy(false);
      void invalidateCards(queryClient);
    }
  };

  const skip = () => {
    if (isBusy || isFinished) return;
    const next = slots.map((s, i) => (i === index ? ({ status: 'skipped' } as const) : s));
    setSlots(next);
    setFailure(null);
    advance(next);
  };

  const close = () => {
    if (isBusy) return;
    void invalidateCards(queryClient);
    onClose();
  };

  const isNextAfterWritten = index > 0 && slots[index - 1]?.status === 'written';
  const prompt = request.rewrite
    ? t('cards.write.placeCardNumber', { number: request.rewrite.cardNumber })
    : fromDispenser
      ? count === 1
        ? t('cards.write.dispenserOneCard')
        : isNextAfterWritten
          ? t('cards.write.dispenserNextCard', { index: index + 1, count })
          : t('cards.write.dispenserCard', { index: index + 1, count })
      : count === 1
        ? t('cards.write.placeOneCard')
        : isNextAfterWritten
          ? t('cards.write.placeNextCard', { index: index + 1, count })
          : t('cards.write.placeCard', { index: index + 1, count });
  // The dispenser could not give a card (empty, none attached, no answer): the desk may place cards by hand.
  const dispenseFailed = failure !== null && failure.step === 'dispensing' && !isReaderError(failure.error, 'dispenserBusy');
  const isNewOverCards = isChoosing && written.length === 0 && chosen === 'new';

  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent
        closeLabel={isBusy ? undefined : t('common.close')}
        className="sm:max-w-xl"
        data-testid="card-writing-dialog"
        data-finished={isFinished}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          primary.current?.focus();
        }}
        onEscapeKeyDown={(event) => isBusy && event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <CreditCard className="size-5" aria-hidden />
            {t(request.rewrite ? 'cards.write.rewriteTitle' : 'cards.write.title', { room: request.roomName })}
          </DialogTitle>
          <DialogDescription>
            {t(request.rewrite ? 'cards.write.rewriteDescription' : 'cards.write.description', { holder: request.holderName || '—' })}
          </DialogDescription>
        </DialogHeader>

        {isChoosing && written.length === 0 && !isFinished && (
          <fieldset className="grid gap-2" disabled={isBusy} data-testid="card-write-mode">
            <legend className="mb-2 text-sm font-medium">{t('cards.write.modeLegend')}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {(['duplicate', 'new'] as const).map((mode) => (
                <label
                  key={mode}
                  htmlFor={`card-write-mode-${mode}`}
                  className={cn(
                    'has-focus-visible:ring-ring flex cursor-pointer gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                    chosen === mode ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
                  )}
                >
                  <input
                    type="radio"
                    id={`card-write-mode-${mode}`}
                    name="card-write-mode"
                    value={mode}
                    checked={chosen === mode}
                    onChange={() => setChosen(mode)}
                    className="accent-primary mt-0.5 size-4 shrink-0"
                    data-testid={`card-write-mode-${mode}`}
                  />
                  <span className="grid gap-1">
                    <span className="font-medium">{t(mode === 'new' ? 'cards.write.modeNew' : 'cards.write.modeDuplicate')}</span>
                    <span className="text-muted-foreground text-xs leading-snug">
                      {t(mode === 'new' ? 'cards.write.modeNewHint' : 'cards.write.modeDuplicateHint')}
                    </span>
                  </span>
                </label>
              ))}
            </div>
            {isNewOverCards && (
              <p
                className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-xs text-amber-900"
                role="note"
                data-testid="card-write-new-warning"
              >
                <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('cards.write.newWarning')}
              </p>
            )}
          </fieldset>
        )}

        {hasDispenser && !isFinished && (
          <div className="flex items-start gap-2.5 rounded-md border p-3" data-testid="card-write-dispenser" data-on={fromDispenser}>
            <Checkbox
              id="card-write-from-dispenser"
              className="mt-0.5"
              checked={fromDispenser}
              onCheckedChange={(checked) => chooseDispenser(checked === true)}
              disabled={isBusy}
              data-testid="card-write-from-dispenser"
            />
            <div className="grid gap-1">
              <Label htmlFor="card-write-from-dispenser" className="leading-snug">
                {t('cards.write.dispenserSwitch')}
              </Label>
              <p className="text-muted-foreground text-xs leading-snug">{t('cards.write.dispenserSwitchHint')}</p>
            </div>
          </div>
        )}

        {count > 1 && (
          <ol className="grid gap-1.5 text-sm" aria-label={t('cards.write.cardsLabel')} data-testid="card-write-slots">
            {slots.map((slot, i) => {
              const isCurrent = i === index && !isFinished;
              return (
                <li
                  key={i}
                  className={cn('flex flex-wrap items-center gap-2 rounded-md border px-3 py-1.5', isCurrent && 'border-primary bg-primary/5')}
                  data-testid={`card-slot-${i + 1}`}
                  data-status={slot.status}
                  aria-current={isCurrent ? 'step' : undefined}
                >
                  {slot.status === 'written' ? (
                    <Check className="size-4 text-emerald-600" aria-hidden />
                  ) : slot.status === 'skipped' ? (
                    <SkipForward className="text-muted-foreground size-4 rtl:rotate-180" aria-hidden />
                  ) : isCurrent && isBusy ? (
                    <Spinner />
                  ) : (
                    <CircleDashed className="text-muted-foreground size-4" aria-hidden />
                  )}
                  <span className="font-medium">{t('cards.write.cardLabel', { index: i + 1 })}</span>
                  <span className="text-muted-foreground">
                    {slot.status === 'written' ? (
                      <span dir="auto">{t('cards.write.slotWritten', { number: slot.cardNumber })}</span>
                    ) : slot.status === 'skipped' ? (
                      t('cards.write.slotSkipped')
                    ) : isCurrent ? (
                      t(isBusy ? 'cards.write.slotWriting' : 'cards.write.slotCurrent')
                    ) : (
                      t('cards.write.slotWaiting')
                    )}
                  </span>
                </li>
              );
            })}
          </ol>
        )}

        {isFinished ? (
          <div className="grid gap-2" role="status" data-testid="card-write-finished">
            <p className="flex items-center gap-2 text-sm font-medium">
              {written.length > 0 ? (
                <Check className="size-4 text-emerald-600" aria-hidden />
              ) : (
                <SkipForward className="text-muted-foreground size-4 rtl:rotate-180" aria-hidden />
              )}
              {t('cards.write.finished', { written: written.length, count })}
            </p>
            {count === 1 && written[0] && (
              <p className="text-muted-foreground text-sm" data-testid="card-write-written-number">
                {t('cards.write.slotWritten', { number: written[0].cardNumber })}
              </p>
            )}
            {written.length < count && <p className="text-muted-foreground text-xs">{t('cards.write.skippedNote')}</p>}
          </div>
        ) : (
          <div className="grid gap-3">
            <p className="bg-muted/50 flex items-start gap-2 rounded-md border p-3 text-sm" aria-live="polite" data-testid="card-write-prompt">
              <CreditCard className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-hidden />
              <span>{prompt}</span>
            </p>
            {(isBusy || failure) && <WriteSteps steps={fromDispenser ? DISPENSED_STEPS : STEPS} current={step} failed={failure?.step ?? null} />}
            {failure && <DeskErrorAlert error={failure.error} />}
            {failure?.dispensed?.captured === true && (
              <p className="text-muted-foreground flex items-start gap-2 text-sm" role="status" data-testid="card-write-captured">
                <ArrowDownToLine className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('cards.write.dispenserCaptured')}
              </p>
            )}
            {failure?.dispensed?.captured === false && (
              <p
                className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
                role="alert"
                data-testid="card-write-not-captured"
              >
                <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('cards.write.dispenserNotCaptured', { reason: desk.errorText(failure.dispensed.captureError).text })}
              </p>
            )}
            {dispenseFailed && (
              <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="card-write-dispense-failed">
                {isReaderError(failure.error, 'dispenserEmpty') && <span className="text-muted-foreground">{t('cards.write.dispenserEmptyHint')}</span>}
                <Button variant="outline" size="sm" onClick={() => chooseDispenser(false, false)} data-testid="card-write-by-hand">
                  <Hand aria-hidden />
                  {t('cards.write.dispenserByHand')}
                </Button>
              </div>
            )}
            <p className="text-muted-foreground text-xs" data-testid="card-write-reader">
              {t('cards.write.readerLabel', { type: desk.typeLabel() })}
            </p>
          </div>
        )}

        <DialogFooter>
          {isFinished ? (
            <Button ref={primary} onClick={close} data-testid="card-write-done">
              {t('cards.write.done')}
            </Button>
          ) : (
            <>
              <Button variant="ghost" onClick={close} disabled={isBusy} data-testid="card-write-close">
                <X aria-hidden />
                {t('cards.write.later')}
              </Button>
              {(count > 1 || failure) && !request.rewrite && (
                <Button variant="outline" onClick={skip} disabled={isBusy} data-testid="card-write-skip">
                  <SkipForward className="rtl:rotate-180" aria-hidden />
                  {t('cards.write.skip')}
                </Button>
              )}
              <Button
                ref={primary}
                variant={isNewOverCards ? 'destructive' : 'default'}
                onClick={() => void write()}
                disabled={isBusy || isWaitingForChoice}
                aria-busy={isBusy || undefined}
                data-testid="card-write-submit"
              >
                {isBusy ? <Spinner /> : <CreditCard aria-hidden />}
                {t(failure ? 'cards.write.retry' : isNewOverCards ? 'cards.write.submitNew' : 'cards.write.submit')}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The steps of writing one card (four, or five with the dispenser's), each done, under way, failed or to come. */
function WriteSteps({
  steps,
  current,
  failed,
}: {
  steps: readonly DispensedWritingStep[];
  current: DispensedWritingStep | null;
  failed: DispensedWritingStep | null;
}) {
  const { t } = useTranslation();
  const at = steps.indexOf(current ?? failed ?? steps[0]!);
  return (
    <ol
      className={cn('grid gap-1 text-sm sm:gap-2', steps.length > 4 ? 'sm:grid-cols-5' : 'sm:grid-cols-4')}
      aria-label={t('cards.write.stepsLabel')}
      data-testid="card-write-steps"
    >
      {steps.map((s, i) => {
        const state = failed === s ? 'failed' : i < at ? 'done' : i === at && current ? 'current' : 'todo';
        return (
          <li
            key={s}
            className={cn(
              'flex items-center gap-1.5',
              state === 'todo' && 'text-muted-foreground',
              state === 'failed' && 'text-destructive',
              state === 'current' && 'font-medium',
            )}
            data-testid={`card-write-step-${s}`}
            data-state={state}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            {state === 'done' ? (
              <Check className="size-4 shrink-0 text-emerald-600" aria-hidden />
            ) : state === 'current' ? (
              <Spinner />
            ) : state === 'failed' ? (
              <X className="size-4 shrink-0" aria-hidden />
            ) : (
              <CircleDashed className="size-4 shrink-0" aria-hidden />
            )}
            <span>{t(`cards.steps.${s}`)}</span>
          </li>
        );
      })}
    </ol>
  );
}
