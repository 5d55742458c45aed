import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { ChangeRoomDialog } from './stay-dialogs/change-room-dialog';
import { CheckInDialog } from './stay-dialogs/check-in-dialog';
import { CheckOutDialog } from './stay-dialogs/check-out-dialog';
import { RenewDialog } from './stay-dialogs/renew-dialog';

export type StayDto = RouterOutputs['stay']['get'];
export type StayActionKind = 'renew' | 'change-room' | 'check-out';

/** The front-desk action being done: a check-in of a room, or an action on a stay. */
export type StayAction = { kind: 'check-in'; room: { id: number; name: string } } | { kind: StayActionKind; stay: StayDto };

/**
 * Which stay dialog is open. Actions on a stay need the whole stay: `openForStay` loads it first
 * (the board only knows the stay's id); `loadingStayId` lets the caller show a spinner meanwhile.
 */
export function useStayActions() {
  const queryClient = useQueryClient();
  const [action, setAction] = useState<StayAction | null>(null);
  const [loadingStayId, setLoadingStayId] = useState<number | null>(null);

  const openForStay = async (kind: StayActionKind, stayId: number) => {
    setLoadingStayId(stayId);
    try {
      const stay = await queryClient.fetchQuery(trpc.stay.get.queryOptions({ stayId }));
      setAction({ kind, stay });
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
    openWithStay: (kind: StayActionKind, stay: StayDto) => setAction({ kind, stay }),
    openForStay: (kind: StayActionKind, stayId: number) => void openForStay(kind, stayId),
  };
}

/** The four stay dialogs, driven by one `StayAction`; they refresh rooms and stays themselves. */
export function StayActionDialogs({ action, onClose, onRoomChanged }: { action: StayAction | null; onClose(): void; onRoomChanged?(stay: StayDto): void }) {
  const stayFor = (kind: StayActionKind) => (action && action.kind === kind ? action.stay : null);
  const onOpenChange = (open: boolean) => {
    if (!open) onClose();
  };
  return (
    <>
      <CheckInDialog room={action?.kind === 'check-in' ? action.room : null} open={action?.kind === 'check-in'} onOpenChange={onOpenChange} onCheckedIn={onClose} />
      <RenewDialog stay={stayFor('renew')} open={action?.kind === 'renew'} onOpenChange={onOpenChange} onRenewed={onClose} />
      <ChangeRoomDialog
        stay={stayFor('change-room')}
        open={action?.kind === 'change-room'}
        onOpenChange={onOpenChange}
        onChanged={(stay) => {
          onClose();
          onRoomChanged?.(stay);
        }}
      />
      <CheckOutDialog stay={stayFor('check-out')} open={action?.kind === 'check-out'} onOpenChange={onOpenChange} onCheckedOut={onClose} />
    </>
  );
}
