import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, CreditCard, RefreshCw, ShieldOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { invalidateCards } from './api';
import { CardStateBadge, cardEndReasonText } from '@/components/card-state-badge';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DeliveryStatus, ValidityRange } from '@/components/delivery-state-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatList, formatShortDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';

export type CardIssue = RouterOutputs['card']['list']['items'][number];

/** A card's number as it is written everywhere ("No. 1234"), set apart from the text around it in either direction. */
export function CardNumber({ value }: { value: string }) {
  const { t } = useTranslation();
  return <span className="tabular-nums [unicode-bidi:isolate]">{t('cards.cardNumber', { number: value })}</span>;
}

/** The rooms a card opens, for the confirmations ("room 101", "all rooms"). */
export function roomsOf(card: CardIssue, t: (key: string, params?: Record<string, unknown>) => string): string {
  if (card.allRooms) return t('cards.allRooms');
  const names = card.grants.map((g) => g.roomName).filter(Boolean);
  return names.length ? names.join(', ') : (card.roomName ?? '—');
}

/** Where each lock of the card stands: a data card is on its locks once written; its end is taken to them (denylisted) by the delivery engine. */
function CardLocks({ card }: { card: CardIssue }) {
  const shown = card.grants.slice(0, 3);
  return (
    <ul className="grid gap-1.5">
      {shown.map((grant) => (
        <li key={grant.id} className="grid gap-0.5" data-testid={`card-grant-${grant.roomName}`} data-state={grant.deliveryState}>
          {card.grants.length > 1 || card.kind !== 'room' ? <span className="text-muted-foreground text-xs">{grant.roomName}</span> : null}
          <DeliveryStatus state={grant.deliveryState} lastError={grant.lastError} revokeReason={grant.revokeReason} />
        </li>
      ))}
      {card.grants.length > shown.length && <li className="text-muted-foreground text-xs">+{card.grants.length - shown.length}</li>}
      {card.grants.length === 0 && <li className="text-muted-foreground text-xs">—</li>}
    </ul>
  );
}

/**
 * Cards as a table: number and kind, holder, validity, state (why it ended; "needs rewriting", not
 * "issued", for a card its stay's renewal left at the old check-out), each lock's delivery state,
 * and the actions a card still issued has ("write now" when it needs rewriting, report lost,
 * revoke), each asked for by the caller (useCardActions).
 */
