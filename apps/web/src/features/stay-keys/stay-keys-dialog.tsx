import { useEffect, useRef, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreditCard, KeyRound, RefreshCw, ScanFace, ShieldAlert, TriangleAlert, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TDeliveryState } from '@console/shared';
import { DeliveryStatus, DeliveryStateBadge, ValidityRange } from '@/components/delivery-state-badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import type { CredentialMove, GuestKeysRequest } from '@/lib/stay-keys';
import { useHotelSettings } from '@/lib/hotel-settings';
import { requestRoomCards, useRoomCardRequest } from '@/lib/room-cards';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { guestKeyQueries, invalidatePasswords } from './api';

type StayKeys = RouterOutputs['stay']['keys'];
type Card = StayKeys['cards'][number];

/** A card's state with its locks: a written card is on them once written (green "issued" only then); one sent over the air as its lock confirmed it. */
function cardState(card: Card): TDeliveryState {
  return card.grants[0]?.deliveryState ?? 'pending';
}

/**
 * What the guest holds after a check-in, a room change or a renewal (issue 17 §2), shown once
 * (lib/stay-keys.ts): each code (in full: the desk gives it to the guest), card and face of the
 * stay with its validity and where it stands with its lock, followed every 1.5 s until every lock
 * has answered; what a room change did with each credential (the same code, a new generated code,
 * a code the new lock already holds, a room whose lock cannot take it); the cards written for the
 * old room, now ended, with the writing of the new room's cards a press away; written cards a
 * renewal left at the old check-out ("needs rewriting", "write now"). Nothing to show (a check-in
 * or renewal of a stay without any key): nothing is shown.
 */
