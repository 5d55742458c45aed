import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { ArriveDialog } from './stay-dialogs/arrive-dialog';
import { CancelReservationDialog } from './stay-dialogs/cancel-reservation-dialog';
import { ChangeRoomDialog } from './stay-dialogs/change-room-dialog';
import { CheckInDialog } from './stay-dialogs/check-in-dialog';
import { CheckOutDialog } from './stay-dialogs/check-out-dialog';
import { RenewDialog } from './stay-dialogs/renew-dialog';

export type StayDto = RouterOutputs['stay']['get'];
/**
 * The actions on a stay: `arrive` (the guest of a reservation has come: it becomes in house) and
 * `cancel-reservation` (the guest never came) for a reservation; renew, change room and check out
 * for a stay in progress.
 */
export type StayActionKind = 'renew' | 'change-room' | 'check-out' | 'arrive' | 'cancel-reservation';

/** The front-desk action being done: a check-in of a room, or an action on a stay. */
export type StayAction = { kind: 'check-in'; room: { id: number; name: string } } | { kind: StayActionKind; stay: StayDto };

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
      const stay = await queryClient.fetchQuery({ ...trpc.stay.get.queryOptions({ stayId }), staleTime: 0 });
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
    openWithStay: (kind: StayActionKind, stay: StayDto) => setAction({ kind: kindFor(kind, stay), stay }),
    openForStay: (kind: StayActionKind, stayId: number) => void openForStay(kind, stayId),
  };
}

/** The stay dialogs, driven by one `StayAction`; they refresh rooms and stays themselves. */
export function StayActionDialogs({ action, onClose, onRoomChanged }: { action: StayAction | null; onClose(): void; onRoomChanged?(stay: StayDto): void }) {
  const stayFor = (kind: StayActionKind) => (action && action.kind === kind ? action.stay : null);
  const onOpenChange = (open: boolean) => {
    if (!open) onClose();
  };
  // After a room change the caller may follow the stay to its new room: only once the dialog has
  // gone, so that its form no longer counts as unsaved work that a navigation would ask about.
  const moved = useRef<StayDto | null>(null);
  useEffect(() => {
    if (!moved.current || action !== null) return;
    const stay = moved.current;
    moved.current = null;
    onRoomChanged?.(stay);
  }, [action, onRoomChanged]);

  return (
    <>
      <CheckInDialog room={action?.kind === 'check-in' ? action.room : null} open={action?.kind === 'check-in'} onOpenChange={onOpenChange} onCheckedIn={onClose} />
      <ArriveDialog stay={stayFor('arrive')} open={action?.kind === 'arrive'} onOpenChange={onOpenChange} onArrived={onClose} />
      <RenewDialog stay={stayFor('renew')} open={action?.kind === 'renew'} onOpenChange={onOpenChange} onRenewed={onClose} />
      <ChangeRoomDialog
        stay={stayFor('change-room')}
        open={action?.kind === 'change-room'}
        onOpenChange={onOpenChange}
        onChanged={(stay) => {
          moved.current = stay;
          onClose();
        }}
      />
      <CheckOutDialog stay={stayFor('check-out')} open={action?.kind === 'check-out'} onOpenChange={onOpenChange} onCheckedOut={onClose} />
      <CancelReservationDialog stay={stayFor('cancel-reservation')} open={action?.kind === 'cancel-reservation'} onOpenChange={onOpenChange} onCancelled={onClose} />
    </>
  );
}