export function CardTable({
  cards,
  timeZone,
  label,
  canManage,
  actions,
  onRewrite,
}: {
  cards: CardIssue[];
  timeZone: string;
  label: string;
  canManage: boolean;
  actions: CardActions;
  onRewrite?(card: CardIssue): void;
}) {
  const { t } = useTranslation();
  // Only a card still issued has actions (history has none).
  const hasActions = canManage && cards.some((c) => c.state === 'issued');
  return (
    <Table aria-label={label} data-testid="card-table">
      <TableHeader>
        <TableRow>
          <TableHead>{t('cards.columns.card')}</TableHead>
          <TableHead>{t('cards.columns.holder')}</TableHead>
          <TableHead>{t('cards.columns.validity')}</TableHead>
          <TableHead>{t('cards.columns.state')}</TableHead>
          <TableHead>{t('cards.columns.locks')}</TableHead>
          {hasActions && <TableHead className="text-end">{t('common.actions')}</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {cards.map((card) => {
          const ended = cardEndReasonText(t, card.endReason);
          return (
            <TableRow key={card.id} data-testid={`card-row-${card.cardNumber}`} data-issue={card.id} data-state={card.state} data-rewrite={card.needsRewrite}>
              <TableCell className="align-top">
                <div className="flex items-center gap-1.5 font-medium">
                  <CreditCard className="text-muted-foreground size-4 shrink-0" aria-hidden />
                  <CardNumber value={card.cardNumber} />
                </div>
                <div className="mt-1 flex flex-wrap gap-1">
                  {card.kind !== 'room' && <Badge variant="secondary">{t(`cards.kinds.${card.kind}`)}</Badge>}
                  {card.duplicate && <Badge variant="outline">{t('cards.duplicate')}</Badge>}
                  {card.medium === 'number' && <Badge variant="outline">{t('cards.overTheAir')}</Badge>}
                </div>
              </TableCell>
              <TableCell className="max-w-48 align-top">
                <div className="truncate" dir="auto" title={card.holderName}>
                  {card.holderName || '—'}
                </div>
                {card.stayId !== null && <div className="text-muted-foreground text-xs">{t('credentials.holderStay', { id: card.stayId })}</div>}
                {card.note && (
                  <div className="text-muted-foreground truncate text-xs" dir="auto" title={card.note}>
                    {card.note}
                  </div>
                )}
              </TableCell>
              <TableCell className="align-top text-sm whitespace-nowrap tabular-nums">
                <ValidityRange from={card.validFrom} until={card.validUntil} timeZone={timeZone} />
              </TableCell>
              <TableCell className="align-top">
                <div className="grid gap-1">
                  <CardStateBadge state={card.state} needsRewrite={card.needsRewrite} missingDoors={card.missingDoors} />
                  {card.needsRewrite && (
                    <span className="text-xs text-amber-800" data-testid="card-needs-rewrite">
                      {card.missingDoors.length
                        ? t('cards.missingDoors', { doors: card.missingDoors.join(', ') })
                        : card.attendant?.rewriteReasons.length
                          ? t('cards.attendantRewrite', { reasons: formatList(card.attendant.rewriteReasons.map((r) => t(`housekeeping.card.reasons.${r}`))) })
                          : t('cards.needsRewrite')}
                    </span>
                  )}
                  {ended && card.state !== 'issued' && (
                    <span className="text-muted-foreground text-xs" data-testid="card-end-reason">
                      {ended}
                    </span>
                  )}
                  {card.endedAt && card.state !== 'issued' && (
                    <time className="text-muted-foreground text-xs tabular-nums" dateTime={card.endedAt}>
                      {formatShortDateTime(card.endedAt, timeZone)}
                    </time>
                  )}
                </div>
              </TableCell>
              <TableCell className="max-w-64 align-top">
                <CardLocks card={card} />
              </TableCell>
              {hasActions && (
                <TableCell className="text-end align-top whitespace-nowrap">
                  {card.state === 'issued' && (
                    <div className="inline-flex flex-wrap justify-end gap-1">
                      {card.needsRewrite && onRewrite && (
                        <Button
                          variant="outline"
                          size="sm"
                          className="h-7 px-2 text-xs"
                          onClick={() => onRewrite(card)}
                          data-testid={`card-${card.cardNumber}-rewrite`}
                        >
                          <RefreshCw aria-hidden />
                          {t('guestKeys.writeNow')}
                        </Button>
                      )}
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive hover:text-destructive h-7 px-2 text-xs"
                        onClick={() => actions.askLost(card)}
                        data-testid={`card-${card.cardNumber}-lost`}
                      >
                        <ShieldOff aria-hidden />
                        {t('cards.reportLost')}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive hover:text-destructive h-7 px-2 text-xs"
                        onClick={() => actions.askRevoke(card)}
                        data-testid={`card-${card.cardNumber}-revoke`}
                      >
                        <Ban aria-hidden />
                        {t('cards.revoke')}
                      </Button>
                    </div>
                  )}
                </TableCell>
              )}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

export interface CardActions {
  askLost(card: CardIssue): void;
  askRevoke(card: CardIssue): void;
  /** The confirmations, to render once. */
  dialogs: ReactNode;
}

/** "Report lost" and "Revoke", each confirmed first (the card stops opening its rooms for good, or until written again). */
export function useCardActions(): CardActions {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState<{ card: CardIssue; action: 'lost' | 'revoke' } | null>(null);
  const refresh = () => invalidateCards(queryClient);
  const lost = useMutation(
    trpc.card.reportLost.mutationOptions({
      onSuccess: (card) => {
        setAsked(null);
        toast.success(t('cards.reportedLost', { number: card.cardNumber }));
      },
      onSettled: () => void refresh(),
    }),
  );
  const revoke = useMutation(
    trpc.card.revoke.mutationOptions({
      onSuccess: (card) => {
        setAsked(null);
        toast.success(t('cards.revoked', { number: card.cardNumber }));
      },
      onSettled: () => void refresh(),
    }),
  );
  const card = asked?.card;
  const params = card ? { number: card.cardNumber, holder: card.holderName || '—', rooms: roomsOf(card, t) } : {};
  const dialogs = (
    <>
      <ConfirmDialog
        open={asked?.action === 'lost'}
        onOpenChange={(open) => !open && setAsked(null)}
        title={t('cards.reportLostTitle', params)}
        description={t('cards.reportLostText', params)}
        confirmLabel={t('cards.reportLost')}
        destructive
        pending={lost.isPending}
        onConfirm={() => card && lost.mutate({ issueId: card.id })}
        data-testid="card-lost-dialog"
        confirmTestId="card-lost-confirm"
      />
      <ConfirmDialog
        open={asked?.action === 'revoke'}
        onOpenChange={(open) => !open && setAsked(null)}
        title={t('cards.revokeTitle', params)}
        description={t('cards.revokeText', params)}
        confirmLabel={t('cards.revoke')}
        destructive
        pending={revoke.isPending}
        onConfirm={() => card && revoke.mutate({ issueId: card.id })}
        data-testid="card-revoke-dialog"
        confirmTestId="card-revoke-confirm"
      />
    </>
  );
  return { askLost: (c) => setAsked({ card: c, action: 'lost' }), askRevoke: (c) => setAsked({ card: c, action: 'revoke' }), dialogs };
}
