import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cardNumberOfUid } from '@console/shared';
import { useDeskReader } from '@/lib/desk-reader';
import type { RoomCardMode, RoomCardRequest } from '@/lib/room-cards';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import type { CardReader } from '@/readers/types';
import { cardQueries, invalidateCards, invalidateDispensers } from './api';
import { DispensedCardFailure, writeCardAtDesk, writeDispensedCardAtDesk, type CardWritingApi, type DispensedWritingStep } from './card-writing';
import { DeskCardError } from './desk-errors';

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
export type Failure = { error: unknown; step: DispensedWritingStep; dispensed?: { captured: true } | { captured: false; captureError: unknown } };

export type Slot = { status: 'waiting' } | { status: 'written'; uid: string; cardNumber: string } | { status: 'skipped' };

/**
 * The writing of a stay's room cards at the desk, one after the other (see CardWritingDialog): the
 * cards and where each stands, the card being written and its step, the last failure, the first
 * card's mode (asked when the stay has cards), the dispenser or the hand, and the actions (write the
 * current card, skip it, close). `primary` is the button to press next, which has the focus.
 */
export function useCardWriting(request: RoomCardRequest, onClose: () => void) {
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

  // Once every card is done, "Done" closes at once: what may still run is the dispenser's stock
  // report after the last card, which the desk need not wait for (a click on "Done" meanwhile did
  // nothing, met by the browser test under load).
  const close = () => {
    if (isBusy && !isFinished) return;
    void invalidateCards(queryClient);
    onClose();
  };

  const isNewOverCards = isChoosing && written.length === 0 && chosen === 'new';

  return {
    desk,
    count,
    slots,
    index,
    step,
    failure,
    isBusy,
    primary,
    isChoosing,
    isWaitingForChoice,
    chosen,
    setChosen,
    hasDispenser,
    fromDispenser,
    chooseDispenser,
    written,
    isFinished,
    isNewOverCards,
    write,
    skip,
    close,
  };
}

export type CardWriting = ReturnType<typeof useCardWriting>;
