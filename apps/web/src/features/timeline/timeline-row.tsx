import { memo, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';
import { type TimelineBar, type TimelineWindow } from './api';
import { ROW_HEIGHT, barSpan } from './timeline-geometry';

export type Room = TimelineWindow['groups'][number]['rooms'][number];

/** A drag in progress: a bar moved to another room, a bar's end moved, or an empty range chosen. */
export type Drag =
  | { kind: 'move'; bar: TimelineBar; x: number; y: number; dy: number; delta: number; roomId: number; moved: boolean }
  | { kind: 'end'; bar: TimelineBar; x: number; delta: number; moved: boolean }
  | { kind: 'range'; room: Room; first: number; last: number };

export const BAR_STYLE: Record<TimelineBar['state'], string> = {
  reserved: 'border-sky-500 bg-sky-100 text-sky-950',
  in_house: 'border-emerald-600 bg-emerald-100 text-emerald-950',
  checked_out: 'border-slate-400 bg-slate-100 text-slate-800',
  owing: 'border-red-500 bg-red-100 text-red-950',
};

export const NO_RANGES: TimelineWindow['outOfOrder'] = [];
export const COL_STEP = 16;
/** How far from a bar's end a press drags the end (the strip styles.css draws there, 0.5rem). */
const END_GRIP_PX = 8;

/** Whether `clientX` is on the end strip of a bar that has one (`data-resizable`; its end is on the right, or the left right to left). */
export function onEndGrip(bar: HTMLElement, clientX: number, dirX: number): boolean {
  if (bar.dataset.resizable === undefined) return false;
  const box = bar.getBoundingClientRect();
  return (dirX > 0 ? box.right - clientX : clientX - box.left) <= END_GRIP_PX;
}

export interface RowHandlers {
  laneDown(e: PointerEvent<HTMLDivElement>, room: Room): void;
  laneMove(e: PointerEvent<HTMLDivElement>, room: Room): void;
  laneUp(room: Room): void;
  cancel(): void;
  barDown(e: PointerEvent<HTMLButtonElement>, bar: TimelineBar): void;
  barMove(e: PointerEvent<HTMLButtonElement>, bar: TimelineBar): void;
  barUp(): void;
  openBar(bar: TimelineBar, roomName: string): void;
}

/**
 * One room's row: its name, its lane of days (the day lines drawn by one background, not an
 * element a day) and its bars over the columns `colFrom` to `colTo` (steps of 16 days). Memoised:
 * a scroll down draws only the rows that come into view, a scroll across only at a step.
 */
export const RoomRow = memo(function RoomRow({
  room,
  bars,
  top,
  roomW,
  colW,
  days,
  from,
  todayIndex,
  outOfOrder,
  dates,
  colFrom,
  colTo,
  isTarget,
  range,
  dragged,
  dirX,
  labels,
  on,
}: {
  room: Room;
  bars: readonly TimelineBar[];
  top: number;
  roomW: number;
  colW: number;
  days: number;
  from: string;
  todayIndex: number;
  outOfOrder: TimelineWindow['outOfOrder'];
  dates: string[];
  colFrom: number;
  colTo: number;
  isTarget: boolean;
  range: Extract<Drag, { kind: 'range' }> | null;
  dragged: Exclude<Drag, { kind: 'range' }> | null;
  dirX: number;
  labels(bar: TimelineBar, roomName: string): string;
  on: RowHandlers;
}) {
  const { t } = useTranslation();
  const laneW = days * colW;
  return (
    <div
      className={cn('absolute start-0 flex border-b', isTarget && 'bg-sky-50')}
      // Its size known: its layout is its own (no paint containment: a bar dragged to another row is
      // drawn over it, above the rows after it).
      style={{ top, height: ROW_HEIGHT, width: roomW + laneW, contain: 'size layout style', zIndex: dragged?.moved ? 20 : undefined }}
      data-testid={`timeline-room-${room.name}`}
    >
      <div
        className="bg-background sticky start-0 z-10 flex items-center gap-1 truncate border-e px-2 text-sm font-medium"
        style={{ width: roomW, minWidth: roomW }}
      >
        <span className="truncate">{room.name}</span>
        {room.maintenance !== 'none' && (
          <span className="rounded bg-zinc-800 px-1 text-[10px] font-normal text-white">
            {t(room.maintenance === 'out_of_order' ? 'timeline.outOfOrder' : 'timeline.outOfService')}
          </span>
        )}
      </div>
      <div
        className={cn(
          'relative',
          room.maintenance !== 'none' && 'bg-[repeating-linear-gradient(45deg,transparent,transparent_6px,rgb(0_0_0/0.06)_6px,rgb(0_0_0/0.06)_12px)]',
        )}
        style={{ width: laneW }}
        onPointerDown={(e) => on.laneDown(e, room)}
        onPointerMove={(e) => on.laneMove(e, room)}
        onPointerUp={() => on.laneUp(room)}
        onPointerCancel={on.cancel}
      >
        {todayIndex >= 0 && (
          <div className="pointer-events-none absolute top-0 h-full bg-sky-50/70" style={{ insetInlineStart: todayIndex * colW, width: colW }} />
        )}
        <div
          className="pointer-events-none absolute inset-0"
          style={{
            backgroundImage: `repeating-linear-gradient(${dirX > 0 ? 'to right' : 'to left'}, transparent 0 ${colW - 1}px, var(--border) ${colW - 1}px ${colW}px)`,
          }}
        />
        {outOfOrder.map((o) => {
          const first = Math.max(0, dates.indexOf(o.startDate) === -1 ? 0 : dates.indexOf(o.startDate));
          const lastIndex = dates.indexOf(o.endDate);
          const last = lastIndex === -1 ? dates.length - 1 : lastIndex;
          const label = t('timeline.outOfOrderRange', {
            kind: t(o.kind === 'out_of_order' ? 'timeline.outOfOrder' : 'timeline.outOfService'),
            from: o.startDate,
            to: o.endDate,
            reason: o.reason,
          });
          return (
            <div
              key={`ooo-${o.startDate}`}
              className="pointer-events-none absolute inset-y-1 flex items-center overflow-hidden rounded border border-zinc-500 bg-[repeating-linear-gradient(45deg,transparent,transparent_6px,rgb(0_0_0/0.12)_6px,rgb(0_0_0/0.12)_12px)] px-1 text-[10px]"
              style={{ insetInlineStart: first * colW, width: (last - first + 1) * colW }}
              title={label}
              data-testid="timeline-out-of-order"
            >
              <span className="sr-only">{label}</span>
              <span aria-hidden className="truncate">
                {o.reason}
              </span>
            </div>
          );
        })}
        {range && (
          <div
            className="pointer-events-none absolute inset-y-1 rounded border-2 border-dashed border-sky-500 bg-sky-100/60"
            style={{ insetInlineStart: Math.min(range.first, range.last) * colW, width: (Math.abs(range.last - range.first) + 1) * colW }}
            aria-hidden
          />
        )}
        {bars.map((bar) => {
          const spanOf = barSpan(from, days, bar.startDate, bar.endDate);
          const drag = dragged && dragged.bar.stayId === bar.stayId ? dragged : null;
          // Off the columns drawn (and not the one dragged): not in the page.
          if (!spanOf || (!drag && (spanOf.end < colFrom || spanOf.start > colTo))) return null;
          const extra = drag?.kind === 'end' ? drag.delta * colW : 0;
          const dy = drag?.kind === 'move' ? drag.dy : 0;
          const dx = drag?.kind === 'move' ? drag.delta * colW * dirX : 0;
          const label = labels(bar, room.name);
          return (
            <button
              key={bar.stayId}
              type="button"
              aria-label={label}
              title={label}
              className={cn(
                'timeline-bar absolute top-1 flex h-8 touch-none items-center gap-1 overflow-hidden rounded-md border px-1.5 text-start text-xs shadow-sm select-none focus-visible:ring-2 focus-visible:ring-sky-600 focus-visible:outline-none',
                BAR_STYLE[bar.state],
                spanOf.cutStart && 'rounded-s-none',
                spanOf.cutEnd && 'rounded-e-none',
                bar.isActive ? 'cursor-grab' : 'cursor-pointer',
                drag?.moved && 'z-20 cursor-grabbing opacity-90 shadow-lg',
              )}
              style={{
                insetInlineStart: spanOf.start * colW + 1,
                width: Math.max(12, (spanOf.end - spanOf.start) * colW - 2 + extra),
                transform: dy || dx ? `translate(${dx}px, ${dy}px)` : undefined,
              }}
              data-testid={`timeline-bar-${bar.stayId}`}
              data-state={bar.state}
              data-code={bar.codeState ?? undefined}
              data-channel={bar.channel ?? undefined}
              data-resizable={bar.isActive && !spanOf.cutEnd ? '' : undefined}
              data-end={bar.endDate}
              onPointerDown={(e) => on.barDown(e, bar)}
              onPointerMove={(e) => on.barMove(e, bar)}
              onPointerUp={on.barUp}
              onPointerCancel={on.cancel}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  on.openBar(bar, room.name);
                }
              }}
              onClick={(e) => {
                // A click from the keyboard (detail 0); pointer clicks are handled on pointer up.
                if (e.detail === 0) on.openBar(bar, room.name);
              }}
            >
              <span className="truncate font-medium">{bar.guestName ?? t('timeline.bar.noGuest')}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
});
