import { useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreditCard } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { cardQueries, invalidateCards } from './api';
import { DeskErrorAlert } from './desk-error-alert';

/** Where this computer keeps the encoder the desk last encoded on. */
const ENCODER_KEY = 'cardEncoder';

function storedEncoder(): string | null {
  try {
    return window.localStorage.getItem(ENCODER_KEY);
  } catch {
    return null;
  }
}

function storeEncoder(id: string) {
  try {
    window.localStorage.setItem(ENCODER_KEY, id);
  } catch {
    // Storage refused (private mode): the choice holds for this dialog only.
  }
}

export interface EncodeCardDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  room: { id: number; name: string };
  stay: { id: number; guestName: string };
  /** How many cards the desk asked for (the check-in's room cards): encoded one after the other. */
  count?: number;
  /** The stay's issued card this encoding replaces (a renewed stay's card, encoded again for its new check-out). */
  replaces?: number;
}

/**
 * A room card of a hotel card system (Seam `acs`: ASSA ABLOY Visionline, Salto, dormakaba;
 * docs/seam.md "Card systems"), encoded at the desk: the clerk places a card on one of the system's
 * encoders (the one this computer used last is chosen again) and presses Encode; the system writes
 * it for the stay's room (and the card-system doors serving it) until check-out. While it works the
 * dialog stays open; a refusal (no card on the encoder, a card of the wrong kind, the card taken off
 * too soon, the system unreachable) is said in the dialog and Encode can be pressed again. Several
 * cards asked for are encoded one after the other, the dialog saying how many are done.
 */
export function EncodeCardDialog({ open, onOpenChange, room, stay, count = 1, replaces }: EncodeCardDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const selectId = useId();
  const encoders = useQuery(cardQueries.encoders(room.id, open));
  const [chosen, setChosen] = useState<string | null>(storedEncoder);
  const [done, setDone] = useState<string[]>([]);
  const items = encoders.data?.items ?? [];
  const encoderId = items.some((e) => e.id === chosen) ? chosen! : (items[0]?.id ?? null);
  const encode = useMutation(
    trpc.card.encode.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (card) => {
        toast.success(t('cards.encode.done', { number: card.cardNumber, room: room.name }));
        if (done.length + 1 >= count) return onOpenChange(false);
        setDone([...done, card.cardNumber]);
      },
      onSettled: () => void invalidateCards(queryClient),
    }),
  );
  const isBusy = encode.isPending;
  // Encode has the focus whenever it can be pressed (Enter encodes, or encodes again after a refusal):
  // it is disabled until an encoder is there and while the system encodes.
  const runRef = useRef<HTMLButtonElement>(null);
  const canRun = encoderId !== null && !isBusy;
  useEffect(() => {
    if (canRun) runRef.current?.focus();
  }, [canRun]);

  const run = () => {
    if (isBusy || !encoderId) return;
    storeEncoder(encoderId);
    encode.mutate({ stayId: stay.id, encoderId, ...(replaces === undefined ? {} : { replaces }) });
  };

  const close = (next: boolean) => {
    if (next || isBusy) return;
    encode.reset();
    onOpenChange(false);
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        closeLabel={isBusy ? undefined : t('common.close')}
        data-testid="encode-card-dialog"
        onEscapeKeyDown={(event) => isBusy && event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <CreditCard className="size-5" aria-hidden />
            {t('cards.encode.title', { room: room.name })}
          </DialogTitle>
          <DialogDescription>{t('cards.encode.text', { guest: stay.guestName || t('cards.encode.theGuest') })}</DialogDescription>
        </DialogHeader>
        {count > 1 && (
          <p className="text-sm font-medium" role="status" data-testid="encode-card-progress" data-done={done.length}>
            {done.length === 0 ? t('cards.encode.cards', { count }) : t('cards.encode.next', { done: done.length, count })}
          </p>
        )}
        {encoders.isPending ? (
          <p className="text-muted-foreground flex items-center gap-2 text-sm" role="status" data-testid="encode-card-loading">
            <Spinner />
            {t('cards.encode.loadingEncoders')}
          </p>
        ) : encoders.isError ? (
          <DeskErrorAlert error={encoders.error} testId="encode-card-encoders-error" />
        ) : items.length === 0 ? (
          <p className="text-muted-foreground text-sm" data-testid="encode-card-no-encoder">
            {t('cards.encode.noEncoder')}
          </p>
        ) : (
          <div className="grid gap-1.5">
            <Label htmlFor={selectId}>{t('cards.encode.encoder')}</Label>
            <NativeSelect
              id={selectId}
              value={encoderId ?? ''}
              onChange={(event) => setChosen(event.target.value)}
              disabled={isBusy}
              wrapperClassName="w-full"
              data-testid="encode-card-encoder"
            >
              {items.map((e) => (
                <NativeSelectOption key={e.id} value={e.id}>
                  {e.name || e.id}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
        )}
        {isBusy && (
          <p className="flex items-center gap-2 text-sm font-medium" role="status" data-testid="encode-card-busy">
            <Spinner />
            {t('cards.encode.busy')}
          </p>
        )}
        {encode.isError && !isBusy && <DeskErrorAlert error={encode.error} testId="encode-card-error" />}
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)} disabled={isBusy}>
            {t('common.cancel')}
          </Button>
          <Button ref={runRef} onClick={run} disabled={isBusy || !encoderId} data-testid="encode-card-run">
            {isBusy ? <Spinner /> : <CreditCard aria-hidden />}
            {encode.isError ? t('cards.encode.again') : t('cards.encode.run')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
