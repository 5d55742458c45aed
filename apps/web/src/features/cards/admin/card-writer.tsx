import { useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Check, Circle, CreditCard, RotateCcw, Undo2, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cardQueries, invalidateCards } from '../api';
import { cardNumberOfUid } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { Badge } from '@/components/ui/badge';
import { CardWriteFailure } from '@/components/card-write-failure';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useDeskReader } from '@/lib/desk-reader';
import { formatList } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterInputs, RouterOutputs } from '@/lib/trpc-types';
import { cn } from '@/lib/utils';
import type { CardReader } from '@/readers/types';
import { CardRooms, CardValidity } from './card-bits';

export type CardIssue = RouterOutputs['card']['get'];
export type ReserveInput = Omit<RouterInputs['card']['reserve'], 'uid'>;

/** The desk's steps in writing a card (apps/web/src/features/cards/card-writing.ts). */
export type WritingStep = 'reading' | 'preparing' | 'writing' | 'confirming';
const STEPS: readonly WritingStep[] = ['reading', 'preparing', 'writing', 'confirming'];

interface DeskCardWrite {
  issue: { id: number };
  sector: number;
  blocks: { block: number; data: string }[];
  trailer: { block: number; data: string };
  openKeys: string[];
}

interface DeskCardApi<Issue> {
  reserve(uid: string): Promise<DeskCardWrite>;
  confirm(input: { issueId: number; uid: string; blocks: { block: number; data: string }[] }): Promise<Issue>;
  voidReservation(input: { issueId: number }): Promise<unknown>;
}

/**
 * The desk's card writing (`writeCardAtDesk` of the front desk's cards feature): read the card on
 * the reader, reserve its data, write and read back, confirm. The route gives it to the pages
 * (a feature does not import another feature).
 */
export type WriteCardAtDesk = <Issue>(reader: CardReader, api: DeskCardApi<Issue>, onStep?: (step: WritingStep) => void) => Promise<Issue>;

/** The card on the reader is still issued: it is taken back before it is written again. */
class CardStillIssued extends Error {
  constructor(readonly issue: CardIssue) {
    super('card still issued');
  }
}

type WriterState =
  | { phase: 'idle' }
  | { phase: 'running'; step: WritingStep }
  | { phase: 'done'; issue: CardIssue }
  | { phase: 'failed'; step: WritingStep; error: unknown }
  | { phase: 'inUse'; issue: CardIssue };

interface CardWriterProps {
  writeCard: WriteCardAtDesk;
  /** What to reserve for the card on the reader, or null when the form is not ready (it shows why). */
  prepare(): ReserveInput | null;
  /** The write button's text. */
  label: string;
  disabled?: boolean;
  /** Why the button waits (shown under it). */
  disabledReason?: string;
  onIssued?(issue: CardIssue): void;
}

/**
 * "Write the card" of the card pages: the reader in use, the button, the four steps with their
 * progress, and the result: the card written (its number, rooms and validity), or why not (the
 * reader's text of spec §8, or the server's message); nothing is issued unless the card read back
 * exactly what was reserved. A card still issued (a guest's, a staff member's) is named, and can be
 * taken back and written again after a confirmation.
 */
