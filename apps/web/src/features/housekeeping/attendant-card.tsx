import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, Check, CreditCard } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CardWriteFailure } from '@/components/card-write-failure';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useDeskReader } from '@/lib/desk-reader';
import { formatList } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { currentLanguage } from '@/lib/language';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { cn } from '@/lib/utils';
import type { CardReader } from '@/readers/types';
import { housekeepingKey, type Attendant, type AttendantCard } from './api';
import { hotelTime } from './task-times';

type WritingStep = 'reading' | 'preparing' | 'writing' | 'confirming';
const STEPS: readonly WritingStep[] = ['reading', 'preparing', 'writing', 'confirming'];
type CardIssued = RouterOutputs['card']['confirm'];

interface DeskCardApi<Issue> {
  reserve(uid: string): Promise<{
    issue: { id: number };
    sector: number;
    blocks: { block: number; data: string }[];
    trailer: { block: number; data: string };
    openKeys: string[];
  }>;
  confirm(input: { issueId: number; uid: string; blocks: { block: number; data: string }[] }): Promise<Issue>;
  voidReservation(input: { issueId: number }): Promise<unknown>;
}

/**
 * The desk's card writing (`writeCardAtDesk` of the cards feature): read the card on the reader,
 * reserve its data, write and read back, confirm. The route gives it to the page (a feature does
 * not import another feature).
 */
export type WriteCardAtDesk = <Issue>(reader: CardReader, api: DeskCardApi<Issue>, onStep?: (step: WritingStep) => void) => Promise<Issue>;

/**
 * An attendant's card on the supervisor's page (docs/housekeeping-keys.md "Cards"): the card she
 * holds for the day (its number, until when, the rooms it opens) or why it must be written again,
 * and "Write card", which writes the card on the desk reader for her rooms and shift as the server
 * reads them from the rota.
 */
export function AttendantCardLine({
  attendant,
  day,
  card,
  writeCard,
}: {
  attendant: Attendant;
  day: string;
  card: AttendantCard | undefined;
  writeCard: WriteCardAtDesk;
}) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const [isOpen, setIsOpen] = useState(false);
  // The moment the page was drawn (the live feed redraws it on every change of the rota).
  const [now] = useState(() => Date.now());
  const shiftOver = attendant.shift !== null && new Date(attendant.shift.endsAt).getTime() <= now;
  if (!attendant.shift || (shiftOver && !card)) return null;
  const time = (iso: string) => hotelTime(iso, timeZone, currentLanguage().header);
  const reasons = card?.rewriteReasons ?? [];
  const needsRewrite = reasons.length > 0 || card?.state === 'ended';
  return (
    <div
      className="mb-2 space-y-1 text-sm"
      data-testid={`hk-card-${attendant.membershipId}`}
      data-state={card ? (needsRewrite ? 'rewrite' : card.state) : 'none'}
    >
      {card && (
        <p className={cn('flex items-center gap-1', needsRewrite && 'text-warning-foreground')} data-testid="hk-card-state">
          <CreditCard className="size-4 shrink-0" aria-hidden />
          <span>
            {card.state === 'ended'
              ? t('housekeeping.card.ended', { number: card.cardNumber })
              : t('housekeeping.card.issued', { number: card.cardNumber, until: card.validUntil ? time(card.validUntil) : '' })}
            {card.state === 'issued' && card.rooms.length > 0 && <> · {t('housekeeping.card.rooms', { rooms: formatList(card.rooms.map((r) => r.name)) })}</>}
          </span>
        </p>
      )}
      {needsRewrite && (
        <p className="text-destructive" data-testid="hk-card-rewrite">
          {t('housekeeping.card.needsRewrite', {
            reasons: formatList((reasons.length ? reasons : (['shift_changed'] as const)).map((r) => t(`housekeeping.card.reasons.${r}`))),
          })}
        </p>
      )}
      {!shiftOver && (
        <Button size="sm" variant={needsRewrite ? 'default' : 'outline'} onClick={() => setIsOpen(true)} data-testid="hk-card-write">
          <CreditCard aria-hidden />
          {card ? t('housekeeping.card.writeAgain') : t('housekeeping.card.write')}
        </Button>
      )}
      {isOpen && <AttendantCardDialog attendant={attendant} day={day} writeCard={writeCard} onClose={() => setIsOpen(false)} />}
    </div>
  );
}

