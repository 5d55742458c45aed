import { useEffect, useRef } from 'react';
import type { StayAction, StayActionKind, StayDto } from '../stay-action-types';
import { ArriveDialog } from './arrive-dialog';
import { CancelReservationDialog } from './cancel-reservation-dialog';
import { ChangeRoomDialog } from './change-room-dialog';
import { CheckInDialog } from './check-in-dialog';
import { CheckOutDialog } from './check-out-dialog';
import { RenewDialog } from './renew-dialog';
import { RescheduleDialog } from './reschedule-dialog';
import { ReservationDialog } from './reservation-dialog';

/** The stay dialogs, driven by one `StayAction`; they refresh rooms and stays themselves. */
export function StayDialogSet({ action, onClose, onRoomChanged }: { action: StayAction | null; onClose(): void; onRoomChanged?(stay: StayDto): void }) {
  const stayFor = (kind: StayActionKind) => (action && action.kind === kind ? action.stay : null);
  const roomFor = (kind: 'check-in' | 'reserve') =>
    action && (action.kind === 'check-in' || action.kind === 'reserve') && action.kind === kind ? action.room : null;
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
      <CheckInDialog room={roomFor('check-in')} open={action?.kind === 'check-in'} onOpenChange={onOpenChange} onCheckedIn={onClose} />
      <ReservationDialog
        room={roomFor('reserve')}
        dates={action?.kind === 'reserve' ? action.dates : undefined}
        open={action?.kind === 'reserve'}
        onOpenChange={onOpenChange}
        onReserved={onClose}
      />
      <ArriveDialog stay={stayFor('arrive')} open={action?.kind === 'arrive'} onOpenChange={onOpenChange} onArrived={onClose} />
      <RenewDialog
        stay={stayFor('renew')}
        until={action && action.kind === 'renew' ? action.until : undefined}
        open={action?.kind === 'renew'}
        onOpenChange={onOpenChange}
        onRenewed={onClose}
      />
      <RescheduleDialog
        stay={stayFor('reschedule')}
        from={action && action.kind === 'reschedule' ? action.from : undefined}
        until={action && action.kind === 'reschedule' ? action.until : undefined}
        target={action && action.kind === 'reschedule' ? action.target : undefined}
        open={action?.kind === 'reschedule'}
        onOpenChange={onOpenChange}
        onDone={(stay) => {
          if (stay.roomId !== stayFor('reschedule')?.roomId) moved.current = stay;
          onClose();
        }}
      />
      <ChangeRoomDialog
        stay={stayFor('change-room')}
        target={action && action.kind === 'change-room' ? action.target : undefined}
        open={action?.kind === 'change-room'}
        onOpenChange={onOpenChange}
        onChanged={(stay) => {
          moved.current = stay;
          onClose();
        }}
      />
      <CheckOutDialog stay={stayFor('check-out')} open={action?.kind === 'check-out'} onOpenChange={onOpenChange} onCheckedOut={onClose} />
      <CancelReservationDialog
        stay={stayFor('cancel-reservation')}
        open={action?.kind === 'cancel-reservation'}
        onOpenChange={onOpenChange}
        onCancelled={onClose}
      />
    </>
  );
}
