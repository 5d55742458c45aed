import { useSyncExternalStore } from 'react';
import { i18next, loadLaterTexts } from './i18n';
import { requestRoomCards, type RoomCardMode } from './room-cards';
import { toast } from './toast';
import type { RouterOutputs } from './trpc-types';

/**
 * "What the guest holds", shown once right after a change of a stay (issue 17 §2): a check-in, a
 * room change, a renewal. The screen that made the change asks for it here; one dialog of the
 * stay-keys feature, hosted by the signed-in layout (features/stay-keys), shows the stay's codes,
 * cards and faces with their validity and delivery state, and follows them until every lock has
 * answered. The screens that ask need only this small store.
 */

export type CredentialMove = RouterOutputs['stay']['changeRoom']['credentialMoves'][number];

export type GuestKeysAfter = 'check_in' | 'room_change' | 'renewal';

export interface GuestKeysRequest {
  stayId: number;
  roomId: number;
  roomName: string;
  /** The stay's main guest, as the dialog names them. */
  holderName: string;
  after: GuestKeysAfter;
  /** A room change: the room the guest left, and what became of each credential of the old stay. */
  fromRoomName?: string;
  moves?: CredentialMove[];
  /** A check-in: room cards asked for, written (the card-writing dialog, above this one) once it is shown. */
  writeCards?: { count: number; mode: RoomCardMode | 'ask' };
  /** A renewal: generated codes the lock cloud replaced with a new one (the guest's code changed). */
  replacedCodes?: number;
}

let current: (GuestKeysRequest & { key: number }) | null = null;
let nextKey = 1;
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((listener) => listener());
}

/** Shows what the guest holds after this change (a request still open is replaced). */
export function showGuestKeys(request: GuestKeysRequest): void {
  current = { ...request, key: nextKey++ };
  emit();
}

/** The clerk closed it (or there was nothing to show). */
export function finishGuestKeys(): void {
  if (!current) return;
  current = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => current;

/** The request shown now, or null; `key` differs for each request. */
export function useGuestKeysRequest(): (GuestKeysRequest & { key: number }) | null {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * A renewal's word on the written cards (issue 17 §2), as a toast where the clerk is: they still end
 * at the old check-out, since no lock can change what a card carries. "Write now" writes the first
 * of them again in place (each one is on the stay card and in "what the guest holds" with its own
 * "write now"). Nothing when the stay has no written card to write again.
 */
export function toastRewriteCards(renewed: {
  id: number;
  roomId: number;
  roomName: string;
  holderName: string;
  rewriteCards: { issueId: number; cardNumber: string }[];
}): void {
  const [first] = renewed.rewriteCards;
  if (!first) return;
  // These texts are in the later part of the texts (almost always there by now).
  void loadLaterTexts().then(
    () => {
      const t = i18next.t.bind(i18next);
      toast.warning(t('guestKeys.renewalRewrite', { numbers: renewed.rewriteCards.map((c) => c.cardNumber).join(', ') }), {
        id: `renew-rewrite-${renewed.id}`,
        duration: 20_000,
        action: {
          label: t('guestKeys.writeNow'),
          onClick: () =>
            requestRoomCards({
              stayId: renewed.id,
              roomId: renewed.roomId,
              roomName: renewed.roomName,
              holderName: renewed.holderName,
              count: 1,
              mode: 'duplicate',
              rewrite: { issueId: first.issueId, cardNumber: first.cardNumber },
            }),
        },
      });
    },
    () => undefined,
  );
}
