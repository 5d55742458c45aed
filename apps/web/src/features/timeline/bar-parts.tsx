import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
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

export const NO_BARS: readonly TimelineBar[] = [];
/** An answer's bars by room, made once per answer. */
const barsByRoom = new WeakMap<readonly TimelineBar[], Map<number, TimelineBar[]>>();
export function byRoom(bars: readonly TimelineBar[]) {
  let map = barsByRoom.get(bars);
  if (!map) {
    map = new Map();
    for (const b of bars) {
      const list = map.get(b.roomId);
      if (list) list.push(b);
      else map.set(b.roomId, [b]);
    }
    barsByRoom.set(bars, map);
  }
  return map;
}

/** "guest, room, dates, state" (and its channel and code), as a screen reader reads a bar. */
export function useBarLabel() {
  const { t, i18n } = useTranslation();
  // One formatter for every bar: making one costs more than a frame's worth of bars can afford
  // (bench/timeline-paint.ts: a scroll redraws about 200 bars a frame).
  const dayFmt = useMemo(() => new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' }), [i18n.language]);
  return useCallback(
    (bar: TimelineBar, roomName: string) => {
      const day = (date: string) => dayFmt.format(new Date(`${date}T12:00:00Z`));
      return [
        t('timeline.bar.label', {
          guest: bar.guestName ?? t('timeline.bar.noGuest'),
          room: roomName,
          from: day(bar.startDate),
          to: day(bar.endDate),
          state: t(`timeline.state.${bar.state}`),
        }),
        bar.channel ?? t('timeline.channel.desk'),
        bar.codeState ? t(`timeline.code.${bar.codeState}`) : null,
      ]
        .filter(Boolean)
        .join(', ');
    },
    [t, dayFmt],
  );
}