export function CardWriter({ writeCard, prepare, label, disabled = false, disabledReason, onIssued }: CardWriterProps) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const queryClient = useQueryClient();
  const [state, setState] = useState<WriterState>({ phase: 'idle' });
  const [isTakeBackOpen, setIsTakeBackOpen] = useState(false);
  const running = useRef(false);
  const reserve = useMutation(trpc.card.reserve.mutationOptions({ meta: { showsErrors: true } }));
  const confirm = useMutation(trpc.card.confirm.mutationOptions({ meta: { showsErrors: true } }));
  const voidReservation = useMutation(trpc.card.voidReservation.mutationOptions({ meta: { showsErrors: true } }));
  const takeBack = useMutation(trpc.card.return.mutationOptions({ meta: { showsErrors: true } }));

  const run = async () => {
    if (running.current) {
      toast.error(t('readers.clickWhileReading'), { id: 'card-writer-busy' });
      return;
    }
    const input = prepare();
    if (!input) return;
    running.current = true;
    let step: WritingStep = 'reading';
    const onStep = (next: WritingStep) => {
      step = next;
      setState({ phase: 'running', step: next });
    };
    onStep('reading');
    try {
      const reader = await desk.getReader();
      const issue = await writeCard<CardIssue>(
        reader,
        {
          reserve: async (uid) => {
            // A card still issued is named before anything is reserved (the server would refuse it).
            const found = await queryClient.fetchQuery(cardQueries.lookupBeforeWriting(cardNumberOfUid(uid)));
            if (found.issue?.state === 'issued') throw new CardStillIssued(found.issue);
            return reserve.mutateAsync({ ...input, uid });
          },
          confirm: (value) => confirm.mutateAsync(value),
          voidReservation: (value) => voidReservation.mutateAsync(value),
        },
        onStep,
      );
      setState({ phase: 'done', issue });
      toast.success(t('cardAdmin.writer.written', { number: issue.cardNumber }));
      void invalidateCards(queryClient);
      onIssued?.(issue);
    } catch (error) {
      if (error instanceof CardStillIssued) setState({ phase: 'inUse', issue: error.issue });
      else setState({ phase: 'failed', step, error });
    } finally {
      running.current = false;
    }
  };

  const isRunning = state.phase === 'running';
  const reached = state.phase === 'running' || state.phase === 'failed' ? STEPS.indexOf(state.step) : state.phase === 'done' ? STEPS.length : -1;

  return (
    <div className="flex flex-col gap-4" data-testid="card-writer" data-phase={state.phase}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted-foreground">{t('cardAdmin.writer.reader')}</span>
        <span data-testid="card-writer-reader-type" data-address={desk.addresses[desk.type]}>
          {desk.typeLabel()}
        </span>
        {desk.simulated && <Badge variant="warning">{t('readers.simulated')}</Badge>}
      </div>
      <p className="text-muted-foreground text-sm">{t('cardAdmin.writer.putCard')}</p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          size="lg"
          onClick={() => void run()}
          disabled={disabled || isRunning}
          aria-describedby={disabled && disabledReason ? 'card-writer-disabled' : undefined}
          data-testid="card-writer-write"
        >
          {isRunning ? <Spinner /> : <CreditCard aria-hidden />}
          {label}
        </Button>
        {(state.phase === 'done' || state.phase === 'failed') && (
          <Button variant="outline" onClick={() => setState({ phase: 'idle' })} data-testid="card-writer-again">
            <RotateCcw aria-hidden />
            {state.phase === 'done' ? t('cardAdmin.writer.another') : t('cardAdmin.writer.dismiss')}
          </Button>
        )}
      </div>
      {disabled && disabledReason && (
        <p id="card-writer-disabled" className="text-muted-foreground text-sm">
          {disabledReason}
        </p>
      )}

      {reached >= 0 && (
        <ol className="grid grid-cols-2 gap-2" aria-label={t('cardAdmin.writer.progress')} data-testid="card-writer-steps">
          {STEPS.map((s, i) => {
            const status =
              i < reached ? 'done' : i === reached ? (state.phase === 'failed' ? 'failed' : state.phase === 'running' ? 'current' : 'done') : 'waiting';
            return (
              <li
                key={s}
                className={cn(
                  'flex items-center gap-2 rounded-md border px-3 py-2 text-sm',
                  status === 'current' && 'border-primary bg-primary/5 font-medium',
                  status === 'failed' && 'border-destructive/50 bg-destructive/5 text-destructive',
                  status === 'waiting' && 'text-muted-foreground',
                )}
                aria-current={status === 'current' ? 'step' : undefined}
                data-testid={`card-writer-step-${s}`}
                data-status={status}
              >
                {status === 'done' && <Check className="text-success size-4 shrink-0" aria-hidden />}
                {status === 'current' && <Spinner className="size-4 shrink-0" />}
                {status === 'failed' && <X className="size-4 shrink-0" aria-hidden />}
                {status === 'waiting' && <Circle className="size-4 shrink-0 opacity-40" aria-hidden />}
                <span>{t(`cardAdmin.writer.steps.${s}`)}</span>
              </li>
            );
          })}
        </ol>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {state.phase === 'running'
          ? t(`cardAdmin.writer.steps.${state.step}`)
          : state.phase === 'done'
            ? t('cardAdmin.writer.written', { number: state.issue.cardNumber })
            : ''}
      </p>

      {state.phase === 'failed' && <CardWriteFailure error={state.error} outcome={t('cardAdmin.writer.notIssued')} testId="card-writer-error" />}
      {state.phase === 'done' && <WrittenCard issue={state.issue} />}
      {state.phase === 'inUse' && (
        <div role="alert" className="border-warning bg-warning/10 flex flex-col gap-3 rounded-md border px-3 py-3 text-sm" data-testid="card-writer-in-use">
          <p className="flex items-start gap-2 font-medium">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('cardAdmin.writer.inUse', { number: state.issue.cardNumber, what: cardHolderText(t, state.issue) })}
          </p>
          <p className="text-muted-foreground">{t('cardAdmin.writer.inUseText')}</p>
          <div>
            <Button
              variant="outline"
              onClick={() => {
                takeBack.reset();
                setIsTakeBackOpen(true);
              }}
              data-testid="card-writer-take-back"
            >
              <Undo2 aria-hidden />
              {t('cardAdmin.writer.takeBack')}
            </Button>
          </div>
        </div>
      )}

      <ConfirmDialog
        open={isTakeBackOpen && state.phase === 'inUse'}
        onOpenChange={(open) => !open && setIsTakeBackOpen(false)}
        title={t('cardAdmin.writer.takeBackTitle')}
        description={
          state.phase === 'inUse' ? t('cardAdmin.writer.takeBackText', { number: state.issue.cardNumber, what: cardHolderText(t, state.issue) }) : ''
        }
        confirmLabel={t('cardAdmin.writer.takeBackConfirm')}
        destructive
        pending={takeBack.isPending}
        onConfirm={() => {
          if (state.phase !== 'inUse') return;
          takeBack.mutate(
            { cardNumber: state.issue.cardNumber },
            {
              onSuccess: () => {
                setIsTakeBackOpen(false);
                toast.success(t('cardAdmin.writer.takenBack', { number: state.issue.cardNumber }));
                void invalidateCards(queryClient);
                void run();
              },
            },
          );
        }}
        data-testid="card-writer-take-back-dialog"
        confirmTestId="card-writer-take-back-confirm"
      >
        <FormError error={takeBack.error} safeToRetry={false} />
      </ConfirmDialog>
    </div>
  );
}

