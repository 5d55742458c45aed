import { Clock, KeyRound, TriangleAlert } from 'lucide-react';
import type { TimelineBar } from './api';

/** What the timeline asks the front desk's dialogs to do (the route passes the stays feature's `StayActionById`). */
export type TimelineAction =
  | { kind: 'change-room' | 'renew' | 'reschedule'; stayId: number; target?: { id: number; name: string }; until?: string; from?: string }
  | { kind: 'reserve'; room: { id: number; name: string } | null; dates?: { arrival: string; nights: number } };

/** The icon of a bar's code state on the lock (none: no credential). */
export function CodeIcon({ state }: { state: TimelineBar['codeState'] }) {
  if (state === 'on_lock') return <KeyRound className="size-3.5 shrink-0 text-emerald-700" aria-hidden />;
  if (state === 'pending') return <Clock className="size-3.5 shrink-0 text-amber-700" aria-hidden />;
  if (state === 'failed') return <TriangleAlert className="size-3.5 shrink-0 text-red-700" aria-hidden />;
  return null;
}
