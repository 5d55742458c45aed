import type { TimelineBar } from './api';

/** What the timeline asks the front desk's dialogs to do (the route passes the stays feature's `StayActionById`). */
export type TimelineAction =
  | { kind: 'change-room' | 'renew' | 'reschedule'; stayId: number; target?: { id: number; name: string }; until?: string; from?: string }
  | { kind: 'reserve'; room: { id: number; name: string } | null; dates?: { arrival: string; nights: number } };

/**
 * The icon of a code's state on the lock (none: no credential) in the legend and a bar's dialog: one
 * element drawn by the stylesheet (`.timeline-code-icon` in styles.css: lucide's key-round, clock and
 * triangle-alert), as the bars draw it.
 */
export function CodeIcon({ state }: { state: TimelineBar['codeState'] }) {
  if (state !== 'on_lock' && state !== 'pending' && state !== 'failed') return null;
  return <span className="timeline-code-icon" data-code={state} aria-hidden />;
}
