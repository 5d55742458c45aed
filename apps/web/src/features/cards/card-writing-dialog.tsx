import { ArrowDownToLine, CreditCard, Hand, ShieldAlert, SkipForward, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import type { RoomCardRequest } from '@/lib/room-cards';
import { isReaderError } from '@/readers/errors';
import type { CardWritingStep, DispensedWritingStep } from './card-writing';
import { CardSlots, DispenserSwitch, ModeChoice, WriteFinished, WriteSteps } from './card-writing-parts';
import { DeskErrorAlert } from './desk-error-alert';
import { useCardWriting } from './use-card-writing';

const STEPS: readonly CardWritingStep[] = ['reading', 'preparing', 'writing', 'confirming'];
const DISPENSED_STEPS: readonly DispensedWritingStep[] = ['dispensing', ...STEPS];

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
  const {
    desk,
    count,
    slots,
    index,
    step,
    failure,
    isBusy,
    primary,
    isChoosing,
    chosen,
    setChosen,
    isWaitingForChoice,
    hasDispenser,
    fromDispenser,
    chooseDispenser,
    written,
    isFinished,
    isNewOverCards,
    write,
    skip,
    close,
  } = useCardWriting(request, onClose);

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
          <ModeChoice chosen={chosen} onChoose={setChosen} isBusy={isBusy} isNewOverCards={isNewOverCards} />
        )}

        {hasDispenser && !isFinished && <DispenserSwitch on={fromDispenser} isBusy={isBusy} onChange={chooseDispenser} />}

        {count > 1 && <CardSlots slots={slots} index={index} isFinished={isFinished} isBusy={isBusy} />}

        {isFinished ? (
          <WriteFinished written={written} count={count} />
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