type DialogState =
  | { phase: 'idle' }
  | { phase: 'running'; step: WritingStep }
  | { phase: 'done'; issue: CardIssued }
  | { phase: 'failed'; step: WritingStep; error: unknown };

/** Writes her card on the desk reader: the four steps, then the card written or why not (nothing is issued unless it read back). */
function AttendantCardDialog({ attendant, day, writeCard, onClose }: { attendant: Attendant; day: string; writeCard: WriteCardAtDesk; onClose(): void }) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const [state, setState] = useState<DialogState>({ phase: 'idle' });
  const reserve = useMutation(trpc.housekeeping.reserveCard.mutationOptions());
  const confirm = useMutation(trpc.card.confirm.mutationOptions());
  const giveUp = useMutation(trpc.card.voidReservation.mutationOptions());
  const isRunning = state.phase === 'running';

  const run = async () => {
    if (isRunning) return;
    let step: WritingStep = 'reading';
    const onStep = (next: WritingStep) => {
      step = next;
      setState({ phase: 'running', step: next });
    };
    onStep('reading');
    try {
      const reader = await desk.getReader();
      const issue = await writeCard<CardIssued>(
        reader,
        {
          reserve: (uid) => reserve.mutateAsync({ membershipId: attendant.membershipId, day, uid }),
          confirm: (value) => confirm.mutateAsync(value),
          voidReservation: (value) => giveUp.mutateAsync(value),
        },
        onStep,
      );
      setState({ phase: 'done', issue });
      toast.success(t('housekeeping.card.written', { number: issue.cardNumber }));
    } catch (error) {
      setState({ phase: 'failed', step, error });
    } finally {
      void queryClient.invalidateQueries({ queryKey: housekeepingKey() });
    }
  };

  const reached = state.phase === 'running' || state.phase === 'failed' ? STEPS.indexOf(state.step) : state.phase === 'done' ? STEPS.length : -1;
  const time = (iso: string) => hotelTime(iso, timeZone, currentLanguage().header);
  return (
    <Dialog open onOpenChange={(open) => !open && !isRunning && onClose()}>
      <DialogContent data-testid="hk-card-dialog" data-phase={state.phase}>
        <DialogHeader>
          <DialogTitle>{t('housekeeping.card.title', { name: attendant.name })}</DialogTitle>
          <DialogDescription>{t('housekeeping.card.explain')}</DialogDescription>
        </DialogHeader>
        <ol className="space-y-1 text-sm" aria-label={t('cardAdmin.writer.progress')}>
          {STEPS.map((s, i) => {
            const status =
              i < reached ? 'done' : i === reached ? (state.phase === 'failed' ? 'failed' : state.phase === 'running' ? 'current' : 'done') : 'waiting';
            return (
              <li
                key={s}
                className={cn('flex items-center gap-2', status === 'waiting' && 'text-muted-foreground', status === 'failed' && 'text-destructive')}
                data-status={status}
              >
                {status === 'done' && <Check className="size-4" aria-hidden />}
                {status === 'current' && <Spinner className="size-4" />}
                {status === 'failed' && <AlertCircle className="size-4" aria-hidden />}
                {status === 'waiting' && <span className="size-4" aria-hidden />}
                {t(`cardAdmin.writer.steps.${s}`)}
              </li>
            );
          })}
        </ol>
        {state.phase === 'done' && (
          <div className="rounded-md border px-3 py-2 text-sm" role="status" data-testid="hk-card-written">
            <p className="font-medium">{t('housekeeping.card.written', { number: state.issue.cardNumber })}</p>
            <p>{t('housekeeping.card.rooms', { rooms: formatList(state.issue.grants.map((g) => g.roomName)) })}</p>
            <p>{t('housekeeping.card.hours', { from: time(state.issue.validFrom), until: state.issue.validUntil ? time(state.issue.validUntil) : '' })}</p>
          </div>
        )}
        {state.phase === 'failed' && <CardWriteFailure error={state.error} outcome={t('housekeeping.card.failed')} testId="hk-card-error" />}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={isRunning}>
            {t('common.close')}
          </Button>
          {state.phase !== 'done' && (
            <Button onClick={() => void run()} disabled={isRunning} data-testid="hk-card-dialog-write" autoFocus>
              {isRunning && <Spinner />}
              {state.phase === 'failed' ? t('housekeeping.card.tryAgain') : t('housekeeping.card.write')}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
