import { CreditCard, SkipForward, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import type { RoomCardRequest } from '@/lib/room-cards';
import { CurrentCard } from './card-write-current';
import { CardSlots, DispenserSwitch, ModeChoice, WriteFinished } from './card-writing-parts';
import { useCardWriting } from './use-card-writing';

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
  const writing = useCardWriting(request, onClose);
  const { isBusy, isFinished, failure, primary, close } = writing;

  return (
    <Dialog open onOpenChange={(open) => !open && close()}>
      <DialogContent
        closeLabel={isBusy && !isFinished ? undefined : t('common.close')}
        className="sm:max-w-xl"
        data-testid="card-writing-dialog"
        data-finished={isFinished}
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          primary.current?.focus();
        }}
        onEscapeKeyDown={(event) => isBusy && !isFinished && event.preventDefault()}
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

        {writing.isChoosing && writing.written.length === 0 && !isFinished && (
          <ModeChoice chosen={writing.chosen} onChoose={writing.setChosen} isBusy={isBusy} isNewOverCards={writing.isNewOverCards} />
        )}

        {writing.hasDispenser && !isFinished && <DispenserSwitch on={writing.fromDispenser} isBusy={isBusy} onChange={writing.chooseDispenser} />}

        {writing.count > 1 && <CardSlots slots={writing.slots} index={writing.index} isFinished={isFinished} isBusy={isBusy} />}

        {isFinished ? <WriteFinished written={writing.written} count={writing.count} /> : <CurrentCard request={request} writing={writing} />}

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
              {(writing.count > 1 || failure) && !request.rewrite && (
                <Button variant="outline" onClick={writing.skip} disabled={isBusy} data-testid="card-write-skip">
                  <SkipForward className="rtl:rotate-180" aria-hidden />
                  {t('cards.write.skip')}
                </Button>
              )}
              <Button
                ref={primary}
                variant={writing.isNewOverCards ? 'destructive' : 'default'}
                onClick={() => void writing.write()}
                disabled={isBusy || writing.isWaitingForChoice}
                aria-busy={isBusy || undefined}
                data-testid="card-write-submit"
              >
                {isBusy ? <Spinner /> : <CreditCard aria-hidden />}
                {t(failure ? 'cards.write.retry' : writing.isNewOverCards ? 'cards.write.submitNew' : 'cards.write.submit')}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
