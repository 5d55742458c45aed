import { Suspense, lazy, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { loadLaterTexts } from '@/lib/i18n';
import { usePrefetchWhenIdle, useMountedOnce } from '@/lib/lazy';
import type { StayAction, StayActionKind, StayDto } from './stay-action-types';
import { stayQueries } from './api';

export type { StayAction, StayActionKind, StayDto } from './stay-action-types';

/**
 * A reservation whose guest has not come is never "checked out": asked to, the console cancels it
 * (and says so), as `stay.cancelReservation` does. A stay in progress is not "cancelled" either.
 */
function kindFor(kind: StayActionKind, stay: StayDto): StayActionKind {
  if (kind === 'check-out' && stay.state === 'reserved') return 'cancel-reservation';
  if (kind === 'cancel-reservation' && stay.state !== 'reserved') return 'check-out';
  return kind;
}

/**
 * Which stay dialog is open. Actions on a stay need the whole stay: `openForStay` loads it first
 * (the board only knows the stay's id); `loadingStayId` lets the caller show a spinner meanwhile.
 * The board's menu and the room page open every dialog through this hook:
 * `openForStay('arrive' | 'cancel-reservation' | 'renew' | 'change-room' | 'check-out', stayId)`.
 */
export function useStayActions() {
  const queryClient = useQueryClient();
  const [action, setAction] = useState<StayAction | null>(null);
  const [loadingStayId, setLoadingStayId] = useState<number | null>(null);

  const openForStay = async (kind: StayActionKind, stayId: number) => {
    setLoadingStayId(stayId);
    try {
      // Always the stay as it is now: its state decides between check-out and cancellation.
      const stay = await queryClient.fetchQuery(stayQueries.current(stayId));
      setAction({ kind: kindFor(kind, stay), stay });
    } catch {
      // The global error handler has already shown the server's message.
    } finally {
      setLoadingStayId(null);
    }
  };

  return {
    action,
    loadingStayId,
    close: () => setAction(null),
    openCheckIn: (room: { id: number; name: string }) => setAction({ kind: 'check-in', room }),
    /** A new reservation: of this room, or (null) of a room or group chosen in the dialog. */
    openReservation: (room: { id: number; name: string } | null) => setAction({ kind: 'reserve', room }),
    openWithStay: (kind: StayActionKind, stay: StayDto) => setAction({ kind: kindFor(kind, stay), stay }),
    openForStay: (kind: StayActionKind, stayId: number) => void openForStay(kind, stayId),
  };
}

/**
 * The stay dialogs (forms, date-time pickers, price quotes: about a fifth of a page's JavaScript)
 * are a chunk of their own: loaded when the page is idle, mounted at the first action, then kept.
 * Their texts (frontDesk.stay) are in the later part (lib/text-parts.ts): the chunk is ready once
 * both are there.
 */
export const loadStayDialogs = () => Promise.all([import('./dialogs/stay-dialog-set'), loadLaterTexts()]).then(([m]) => m);
const StayDialogSet = lazy(() => loadStayDialogs().then((m) => ({ default: m.StayDialogSet })));

/** The stay dialogs, driven by one `StayAction`; they refresh rooms and stays themselves. */
export function StayActionDialogs(props: { action: StayAction | null; onClose(): void; onRoomChanged?(stay: StayDto): void }) {
  usePrefetchWhenIdle(loadStayDialogs);
  const isMounted = useMountedOnce(props.action !== null);
  if (!isMounted) return null;
  // Dialogs float above the page: nothing to hold the place of while the chunk arrives.
  return (
    <Suspense fallback={null}>
      <StayDialogSet {...props} />
    </Suspense>
  );
}
