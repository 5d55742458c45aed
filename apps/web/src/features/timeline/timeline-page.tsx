import { memo, useCallback, useMemo, useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { BedDouble, CalendarPlus, ChevronDown, ChevronLeft, ChevronRight } from 'lucide-react';
import { TIMELINE_BLOCK, addDays, localDate, localDateTime, zonedToInstant } from '@console/shared';
import { LoadError, failedQuery } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { useDirection } from '@/components/ui/direction';
import { useHotelSettings } from '@/lib/hotel-settings';
import { cn } from '@/lib/utils';
import { timelineQueries, type TimelineBar, type TimelineWindow } from './api';
import { BarDialog } from './bar-dialog';
import { CodeIcon, type TimelineAction } from './bar-parts';
import { COLUMN_WIDTH, GROUP_HEIGHT, HEADER_HEIGHT, ROW_HEIGHT, barSpan, blocksToFetch } from './timeline-geometry';

const SPANS = [7, 14, 30, 60] as const;
type Span = (typeof SPANS)[number];
type Room = TimelineWindow['groups'][number]['rooms'][number];
type Row = { kind: 'group'; key: string; name: string | null; count: number; collapsed: boolean } | { kind: 'room'; room: Room };

/** A drag in progress: a bar moved to another room, a bar's end moved, or an empty range chosen. */
type Drag =
  | { kind: 'move'; bar: TimelineBar; x: number; y: number; dy: number; delta: number; roomId: number; moved: boolean }
  | { kind: 'end'; bar: TimelineBar; x: number; delta: number; moved: boolean }
  | { kind: 'range'; room: Room; first: number; last: number };

const NO_BARS: readonly TimelineBar[] = [];
/** An answer's bars by room, made once per answer. */
const barsByRoom = new WeakMap<readonly TimelineBar[], Map<number, TimelineBar[]>>();
function byRoom(bars: readonly TimelineBar[]) {
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

const BAR_STYLE: Record<TimelineBar['state'], string> = {
  reserved: 'border-sky-500 bg-sky-100 text-sky-950',
  in_house: 'border-emerald-600 bg-emerald-100 text-emerald-950',
  checked_out: 'border-slate-400 bg-slate-100 text-slate-800',
  owing: 'border-red-500 bg-red-100 text-red-950',
};

/**
 * The timeline (issue 28 §1): rooms down, days across, each stay a bar. Rows and columns are
 * virtualised (only what is on screen is drawn, at 1,000 rooms and 60 days), one request per
 * window; a bar dragged to another room opens the room change, its end dragged later opens the
 * renewal, a range of empty days dragged opens a reservation, each with its quote and rules. Every
 * drag has its keyboard and dialog way: a bar is a button whose dialog offers the same changes.
 */
export function TimelinePage({ actions }: { actions: (action: TimelineAction | null, close: () => void) => ReactNode }) {
  const { t, i18n } = useTranslation();
  const { timeZone } = useHotelSettings();
  const today = localDate(new Date(), timeZone);
  const [span, setSpan] = useState<Span>(14);
  const [from, setFrom] = useState(() => addDays(today, -1));
  const [groupId, setGroupId] = useState<number | undefined>(undefined);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [action, setAction] = useState<TimelineAction | null>(null);
  const [opened, setOpened] = useState<{ bar: TimelineBar; roomName: string } | null>(null);
  const query = useQuery(timelineQueries.window({ from, days: span, ...(groupId === undefined ? {} : { groupId }) }));
  const data = query.data;

  const shift = (days: number) => setFrom((f) => addDays(f, days));

  return (
    <div className="flex h-full min-h-0 flex-col gap-3" data-testid="timeline-page">
      <div className="flex flex-wrap items-end gap-2">
        <h1 className="me-auto text-xl font-semibold">{t('timeline.title')}</h1>
        <ToggleGroup type="single" value={String(span)} onValueChange={(v) => v && setSpan(Number(v) as Span)} aria-label={t('timeline.spanLabel')}>
          {SPANS.map((s) => (
            <ToggleGroupItem key={s} value={String(s)} data-testid={`timeline-span-${s}`}>
              {t('timeline.spanDays', { number: s })}
            </ToggleGroupItem>
          ))}
        </ToggleGroup>
        <div className="flex items-center gap-1">
          <Button variant="outline" size="icon" onClick={() => shift(-span)} aria-label={t('timeline.previous')}>
            <ChevronLeft className="rtl:rotate-180" />
          </Button>
          <Button variant="outline" onClick={() => setFrom(addDays(today, -1))}>
            {t('timeline.today')}
          </Button>
          <Button variant="outline" size="icon" onClick={() => shift(span)} aria-label={t('timeline.next')}>
            <ChevronRight className="rtl:rotate-180" />
          </Button>
        </div>
        <div className="grid gap-1">
          <Label htmlFor="timeline-jump" className="text-xs">
            {t('timeline.jumpTo')}
          </Label>
          <Input
            id="timeline-jump"
            type="date"
            className="h-9 w-40"
            value={from}
            onChange={(e) => {
              if (/^\d{4}-\d{2}-\d{2}$/.test(e.target.value)) setFrom(e.target.value);
            }}
            data-testid="timeline-jump"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="timeline-group" className="text-xs">
            {t('timeline.group')}
          </Label>
          <NativeSelect
            id="timeline-group"
            className="h-9 w-44"
            value={groupId === undefined ? '' : String(groupId)}
            onChange={(e) => setGroupId(e.target.value ? Number(e.target.value) : undefined)}
          >
            <NativeSelectOption value="">{t('timeline.allGroups')}</NativeSelectOption>
            {data?.roomGroups.map((g) => (
              <NativeSelectOption key={g.id} value={String(g.id)}>
                {g.name}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <Button onClick={() => setAction({ kind: 'reserve', room: null })} data-testid="timeline-new-reservation">
          <CalendarPlus />
          {t('timeline.newReservation')}
        </Button>
      </div>
      <p className="text-muted-foreground text-sm">{t('timeline.hint')}</p>
      <Legend />
      {query.isError && <LoadError query={failedQuery(query)} what={t('timeline.what')} />}
      {!data ? (
        !query.isError && <Skeleton className="h-96 w-full" />
      ) : (
        <Grid
          key={`${data.from}-${data.days}`}
          data={data}
          collapsed={collapsed}
          onToggleGroup={(key) =>
            setCollapsed((c) => {
              const next = new Set(c);
              if (next.has(key)) next.delete(key);
              else next.add(key);
              return next;
            })
          }
          onOpenBar={(bar, roomName) => setOpened({ bar, roomName })}
          onAction={setAction}
          locale={i18n.language}
        />
      )}
      {opened && (
        <BarDialog
          bar={opened.bar}
          roomName={opened.roomName}
          timeZone={timeZone}
          onClose={() => setOpened(null)}
          onAction={(a) => {
            setOpened(null);
            setAction(a);
          }}
        />
      )}
      {actions(action, () => setAction(null))}
    </div>
  );
}

function Legend() {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs" aria-label={t('timeline.legend')}>
      {(['reserved', 'in_house', 'checked_out', 'owing'] as const).map((s) => (
        <li key={s} className="flex items-center gap-1.5">
          <span className={cn('inline-block size-3 rounded-sm border', BAR_STYLE[s])} aria-hidden />
          {t(`timeline.state.${s}`)}
        </li>
      ))}
      {(['on_lock', 'pending', 'failed'] as const).map((c) => (
        <li key={c} className="flex items-center gap-1.5">
          <CodeIcon state={c} />
          {t(`timeline.code.${c}`)}
        </li>
      ))}
    </ul>
  );
}

/** "guest, room, dates, state" (and its channel and code), as a screen reader reads a bar. */
function useBarLabel() {
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

function Grid({
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

const NO_RANGES: TimelineWindow['outOfOrder'] = [];
const COL_STEP = 16;
/** How far from a bar's end a press drags the end (the strip styles.css draws there, 0.5rem). */
const END_GRIP_PX = 8;

/** Whether `clientX` is on the end strip of a bar that has one (`data-resizable`; its end is on the right, or the left right to left). */
function onEndGrip(bar: HTMLElement, clientX: number, dirX: number): boolean {
  if (bar.dataset.resizable === undefined) return false;
  const box = bar.getBoundingClientRect();
  return (dirX > 0 ? box.right - clientX : clientX - box.left) <= END_GRIP_PX;
}

interface RowHandlers {
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
const RoomRow = memo(function RoomRow({
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
