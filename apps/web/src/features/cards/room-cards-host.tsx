import { Suspense, lazy } from 'react';
import { useQuery } from '@tanstack/react-query';
import { loadLaterTexts } from '@/lib/i18n';
import { finishRoomCardRequest, useRoomCardRequest } from '@/lib/room-cards';
import { cardQueries } from './api';

/** The dialog, the reader drivers and the card texts (a later text part) come when a card is first asked for. */
const CardWritingDialog = lazy(() => Promise.all([import('./card-writing-dialog'), loadLaterTexts()]).then(([m]) => ({ default: m.CardWritingDialog })));
/** A hotel card system's door: its cards are encoded on the system's encoder (Seam `acs`). */
const EncodeCardDialog = lazy(() => Promise.all([import('./encode-card-dialog'), loadLaterTexts()]).then(([m]) => ({ default: m.EncodeCardDialog })));

/**
 * Hosts the card dialogs for the whole signed-in console (the layout renders it): any screen asks
 * for room cards with `requestRoomCards` (lib/room-cards.ts), and this writes them: on the desk
 * reader, or, for a room whose door is a hotel card system's (`lock.takes.encodedCards`), on the
 * system's encoder. The room is asked first (what its door takes); nothing shows until it answers.
 */
export function RoomCardsHost() {
  const request = useRoomCardRequest();
  const room = useQuery(cardQueries.room(request?.roomId));
  if (!request || room.isPending) return null;
  if (room.data?.lock?.takes.encodedCards) {
    return (
      <Suspense fallback={null}>
        <EncodeCardDialog
          key={request.key}
          open
          onOpenChange={(open) => !open && finishRoomCardRequest()}
          room={{ id: request.roomId, name: request.roomName }}
          stay={{ id: request.stayId, guestName: request.holderName }}
          count={request.count}
          replaces={request.rewrite?.issueId}
        />
      </Suspense>
    );
  }
  return (
    <Suspense fallback={null}>
      <CardWritingDialog key={request.key} request={request} onClose={finishRoomCardRequest} />
    </Suspense>
  );
}
