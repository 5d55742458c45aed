import { useMemo, useRef, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { BedDouble, ChevronDown } from 'lucide-react';
import { TIMELINE_BLOCK, addDays, localDateTime, zonedToInstant } from '@console/shared';
import { useDirection } from '@/components/ui/direction';
import { useHotelSettings } from '@/lib/hotel-settings';
import { cn } from '@/lib/utils';
import { timelineQueries, type TimelineBar, type TimelineWindow } from './api';
import { NO_BARS, byRoom, useBarLabel, type TimelineAction } from './bar-parts';
import { COLUMN_WIDTH, GROUP_HEIGHT, HEADER_HEIGHT, ROW_HEIGHT, blocksToFetch } from './timeline-geometry';
import { COL_STEP, NO_RANGES, RoomRow, onEndGrip, type Drag, type Room, type RowHandlers } from './timeline-row';

type Row = { kind: 'group'; key: string; name: string | null; count: number; collapsed: boolean } | { kind: 'room'; room: Room };

export function Grid({
  data,
  collapsed,
  onToggleGroup,
  onOpenBar,
  onAction,
  locale,
}: {
  data: TimelineWindow;
  collapsed: ReadonlySet<string>;
  onToggleGroup(key: string): void;
  onOpenBar(bar: TimelineBar, roomName: string): void;
  onAction(action: TimelineAction): void;
  locale: string;
}) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const isRtl = useDirection() === 'rtl';
  const barLabel = useBarLabel();
  const scrollRef = useRef<HTMLDivElement>(null);
  const colW = COLUMN_WIDTH[data.days] ?? 60;
  const roomW = typeof window !== 'undefined' && window.innerWidth < 640 ? 84 : 136;
  const dates = useMemo(() => Array.from({ length: data.days }, (_, i) => addDays(data.from, i)), [data.from, data.days]);

  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const g of data.groups) {
      const key = g.id === null ? 'none' : String(g.id);
      const isCollapsed = collapsed.has(key);
      out.push({ kind: 'group', key, name: g.name, count: g.rooms.length, collapsed: isCollapsed });
      if (!isCollapsed) for (const room of g.rooms) out.push({ kind: 'room', room });
    }
    return out;
  }, [data.groups, collapsed]);
  // The rooms in the grid's order (collapsed groups' too), cut in blocks of TIMELINE_BLOCK: the
  // window's answer brings the first block's bars, `timeline.bars` each other block's.
  const { orderOf, blockIds } = useMemo(() => {
    const ids = data.groups.flatMap((g) => g.rooms.map((r) => r.id));
    const orderOf = new Map(ids.map((id, i) => [id, i] as const));
    const blockIds: number[][] = [];
    for (let i = 0; i < ids.length; i += TIMELINE_BLOCK) blockIds.push(ids.slice(i, i + TIMELINE_BLOCK));
    return { orderOf, blockIds };
  }, [data.groups]);
  const roomNames = useMemo(() => new Map(data.groups.flatMap((g) => g.rooms.map((r) => [r.id, r.name] as const))), [data.groups]);
  // Each bar's label made once per window and language, not on every frame of a scroll (its texts
  // and dates cost more than the rest of a bar's render; bench/timeline-paint.ts).
  const labels = useMemo(() => {
    // Keyed by the bar itself: a new window's answer brings new bars.
    const made = new WeakMap<TimelineBar, string>();
    return (bar: TimelineBar, roomName: string) => {
      let label = made.get(bar);
      if (label === undefined) made.set(bar, (label = barLabel(bar, roomName)));
      return label;
    };
  }, [barLabel]);

  const rowVirtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'group' ? GROUP_HEIGHT : ROW_HEIGHT),
    overscan: 8,
    // A scroll's render batched by React rather than forced in the scroll event (bench/timeline-paint.ts).
    useFlushSync: false,
    scrollMargin: HEADER_HEIGHT,
  });
  // The blocks of the rows drawn, and the next (or previous) one when they are near it (blocksToFetch).
  const items = rowVirtualizer.getVirtualItems();
  let firstRoom = Number.POSITIVE_INFINITY;
  let lastRoom = -1;
  for (const item of items) {
    const row = rows[item.index];
    if (row?.kind !== 'room') continue;
    const i = orderOf.get(row.room.id)!;
    firstRoom = Math.min(firstRoom, i);
    lastRoom = Math.max(lastRoom, i);
  }
  const fetched = blocksToFetch(firstRoom, lastRoom, blockIds.length);
  const blockQueries = useQueries({ queries: fetched.map((b) => timelineQueries.bars({ from: data.from, days: data.days, roomIds: blockIds[b]! })) });
  /** A room's bars: the first block's from the window's answer, another's from its block's answer (none while it loads). */
  const barsOf = (roomId: number): readonly TimelineBar[] => {
    const i = orderOf.get(roomId);
    if (i === undefined) return NO_BARS;
    const b = Math.floor(i / TIMELINE_BLOCK);
    const bars = b === 0 ? data.bars : blockQueries[fetched.indexOf(b)]?.data?.bars;
    return bars ? (byRoom(bars).get(roomId) ?? NO_BARS) : NO_BARS;
  };

  const colVirtualizer = useVirtualizer({
    horizontal: true,
    isRtl,
    count: data.days,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => colW,
    overscan: 3,
    useFlushSync: false,
    scrollMargin: roomW,
  });
  const cols = colVirtualizer.getVirtualItems();
  const laneW = data.days * colW;
  // The day columns whose bars the rows draw: those on screen and a few beyond, in steps of 16 days,
  // so that a scroll across redraws the rows only when it passes a step, not on every frame.
  const firstCol = cols[0]?.index ?? 0;
  const lastCol = cols[cols.length - 1]?.index ?? data.days - 1;
  const colFrom = Math.max(0, Math.floor((firstCol - 2) / COL_STEP) * COL_STEP);
  const colTo = Math.min(data.days, (Math.floor((lastCol + 2) / COL_STEP) + 1) * COL_STEP);

  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const setDragBoth = (d: Drag | null) => {
    dragRef.current = d;
    setDrag(d);
  };

  /** The room row under a pointer's height, if any. */
  const roomAt = (clientY: number): Room | null => {
    const el = scrollRef.current;
    if (!el) return null;
    const y = clientY - el.getBoundingClientRect().top + el.scrollTop;
    for (const item of rowVirtualizer.getVirtualItems()) {
      if (y >= item.start && y < item.end) {
        const row = rows[item.index];
        return row?.kind === 'room' ? row.room : null;
      }
    }
    return null;
  };
  /** The day column under a pointer in a lane (the lane's own box; right to left in Arabic). */
  const dayAt = (lane: HTMLElement, clientX: number) => {
    const rect = lane.getBoundingClientRect();
    const x = isRtl ? rect.right - clientX : clientX - rect.left;
    return Math.min(data.days - 1, Math.max(0, Math.floor(x / colW)));
  };
  const dirX = isRtl ? -1 : 1;

  const endDragOnBar = () => {
    const d = dragRef.current;
    setDragBoth(null);
    if (!d || d.kind === 'range') return;
    const roomName = roomNames.get(d.bar.roomId) ?? '';
    if (!d.moved) {
      onOpenBar(d.bar, roomName);
      return;
    }
    if (d.kind === 'move') {
      const target = { id: d.roomId, name: roomNames.get(d.roomId) ?? '' };
      // A reservation moves in time and between rooms ("change dates", one confirmation); a stay that
      // has begun only between rooms (the room change, from now).
      if (d.bar.state === 'reserved' && (d.delta !== 0 || d.roomId !== d.bar.roomId)) {
        const from = shiftDays(d.bar.startAt, d.delta);
        const until = shiftDays(d.bar.endAt, d.delta);
        if (from && until) onAction({ kind: 'reschedule', stayId: d.bar.stayId, from, until, ...(d.roomId !== d.bar.roomId ? { target } : {}) });
      } else if (d.roomId !== d.bar.roomId) onAction({ kind: 'change-room', stayId: d.bar.stayId, target });
      return;
    }
    // Its end later or earlier: the check-out moves, with the nights and the price shown before it does.
    const until = d.delta !== 0 ? shiftDays(d.bar.endAt, d.delta) : null;
    if (until) onAction({ kind: 'reschedule', stayId: d.bar.stayId, until });
  };
  /** The same time of day, `delta` days later (or earlier), in the hotel's zone, as an ISO instant. */
  const shiftDays = (at: string, delta: number) => {
    const local = localDateTime(new Date(at), timeZone);
    return zonedToInstant(`${addDays(local.slice(0, 10), delta)}T${local.slice(11, 16)}`, timeZone)?.toISOString() ?? null;
  };

  // The rows' handlers, one object for the window's life: a row is memoised and redrawn only when
  // its own props change (its bars, a drag over it), not on every frame of a scroll.
  const live = useRef({ roomAt, dayAt, endDragOnBar, setDragBoth, onAction, onOpenBar, colW, dirX, dates });
  live.current = { roomAt, dayAt, endDragOnBar, setDragBoth, onAction, onOpenBar, colW, dirX, dates };
  const handlers = useMemo<RowHandlers>(
    () => ({
      laneDown(e, room) {
        if (e.button !== 0 || e.target !== e.currentTarget) return;
        const day = live.current.dayAt(e.currentTarget, e.clientX);
        e.currentTarget.setPointerCapture(e.pointerId);
        live.current.setDragBoth({ kind: 'range', room, first: day, last: day });
      },
      laneMove(e, room) {
        const d = dragRef.current;
        if (d?.kind !== 'range' || d.room.id !== room.id) return;
        live.current.setDragBoth({ ...d, last: live.current.dayAt(e.currentTarget, e.clientX) });
      },
      laneUp(room) {
        const d = dragRef.current;
        if (d?.kind !== 'range' || d.room.id !== room.id) return;
        live.current.setDragBoth(null);
        const first = Math.min(d.first, d.last);
        const last = Math.max(d.first, d.last);
        const dates = live.current.dates;
        live.current.onAction({ kind: 'reserve', room: { id: room.id, name: room.name }, dates: { arrival: dates[first]!, nights: last - first + 1 } });
      },
      cancel() {
        live.current.setDragBoth(null);
      },
      barDown(e, bar) {
        if (e.button !== 0) return;
        e.stopPropagation();
        e.currentTarget.setPointerCapture(e.pointerId);
        // Pressed on its end (the strip drawn there): the stay's end is dragged.
        if (onEndGrip(e.currentTarget, e.clientX, live.current.dirX)) {
          live.current.setDragBoth({ kind: 'end', bar, x: e.clientX, delta: 0, moved: false });
          return;
        }
        live.current.setDragBoth({ kind: 'move', bar, x: e.clientX, y: e.clientY, dy: 0, delta: 0, roomId: bar.roomId, moved: false });
      },
      barMove(e, bar) {
        const d = dragRef.current;
        // Hovered, not dragged: the end's strip shows the resize cursor.
        if (!d) {
          const cursor = onEndGrip(e.currentTarget, e.clientX, live.current.dirX) ? 'ew-resize' : '';
          if (e.currentTarget.style.cursor !== cursor) e.currentTarget.style.cursor = cursor;
          return;
        }
        if (!d || d.kind === 'range' || d.bar.stayId !== bar.stayId) return;
        const { colW, dirX } = live.current;
        if (d.kind === 'end') {
          const dx = (e.clientX - d.x) * dirX;
          live.current.setDragBoth({ ...d, delta: Math.round(dx / colW), moved: d.moved || Math.abs(dx) > 4 });
          return;
        }
        const dyNow = e.clientY - d.y;
        const moved = d.moved || Math.abs(dyNow) > 4 || Math.abs(e.clientX - d.x) > 4;
        // A stay that has ended is opened, never moved.
        if (!bar.isActive) return;
        // Only a reservation moves to other days; a stay that has begun keeps its dates.
        const delta = bar.state === 'reserved' ? Math.round(((e.clientX - d.x) * dirX) / colW) : 0;
        live.current.setDragBoth({ ...d, dy: dyNow, delta, moved, roomId: live.current.roomAt(e.clientY)?.id ?? d.roomId });
      },
      barUp() {
        live.current.endDragOnBar();
      },
      openBar(bar, roomName) {
        live.current.onOpenBar(bar, roomName);
      },
    }),
    [],
  );
  const outOfOrderByRoom = useMemo(() => {
    const map = new Map<number, TimelineWindow['outOfOrder']>();
    for (const o of data.outOfOrder) map.set(o.roomId, [...(map.get(o.roomId) ?? []), o]);
    return map;
  }, [data.outOfOrder]);
  const todayIndex = dates.indexOf(data.today);

  const weekdayFmt = useMemo(() => new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }), [locale]);
  const dayFmt = useMemo(() => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }), [locale]);
  const longFmt = useMemo(() => new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }), [locale]);
  // Each day's texts made once per window's answer and language, not on every frame of a scroll
  // (the header is drawn again on each; i18next's interpolation showed in the scroll's profile).
  const dayTexts = useMemo(
    () =>
      dates.map((date, i) => {
        const noon = new Date(`${date}T12:00:00Z`);
        const h = data.header[i]!;
        return {
          weekend: [0, 6].includes(noon.getUTCDay()),
          weekday: weekdayFmt.format(noon),
          day: dayFmt.format(noon),
          label: t('timeline.header.label', { date: longFmt.format(noon), free: h.free, percent: h.occupancy, arrivals: h.arrivals, departures: h.departures }),
        };
      }),
    [dates, data.header, t, weekdayFmt, dayFmt, longFmt],
  );

  if (rows.length === 0) {
    return <p className="text-muted-foreground rounded-md border p-6 text-center">{t('timeline.empty')}</p>;
  }

  return (
    <div
      ref={scrollRef}
      className="relative min-h-[320px] flex-1 overflow-auto rounded-md border"
      // Layout and paint contained: what a scroll redraws inside does not dirty the page around it
      // (not `strict`: the grid's height comes from its rows up to the screen's, not a fixed size).
      style={{ maxHeight: 'calc(100dvh - 220px)', contain: 'content' }}
      tabIndex={0}
      role="region"
      aria-label={t('timeline.scrollRegion')}
      data-testid="timeline-grid"
    >
      <div style={{ width: roomW + laneW, position: 'relative' }}>
        {/* The header row: each day's date and figures. */}
        <div className="bg-background sticky top-0 z-20 flex border-b" style={{ height: HEADER_HEIGHT, width: roomW + laneW }}>
          <div className="bg-background sticky start-0 z-30 flex items-end border-e p-2 text-xs font-medium" style={{ width: roomW, minWidth: roomW }}>
            {t('timeline.rooms')}
          </div>
          <div className="relative" style={{ width: laneW }}>
            {cols.map((c) => {
              const date = dates[c.index]!;
              const h = data.header[c.index]!;
              const text = dayTexts[c.index]!;
              return (
                <div
                  key={c.key}
                  className={cn(
                    'absolute top-0 flex h-full flex-col items-center justify-center gap-0.5 border-e px-0.5 text-center text-[11px] leading-tight',
                    text.weekend && 'bg-muted/60',
                    date === data.today && 'bg-sky-50 font-semibold',
                  )}
                  style={{ insetInlineStart: c.start - roomW, width: colW }}
                  title={text.label}
                  data-testid={`timeline-day-${date}`}
                >
                  <span className="sr-only">{text.label}</span>
                  <span aria-hidden>{text.weekday}</span>
                  <span aria-hidden className="font-medium">
                    {text.day}
                  </span>
                  <span aria-hidden className="text-muted-foreground inline-flex items-center gap-0.5 tabular-nums" dir="ltr">
                    <BedDouble className="size-3" />
                    {h.free} {h.occupancy}%
                  </span>
                  <span aria-hidden className="text-muted-foreground tabular-nums" dir="ltr">
                    ↓{h.arrivals} ↑{h.departures}
                  </span>
                </div>
              );
            })}
          </div>
        </div>
        {/* The rows: room groups (collapsible) and rooms with their bars. */}
        <div style={{ height: rowVirtualizer.getTotalSize(), position: 'relative' }}>
          {rowVirtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const top = item.start - HEADER_HEIGHT;
            if (row.kind === 'group') {
              return (
                <div key={item.key} className="bg-muted/40 absolute start-0 flex border-b" style={{ top, height: GROUP_HEIGHT, width: roomW + laneW }}>
                  <button
                    type="button"
                    className="bg-muted sticky start-0 z-10 flex items-center gap-1 px-2 text-start text-xs font-semibold"
                    style={{ width: Math.min(roomW + laneW, 260) }}
                    aria-expanded={!row.collapsed}
                    onClick={() => onToggleGroup(row.key)}
                    data-testid={`timeline-group-${row.key}`}
                  >
                    <ChevronDown className={cn('size-4 transition-transform', row.collapsed && '-rotate-90 rtl:rotate-90')} aria-hidden />
                    {t('timeline.groupName', { name: row.name ?? t('timeline.noGroup'), number: row.count })}
                  </button>
                </div>
              );
            }
            const room = row.room;
            const dragged = drag && drag.kind !== 'range' && drag.bar.roomId === room.id ? drag : null;
            return (
              <RoomRow
                key={item.key}
                room={room}
                bars={barsOf(room.id)}
                top={top}
                roomW={roomW}
                colW={colW}
                days={data.days}
                from={data.from}
                todayIndex={todayIndex}
                outOfOrder={outOfOrderByRoom.get(room.id) ?? NO_RANGES}
                dates={dates}
                colFrom={colFrom}
                colTo={colTo}
                isTarget={drag?.kind === 'move' && drag.moved && drag.roomId === room.id && drag.bar.roomId !== room.id}
                range={drag?.kind === 'range' && drag.room.id === room.id ? drag : null}
                dragged={dragged}
                dirX={dirX}
                labels={labels}
                on={handlers}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