export function GuestKeysDialog({ request, onClose }: { request: GuestKeysRequest; onClose(): void }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const queryClient = useQueryClient();
  const canManage = hasPermission(useUserInfo(), 'credential.manage');
  const keys = useQuery(guestKeyQueries.keys(request.stayId));
  const data = keys.data;
  const moves = request.moves ?? [];
  const endedCards = moves.filter((m) => m.outcome === 'ended');
  const hasNotes = moves.length > 0 || (request.writeCards?.count ?? 0) > 0 || (request.replacedCodes ?? 0) > 0;
  const holdsAnything = data !== undefined && data.passwords.length + data.faces.length + data.cards.length > 0;
  // A change that left the guest nothing to hold, and nothing to say: no dialog.
  const isEmpty = !hasNotes && data !== undefined && !holdsAnything;
  useEffect(() => {
    if (isEmpty) onClose();
  }, [isEmpty, onClose]);
  const isShown = hasNotes || holdsAnything || (keys.isError && !data);

  // The check-in's cards are written next, in the card-writing dialog above this one.
  const askedCards = useRef(false);
  useEffect(() => {
    if (!isShown || askedCards.current || !request.writeCards || request.writeCards.count < 1) return;
    askedCards.current = true;
    requestRoomCards({
      stayId: request.stayId,
      roomId: request.roomId,
      roomName: request.roomName,
      holderName: request.holderName,
      count: request.writeCards.count,
      mode: request.writeCards.mode,
    });
  }, [isShown, request]);

  // A card written (or written again) in the card-writing dialog: the view shows it when that dialog is done.
  const cardRequest = useRoomCardRequest();
  const wasWriting = useRef(false);
  useEffect(() => {
    if (cardRequest) wasWriting.current = true;
    else if (wasWriting.current) {
      wasWriting.current = false;
      void keys.refetch();
    }
  }, [cardRequest, keys]);

  const refresh = () => {
    void keys.refetch();
    void invalidatePasswords(queryClient);
  };
  // A code the new lock would not take: the desk may choose a generated one instead (never swapped unasked).
  const issueGenerated = useMutation(
    trpc.password.create.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (password) => toast.success(t('guestKeys.generatedIssued', { holder: password.holderName })),
      onSettled: refresh,
    }),
  );
  const offerGenerated = () => canManage && !issueGenerated.isPending && issueGenerated.mutate({ roomId: request.roomId, stayId: request.stayId, kind: 'air' });

  const writeNewCards = () =>
    requestRoomCards({
      stayId: request.stayId,
      roomId: request.roomId,
      roomName: request.roomName,
      holderName: request.holderName,
      count: Math.max(1, endedCards.length),
      mode: 'new',
    });
  const rewrite = (card: Card) =>
    requestRoomCards({
      stayId: request.stayId,
      roomId: request.roomId,
      roomName: request.roomName,
      holderName: card.holderName,
      count: 1,
      mode: 'duplicate',
      rewrite: { issueId: card.id, cardNumber: card.cardNumber },
    });

  if (!isShown) return null;
  const room = request.roomName;
  const title =
    request.after === 'room_change'
      ? t('guestKeys.titleRoomChange', { room })
      : request.after === 'renewal'
        ? t('guestKeys.titleRenewal', { room })
        : t('guestKeys.titleCheckIn', { room, guest: request.holderName || '—' });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        closeLabel={t('common.close')}
        className="sm:max-w-2xl"
        data-testid="guest-keys-dialog"
        data-after={request.after}
        aria-busy={keys.isLoading || undefined}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <KeyRound className="size-5" aria-hidden />
            {title}
          </DialogTitle>
          <DialogDescription>{t('guestKeys.description')}</DialogDescription>
        </DialogHeader>

        <Notes
          request={request}
          moves={moves}
          canManage={canManage}
          onWriteCards={writeNewCards}
          onIssueGenerated={offerGenerated}
          issuing={issueGenerated.isPending}
        />

        {data?.lock === null && (
          <p
            className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
            role="alert"
            data-testid="guest-keys-no-lock"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('guestKeys.noLock', { room })}
          </p>
        )}
        {data?.lock?.gone && (
          <p
            className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
            role="alert"
            data-testid="guest-keys-lock-gone"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('guestKeys.lockGone', { room })}
          </p>
        )}

        {keys.isLoading ? (
          <div className="grid gap-2" role="status" aria-label={t('common.loading')}>
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : keys.isError && !data ? (
          <p className="text-destructive text-sm" role="alert">
            {t('common.loadFailed', { what: t('guestKeys.loadWhat') })}
          </p>
        ) : data && !holdsAnything ? (
          <p className="text-muted-foreground text-sm" data-testid="guest-keys-none">
            {t('guestKeys.none')}
          </p>
        ) : data ? (
          <div className="grid gap-4" aria-live="polite">
            {data.passwords.length > 0 && (
              <KeySection id="guest-keys-codes" icon={KeyRound} title={t('guestKeys.codes')}>
                {data.passwords.map((p) => {
                  const move = moves.find((m) => m.kind === 'password' && m.toId === p.id);
                  const isRefused = p.deliveryState === 'failed' && p.lastError === 'duplicate_code';
                  return (
                    <li
                      key={p.id}
                      className="grid gap-1.5 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto]"
                      data-testid={`guest-keys-password-${p.id}`}
                      data-state={p.deliveryState}
                    >
                      <div className="grid gap-1">
                        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                          <span className="font-medium">{t(`credentials.kinds.${p.kind}`)}</span>
                          {p.code ? (
                            <span className="font-mono text-lg tracking-widest tabular-nums" dir="ltr" data-testid={`guest-keys-code-${p.id}`}>
                              {p.code}
                            </span>
                          ) : (
                            <span className="text-muted-foreground text-xs" data-testid={`guest-keys-code-${p.id}`}>
                              {p.deliveryState === 'pending' ? t('guestKeys.codePending') : '—'}
                            </span>
                          )}
                          <span className="text-muted-foreground truncate" dir="auto">
                            {p.holderName}
                          </span>
                        </div>
                        <span className="text-muted-foreground text-xs tabular-nums">
                          <ValidityRange from={p.validFrom} until={p.validUntil} timeZone={timeZone} />
                        </span>
                        {(move?.outcome === 'new_code' || (request.after !== 'room_change' && p.replacesId !== null)) && (
                          <span className="text-xs font-medium text-amber-800" data-testid={`guest-keys-password-${p.id}-new`}>
                            {t('guestKeys.newCode')}
                          </span>
                        )}
                        {move?.outcome === 'same_code' && (
                          <span className="text-muted-foreground text-xs">{t('guestKeys.sameCode', { from: request.fromRoomName ?? '' })}</span>
                        )}
                        {p.validityAdjusted && <span className="text-xs text-amber-800">{t('credentials.validityAdjusted')}</span>}
                      </div>
                      <div className="grid content-start gap-1.5 sm:justify-items-end">
                        <DeliveryStatus state={p.deliveryState} lastError={p.lastError} errorTestId={`guest-keys-password-${p.id}-error`} />
                        {isRefused && canManage && (
                          <Button
                            variant="outline"
                            size="sm"
                            className="h-7 px-2 text-xs"
                            onClick={offerGenerated}
                            disabled={issueGenerated.isPending}
                            data-testid={`guest-keys-password-${p.id}-generated`}
                          >
                            <RefreshCw aria-hidden />
                            {t('guestKeys.issueGenerated')}
                          </Button>
                        )}
                      </div>
                    </li>
                  );
                })}
              </KeySection>
            )}

            {data.cards.length > 0 && (
              <KeySection id="guest-keys-cards" icon={CreditCard} title={t('guestKeys.cards')}>
                {data.cards.map((card) => (
                  <li
                    key={card.id}
                    className="grid gap-1.5 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto]"
                    data-testid={`guest-keys-card-${card.cardNumber}`}
                    data-rewrite={card.needsRewrite}
                  >
                    <div className="grid gap-1">
                      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                        <span className="font-medium tabular-nums [unicode-bidi:isolate]">{t('guestKeys.cardNumber', { number: card.cardNumber })}</span>
                        <span className="text-muted-foreground text-xs">{t(card.medium === 'number' ? 'guestKeys.overTheAir' : 'guestKeys.writtenCard')}</span>
                      </div>
                      <span className="text-muted-foreground text-xs tabular-nums">
                        <ValidityRange from={card.validFrom} until={card.validUntil} timeZone={timeZone} />
                      </span>
                    </div>
                    <div className="grid content-start gap-1.5 sm:justify-items-end">
                      {card.needsRewrite ? (
                        <>
                          <NeedsRewriting />
                          {canManage && (
                            <Button
                              variant="outline"
                              size="sm"
                              className="h-7 px-2 text-xs"
                              onClick={() => rewrite(card)}
                              data-testid={`guest-keys-card-${card.cardNumber}-rewrite`}
                            >
                              <RefreshCw aria-hidden />
                              {t('guestKeys.writeNow')}
                            </Button>
                          )}
                        </>
                      ) : (
                        <DeliveryStatus state={cardState(card)} lastError={card.grants[0]?.lastError ?? null} />
                      )}
                    </div>
                  </li>
                ))}
              </KeySection>
            )}

            {data.faces.length > 0 && (
              <KeySection id="guest-keys-faces" icon={ScanFace} title={t('guestKeys.faces')}>
                {data.faces.map((f) => (
                  <li
                    key={f.id}
                    className="grid gap-1.5 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto]"
                    data-testid={`guest-keys-face-${f.id}`}
                    data-state={f.deliveryState}
                  >
                    <div className="grid gap-1">
                      <span className="font-medium" dir="auto">
                        {f.face.faceId} · {f.face.note}
                      </span>
                      <span className="text-muted-foreground text-xs tabular-nums">
                        <ValidityRange from={f.validFrom} until={f.validUntil} timeZone={timeZone} />
                      </span>
                    </div>
                    <DeliveryStatus state={f.deliveryState} lastError={f.lastError} />
                  </li>
                ))}
              </KeySection>
            )}

            {data.movedFrom && data.movedFrom.passwords.length + data.movedFrom.faces.length + data.movedFrom.cards.length > 0 && (
              <TakenOff old={data.movedFrom} />
            )}
          </div>
        ) : null}

        <DialogFooter>
          <Button onClick={onClose} data-testid="guest-keys-close" autoFocus>
            {t('common.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** "Needs rewriting": a written card still ending at the old check-out (never a green "issued"). */
function NeedsRewriting() {
  const { t } = useTranslation();
  return (
    <span
      className="inline-flex w-fit items-center gap-1.5 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900"
      data-testid="guest-keys-needs-rewrite"
      title={t('cards.needsRewrite')}
    >
      <ShieldAlert className="size-3" aria-hidden />
      {t('guestKeys.needsRewriting')}
    </span>
  );
}

/** What a room change did that the desk must know: codes not moved, keys the new room cannot take, cards to write. */
function Notes({
  request,
  moves,
  canManage,
  onWriteCards,
  onIssueGenerated,
  issuing,
}: {
  request: GuestKeysRequest;
  moves: CredentialMove[];
  canManage: boolean;
  onWriteCards(): void;
  onIssueGenerated(): void;
  issuing: boolean;
}) {
  const { t } = useTranslation();
  const room = request.roomName;
  const from = request.fromRoomName ?? '';
  const what = (m: CredentialMove) =>
    m.kind === 'password'
      ? m.code
        ? t('guestKeys.what.code', { code: m.code })
        : t('guestKeys.what.generated', { holder: m.holderName })
      : m.kind === 'face'
        ? t('guestKeys.what.face', { face: m.faceId ?? '' })
        : t('guestKeys.what.card', { number: m.cardNumber ?? '' });
  const taken = moves.filter((m) => m.outcome === 'code_taken');
  const blocked = moves.filter((m) => m.blocked !== null);
  const there = moves.filter((m) => m.outcome === 'already_there');
  const ended = moves.filter((m) => m.outcome === 'ended');
  const replaced = request.replacedCodes ?? 0;
  if (!taken.length && !blocked.length && !there.length && !ended.length && !replaced) return null;
  return (
    <ul className="grid gap-2 text-sm" data-testid="guest-keys-notes">
      {taken.map((m) => (
        <li
          key={`taken-${m.fromId}`}
          className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900"
          role="alert"
          data-testid={`guest-keys-note-taken-${m.fromId}`}
        >
          <span className="flex items-start gap-2">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('guestKeys.notes.codeTaken', { code: m.code ?? '', room })}
          </span>
          {canManage && (
            <Button
              variant="outline"
              size="sm"
              className="w-fit"
              onClick={onIssueGenerated}
              disabled={issuing}
              data-testid={`guest-keys-note-taken-${m.fromId}-generated`}
            >
              <RefreshCw aria-hidden />
              {t('guestKeys.issueGenerated')}
            </Button>
          )}
        </li>
      ))}
      {blocked.map((m) => (
        <li
          key={`blocked-${m.kind}-${m.fromId}`}
          className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900"
          role="alert"
          data-testid={`guest-keys-note-blocked-${m.kind}-${m.fromId}`}
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t('guestKeys.notes.blocked', { what: what(m), room, reason: t(`credentials.errors.${m.blocked}`) })}
        </li>
      ))}
      {there.map((m) => (
        <li key={`there-${m.fromId}`} className="text-muted-foreground rounded-md border p-3" data-testid={`guest-keys-note-there-${m.fromId}`}>
          {t('guestKeys.notes.faceThere', { face: m.faceId ?? '', room })}
        </li>
      ))}
      {ended.length > 0 && (
        <li className="grid gap-2 rounded-md border p-3" data-testid="guest-keys-note-cards-ended">
          <span className="flex items-start gap-2">
            <CreditCard className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-hidden />
            {t('guestKeys.notes.cardsEnded', { from, numbers: ended.map((m) => m.cardNumber).join(', ') })}
          </span>
          {canManage && (
            <Button className="w-fit" onClick={onWriteCards} data-testid="guest-keys-write-cards">
              <CreditCard aria-hidden />
              {t('guestKeys.writeCards', { room, count: ended.length })}
            </Button>
          )}
        </li>
      )}
      {replaced > 0 && (
        <li className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900" data-testid="guest-keys-note-replaced">
          <KeyRound className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t('frontDesk.stay.renewCodeChanged')}
        </li>
      )}
    </ul>
  );
}

