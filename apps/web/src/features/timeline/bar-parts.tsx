import { Clock, KeyRound, TriangleAlert } from 'lucide-react';
import type { TimelineBar } from './api';

/** What the timeline asks the front desk's dialogs to do (the route passes the stays feature's `StayActionById`). */
export type TimelineAction =
  | { kind: 'change-room' | 'renew' | 'reschedule'; stayId: number; target?: { id: number; name: string }; until?: string; from?: string }
  | { kind: 'reserve'; room: { id: number; name: string } | null; dates?: { arrival: string; nights: number } };

const CODE_ICONS = {
  on_lock: { Icon: KeyRound, colour: 'text-emerald-700' },
  pending: { Icon: Clock, colour: 'text-amber-700' },
  failed: { Icon: TriangleAlert, colour: 'text-red-700' },
} as const;

/**
 * The code states' three icons, drawn once for the page as symbols that each bar's icon uses: a bar
 * made while scrolling makes two elements for its icon (an svg and its use) instead of the icon's
 * whole drawing (four to five elements, a dozen attributes each: the scroll's profile showed
 * creating and setting them). Rendered once by the timeline page, before any bar.
 */
export function CodeIconSymbols() {
  return (
    <svg width="0" height="0" className="absolute" aria-hidden focusable="false">
      {(Object.keys(CODE_ICONS) as (keyof typeof CODE_ICONS)[]).map((state) => {
        const { Icon } = CODE_ICONS[state];
        return (
          <symbol key={state} id={`timeline-code-${state}`} viewBox="0 0 24 24">
            <Icon size={24} />
          </symbol>
        );
      })}
    </svg>
  );
}

/** The icon of a bar's code state on the lock (none: no credential), from `CodeIconSymbols`. */
export function CodeIcon({ state }: { state: TimelineBar['codeState'] }) {
  if (state !== 'on_lock' && state !== 'pending' && state !== 'failed') return null;
  return (
    <svg className={`size-3.5 shrink-0 ${CODE_ICONS[state].colour}`} aria-hidden focusable="false" data-code-icon={state}>
      <use href={`#timeline-code-${state}`} />
    </svg>
  );
}
