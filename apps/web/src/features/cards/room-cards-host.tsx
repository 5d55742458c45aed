import { Suspense, lazy } from 'react';
import { loadLaterTexts } from '@/lib/i18n';
import { finishRoomCardRequest, useRoomCardRequest } from '@/lib/room-cards';

/** The dialog, the reader drivers and the card texts (a later text part) come when a card is first asked for. */
const CardWritingDialog = lazy(() => Promise.all([import('./card-writing-dialog'), loadLaterTexts()]).then(([m]) => ({ default: m.CardWritingDialog })));

/**
 * Hosts the card-writing dialog for the whole signed-in console (the layout renders it): any screen
 * asks for room cards with `requestRoomCards` (lib/room-cards.ts), and this writes them.
 */
export function RoomCardsHost() {
  const request = useRoomCardRequest();
  if (!request) return null;
  return (
    <Suspense fallback={null}>
      <CardWritingDialog key={request.key} request={request} onClose={finishRoomCardRequest} />
    </Suspense>
  );
}
