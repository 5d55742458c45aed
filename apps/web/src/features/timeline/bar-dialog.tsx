import { useTranslation } from 'react-i18next';
import { ArrowLeftRight, CalendarClock } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import type { TimelineBar } from './api';
import { CodeIcon, type TimelineAction } from './bar-parts';

/**
 * A bar opened (a click, or Enter on it): who, which room, when, its state, channel and code, and
 * the changes a drag makes, as buttons: "move to another room" (the room change's dialog) and
 * "change dates" (the reschedule dialog: a reservation's dates and room, a stay's check-out earlier
 * or later). The keyboard's way to do every drag.
 */
export function BarDialog({
  bar,
  roomName,
  timeZone,
  onClose,
  onAction,
}: {
  bar: TimelineBar;
  roomName: string;
  timeZone: string;
  onClose(): void;
  onAction(action: TimelineAction): void;
}) {
  const { t } = useTranslation();
  const facts: [string, React.ReactNode][] = [
    [t('timeline.details.room'), roomName],
    [t('timeline.details.from'), formatDateTime(bar.startAt, timeZone)],
    [t('timeline.details.to'), formatDateTime(bar.endAt, timeZone)],
    [t('timeline.details.state'), t(`timeline.state.${bar.state}`)],
    [t('timeline.details.channel'), bar.channel ?? t('timeline.channel.desk')],
    [
      t('timeline.details.code'),
      <span key="code" className="inline-flex items-center gap-1">
        <CodeIcon state={bar.codeState} />
        {bar.codeState ? t(`timeline.code.${bar.codeState}`) : t('timeline.code.none')}
      </span>,
    ],
  ];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent data-testid="timeline-bar-dialog">
        <DialogHeader>
          <DialogTitle>{bar.guestName ?? t('timeline.bar.noGuest')}</DialogTitle>
          <DialogDescription>{bar.isActive ? t('timeline.details.description') : t('timeline.details.ended')}</DialogDescription>
        </DialogHeader>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          {facts.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-muted-foreground">{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <DialogFooter className="gap-2 sm:justify-start">
          <Button
            variant="outline"
            disabled={!bar.isActive}
            onClick={() => onAction({ kind: 'change-room', stayId: bar.stayId })}
            data-testid="timeline-move-room"
          >
            <ArrowLeftRight />
            {t('timeline.details.changeRoom')}
          </Button>
          <Button
            variant="outline"
            disabled={!bar.isActive}
            onClick={() => onAction({ kind: 'reschedule', stayId: bar.stayId })}
            data-testid="timeline-change-dates"
          >
            <CalendarClock />
            {t('timeline.details.changeDates')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
