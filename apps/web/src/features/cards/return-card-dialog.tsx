import { useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, CircleDashed, CreditCard, Undo2, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { invalidateCards } from './api';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useDeskReader } from '@/lib/desk-reader';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { cn } from '@/lib/utils';
import { clearCardAtDesk, readCardOnReader } from './card-writing';
import { DeskErrorAlert } from './desk-error-alert';
import { DeskCardError } from './desk-errors';

type Step = 'reading' | 'returning' | 'erasing';
const STEPS: readonly Step[] = ['reading', 'returning', 'erasing'];

/**
 * Takes a card back at the desk (withdrawal, issue 8 §2): the card on the reader is read, must be
 * one of the cards in use that are offered (this stay's), is taken back (it stops opening its
 * rooms: denylisted on their locks) and then erased, so that it can be written for the next guest.
 * Asked first; a card taken back but not erased can be erased again from here.
 */
export function ReturnCardDialog({ open, onOpenChange, cardNumbers }: { open: boolean; onOpenChange(open: boolean): void; cardNumbers: readonly string[] }) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step | null>(null);
  const [failure, setFailure] = useState<{ error: unknown; step: Step } | null>(null);
  // Taken back, still to erase (kept for "erase again").
  const pending = useRef<{ cardNumber: string; clear: { block: number; data: string }[]; openKeys: string[] } | null>(null);
  const [toErase, setToErase] = useState<string | null>(null);
  const takeBack = useMutation(trpc.card.return.mutationOptions({ meta: { showsErrors: true } }));
  const isBusy = step !== null;

  const finish = (cardNumber: string) => {
    pending.current = null;
    setToErase(null);
    toast.success(t('cards.guest.returned', { number: cardNumber }));
    onOpenChange(false);
  };

  const erase = async () => {
    const job = pending.current;
    if (!job) return;
    setStep('erasing');
    try {
      const reader = await desk.getReader();
      const { cardNumber } = await readCardOnReader(reader);
      if (cardNumber !== job.cardNumber) throw new DeskCardError('guest.eraseWrongCard', { number: job.cardNumber });
      await clearCardAtDesk(reader, job.clear, job.openKeys);
      await reader.beep().catch(() => undefined);
      finish(job.cardNumber);
    } catch (error) {
      setFailure({ error, step: 'erasing' });
    } finally {
      setStep(null);
    }
  };

  const run = async () => {
    if (isBusy) return;
    setFailure(null);
    if (pending.current) return erase();
    let at: Step = 'reading';
    setStep(at);
    try {
      const reader = await desk.getReader();
      const { cardNumber } = await readCardOnReader(reader);
      if (!cardNumbers.includes(cardNumber)) throw new DeskCardError('guest.notOfStay', { number: cardNumber });
      at = 'returning';
      setStep(at);
      const answer = await takeBack.mutateAsync({ cardNumber });
      void invalidateCards(queryClient);
      pending.current = { cardNumber, clear: answer.clear, openKeys: answer.openKeys };
      setToErase(cardNumber);
      at = 'erasing';
      setStep(at);
      await clearCardAtDesk(reader, answer.clear, answer.openKeys);
      await reader.beep().catch(() => undefined);
      finish(cardNumber);
    } catch (error) {
      setFailure({ error, step: at });
    } finally {
      setStep(null);
    }
  };

  const close = (next: boolean) => {
    if (next || isBusy) return;
    setFailure(null);
    if (pending.current) toast.error(t('cards.guest.notErased', { number: pending.current.cardNumber }));
    pending.current = null;
    setToErase(null);
    onOpenChange(false);
  };

  const at = STEPS.indexOf(step ?? failure?.step ?? 'reading');
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        closeLabel={isBusy ? undefined : t('common.close')}
        data-testid="return-card-dialog"
        onEscapeKeyDown={(event) => isBusy && event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <Undo2 className="size-5 rtl:-scale-x-100" aria-hidden />
            {t('cards.guest.returnTitle')}
          </DialogTitle>
          <DialogDescription>{t('cards.guest.returnText')}</DialogDescription>
        </DialogHeader>
        {toErase && (
          <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" role="status" data-testid="return-card-taken-back">
            {t('cards.guest.takenBackNotErased', { number: toErase })}
          </p>
        )}
        {(isBusy || failure) && (
          <ol className="grid gap-1 text-sm sm:grid-cols-3" aria-label={t('cards.write.stepsLabel')} data-testid="return-card-steps">
            {STEPS.map((s, i) => {
              const state = failure?.step === s ? 'failed' : i < at ? 'done' : i === at && step ? 'current' : 'todo';
              return (
                <li
                  key={s}
                  className={cn(
                    'flex items-center gap-1.5',
                    state === 'todo' && 'text-muted-foreground',
                    state === 'failed' && 'text-destructive',
                    state === 'current' && 'font-medium',
                  )}
                  data-testid={`return-card-step-${s}`}
                  data-state={state}
                >
                  {state === 'done' ? (
                    <Check className="size-4 text-emerald-600" aria-hidden />
                  ) : state === 'current' ? (
                    <Spinner />
                  ) : state === 'failed' ? (
                    <X className="size-4" aria-hidden />
                  ) : (
                    <CircleDashed className="size-4" aria-hidden />
                  )}
                  <span>{t(`cards.guest.steps.${s}`)}</span>
                </li>
              );
            })}
          </ol>
        )}
        {failure && <DeskErrorAlert error={failure.error} />}
        <DialogFooter>
          <Button variant="ghost" onClick={() => close(false)} disabled={isBusy} data-testid="return-card-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            variant={toErase ? 'default' : 'destructive'}
            onClick={() => void run()}
            disabled={isBusy}
            aria-busy={isBusy || undefined}
            data-testid="return-card-confirm"
          >
            {isBusy ? <Spinner /> : <CreditCard aria-hidden />}
            {t(toErase ? 'cards.guest.eraseAgain' : failure ? 'cards.write.retry' : 'cards.guest.returnConfirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