/** Who or what a card is for, in a few words: the guest and room, or the note and rooms. */
export function cardHolderText(t: (key: string, options?: Record<string, unknown>) => string, issue: CardIssue): string {
  const kind = t(`cardAdmin.kinds.${issue.kind}`);
  const rooms = issue.allRooms
    ? t('cardAdmin.allRooms')
    : formatList(issue.grants.length ? issue.grants.map((g) => g.roomName) : issue.roomName ? [issue.roomName] : []);
  const holder = issue.holderName || issue.note;
  return [kind, rooms, holder].filter(Boolean).join(' · ');
}

/** The card just written: its number, kind, rooms and validity. */
function WrittenCard({ issue }: { issue: CardIssue }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  return (
    <div
      role="status"
      className="border-success/50 bg-success/5 flex flex-col gap-2 rounded-md border px-3 py-3 text-sm"
      data-testid="card-writer-done"
      data-card-number={issue.cardNumber}
      data-issue-id={issue.id}
    >
      <p className="flex items-center gap-2 font-medium">
        <Check className="text-success size-4" aria-hidden />
        {t('cardAdmin.writer.written', { number: issue.cardNumber })}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted-foreground">{t('cardAdmin.columns.number')}</dt>
        <dd data-testid="card-writer-number">
          <span className="font-mono tabular-nums" dir="ltr">
            {issue.cardNumber}
          </span>
        </dd>
        <dt className="text-muted-foreground">{t('cardAdmin.columns.kind')}</dt>
        <dd>{t(`cardAdmin.kinds.${issue.kind}`)}</dd>
        <dt className="text-muted-foreground">{t('cardAdmin.columns.rooms')}</dt>
        <dd data-testid="card-writer-rooms">
          <CardRooms issue={issue} />
        </dd>
        {(issue.holderName || issue.note) && (
          <>
            <dt className="text-muted-foreground">{issue.stayId ? t('cardAdmin.columns.guest') : t('cardAdmin.columns.note')}</dt>
            <dd>
              <bdi>{issue.holderName || issue.note}</bdi>
            </dd>
          </>
        )}
        <dt className="text-muted-foreground">{t('cardAdmin.columns.validity')}</dt>
        <dd>
          <CardValidity from={issue.validFrom} until={issue.validUntil} timeZone={timeZone} />
        </dd>
      </dl>
    </div>
  );
}
