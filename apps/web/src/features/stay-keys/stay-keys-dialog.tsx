import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import type { GuestKeysRequest } from '@/lib/stay-keys';
import { useHotelSettings } from '@/lib/hotel-settings';
import { requestRoomCards, useRoomCardRequest } from '@/lib/room-cards';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { guestKeyQueries, invalidatePasswords } from './api';
import { HeldKeys, type StayKeys } from './held-keys';
import { Notes } from './keys-notes';

type Card = StayKeys['cards'][number];

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
          <HeldKeys
            data={data}
            request={request}
            moves={moves}
            canManage={canManage}
            timeZone={timeZone}
            onIssueGenerated={offerGenerated}
            issuing={issueGenerated.isPending}
            onRewrite={rewrite}
          />
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
