import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { LISTED_ROOMS_MAX, WINDOW_ROOMS_MAX, roomFit } from './room-fit';

/**
 * Whether the rooms chosen fit on one card, in words (docs/card-format.md): up to 7 rooms anywhere,
 * rooms within 96 consecutive room numbers, or all rooms; more cannot be one card.
 */
export function RoomFitNote({ count, allRooms, id, className }: { count: number; allRooms: boolean; id?: string; className?: string }) {
  const { t } = useTranslation();
  const fit = roomFit(count, allRooms);
  const params = { n: formatNumber(count), max: formatNumber(LISTED_ROOMS_MAX), window: formatNumber(WINDOW_ROOMS_MAX) };
  const Icon = fit === 'tooMany' ? XCircle : fit === 'maybe' ? AlertTriangle : fit === 'none' ? Info : CheckCircle2;
  return (
    <p
      id={id}
      className={cn(
        'flex items-start gap-2 rounded-md border px-3 py-2 text-sm',
        fit === 'tooMany' && 'border-destructive/40 bg-destructive/5 text-destructive',
        fit === 'maybe' && 'border-warning bg-warning/10',
        (fit === 'fits' || fit === 'all') && 'border-success/40 bg-success/5',
        fit === 'none' && 'text-muted-foreground',
        className,
      )}
      role={fit === 'tooMany' ? 'alert' : 'status'}
      aria-live="polite"
      data-testid="room-fit"
      data-fit={fit}
    >
      <Icon className={cn('mt-0.5 size-4 shrink-0', (fit === 'fits' || fit === 'all') && 'text-success')} aria-hidden />
      <span>{t(`cardAdmin.fit.${fit}`, params)}</span>
    </p>
  );
}