/** What the old room's lock was told to refuse after a room change, as far as it got. */
function TakenOff({ old }: { old: NonNullable<StayKeys['movedFrom']> }) {
  const { t } = useTranslation();
  const rows = [
    ...old.passwords.map((p) => ({
      key: `p-${p.id}`,
      label: p.code ? t('guestKeys.what.code', { code: p.code }) : t(`credentials.kinds.${p.kind}`),
      state: p.deliveryState,
    })),
    ...old.faces.map((f) => ({ key: `f-${f.id}`, label: t('guestKeys.what.face', { face: f.face.faceId }), state: f.deliveryState })),
    ...old.cards.map((c) => ({
      key: `c-${c.id}`,
      label: t('guestKeys.what.card', { number: c.cardNumber }),
      state: c.grants[0]?.deliveryState ?? ('removed' as TDeliveryState),
    })),
  ];
  return (
    <section className="grid gap-2" aria-labelledby="guest-keys-taken-off" data-testid="guest-keys-taken-off">
      <h3 id="guest-keys-taken-off" className="text-muted-foreground text-xs font-medium">
        {t('guestKeys.takenOff', { room: old.roomName })}
      </h3>
      <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {rows.map((r) => (
          <li key={r.key} className="flex flex-wrap items-center gap-2" data-state={r.state}>
            <span dir="auto">{r.label}</span>
            <DeliveryStateBadge state={r.state} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One kind of what the guest holds (codes, cards, faces): its heading and its list. */
function KeySection({ id, icon: Icon, title, children }: { id: string; icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2" aria-labelledby={id}>
      <h3 id={id} className="text-muted-foreground flex items-center gap-1.5 text-xs font-medium">
        <Icon className="size-3.5" aria-hidden />
        {title}
      </h3>
      <ul className="grid gap-2">{children}</ul>
    </section>
  );
}
