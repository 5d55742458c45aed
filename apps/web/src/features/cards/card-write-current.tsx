import { ArrowDownToLine, CreditCard, Hand, ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { RoomCardRequest } from '@/lib/room-cards';
import { isReaderError } from '@/readers/errors';
import type { CardWritingStep, DispensedWritingStep } from './card-writing';
import { WriteSteps } from './card-writing-parts';
import { DeskErrorAlert } from './desk-error-alert';
import type { CardWriting } from './use-card-writing';

const STEPS: readonly CardWritingStep[] = ['reading', 'preparing', 'writing', 'confirming'];
const DISPENSED_STEPS: readonly DispensedWritingStep[] = ['dispensing', ...STEPS];

/**
 * The card to write now: "place card 2 of 3 on the reader" (or "the dispenser gives it"), the steps
 * while it is written, and after a failure why, whether the dispenser kept the card, and "place the
 * cards by hand" when the dispenser could not give one.
 */
export function CurrentCard({ request, writing }: { request: RoomCardRequest; writing: CardWriting }) {
  const { t } = useTranslation();
  const { desk, count, slots, index, step, failure, isBusy, fromDispenser, chooseDispenser } = writing;
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
  );
}
