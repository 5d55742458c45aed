import { useQuery } from '@tanstack/react-query';
import { stayQueries } from './api';
import { StayDialogSet } from './dialogs/stay-dialog-set';
import type { ReservationDates, StayActionKind } from './stay-action-types';

/**
 * A stay action asked for by a stay's id (the timeline's bars carry ids, not stays): the stay is
 * read as it is now (`stay.get`), then the front desk's own dialog opens on it, with its rules,
 * quotes and refusals (change room, renew, change dates), or a reservation of a room for chosen dates.
 */
export type StayActionRequest =
  | {
      kind: Extract<StayActionKind, 'change-room' | 'renew' | 'reschedule'>;
      stayId: number;
      target?: { id: number; name: string };
      until?: string;
      from?: string;
    }
  | { kind: 'reserve'; room: { id: number; name: string } | null; dates?: ReservationDates };

export function StayActionById({ request, onClose }: { request: StayActionRequest | null; onClose(): void }) {
  const stayId = request && request.kind !== 'reserve' ? request.stayId : 0;
  const stay = useQuery({ ...stayQueries.current(stayId), enabled: stayId > 0 });
  if (!request) return <StayDialogSet action={null} onClose={onClose} />;
  if (request.kind === 'reserve') return <StayDialogSet action={{ kind: 'reserve', room: request.room, dates: request.dates }} onClose={onClose} />;
  if (!stay.data || stay.data.id !== request.stayId) return null;
  return <StayDialogSet action={{ kind: request.kind, stay: stay.data, target: request.target, until: request.until, from: request.from }} onClose={onClose} />;
}
