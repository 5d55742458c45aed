import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CalendarPlus, ChevronLeft, ChevronRight } from 'lucide-react';
import { addDays, localDate } from '@console/shared';
import { LoadError, failedQuery } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { useHotelSettings } from '@/lib/hotel-settings';
import { cn } from '@/lib/utils';
import { timelineQueries, type TimelineBar } from './api';
import { BarDialog } from './bar-dialog';
import { CodeIcon, type TimelineAction } from './bar-parts';
import { BAR_STYLE } from './timeline-row';
import { Grid } from './timeline-grid';

const SPANS = [7, 14, 30, 60] as const;
type Span = (typeof SPANS)[number];

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
