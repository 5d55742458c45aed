import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { cardQueries } from '../api';
import { LISTED_ROOMS_MAX, WINDOW_ROOMS_MAX, roomFit, type RoomFit } from './room-fit';

/**
 * Whether the rooms chosen fit on one card: decided here up to 7 rooms or above 96, and asked of
 * the server (which knows the rooms' lock numbers) in between.
 */
export function useRoomFit(roomIds: readonly number[], allRooms: boolean): RoomFit {
  const local = roomFit(roomIds.length, allRooms);
  const sorted = [...roomIds].sort((a, b) => a - b);
  const server = useQuery(cardQueries.roomFit(sorted, local === 'maybe'));
  // A previous choice's answer is not this choice's.
  const answer = server.data && !server.isPlaceholderData ? server.data : null;
  return roomFit(roomIds.length, allRooms, local === 'maybe' ? answer : null);
}

/**
 * Whether the rooms chosen fit on one card, in words (docs/card-format.md): up to 7 rooms anywhere,
 * rooms within 96 consecutive room numbers, or all rooms; more cannot be one card.
 */
export function RoomFitNote({ count, fit, id, className }: { count: number; fit: RoomFit; id?: string; className?: string }) {
  const { t } = useTranslation();
  const params = { n: formatNumber(count), max: formatNumber(LISTED_ROOMS_MAX), window: formatNumber(WINDOW_ROOMS_MAX) };
  const isBad = fit === 'tooMany' || fit === 'far';
  const isGood = fit === 'fits' || fit === 'all' || fit === 'near';
  const Icon = isBad ? XCircle : fit === 'maybe' ? AlertTriangle : fit === 'none' ? Info : CheckCircle2;
  return (
    <p
      id={id}
      className={cn(
        'flex items-start gap-2 rounded-md border px-3 py-2 text-sm',
        isBad && 'border-destructive/40 bg-destructive/5 text-destructive',
        fit === 'maybe' && 'border-warning bg-warning/10',
        isGood && 'border-success/40 bg-success/5',
        fit === 'none' && 'text-muted-foreground',
        className,
      )}
      role={isBad ? 'alert' : 'status'}
      aria-live="polite"
      data-testid="room-fit"
      data-fit={fit}
    >
      <Icon className={cn('mt-0.5 size-4 shrink-0', isGood && 'text-success')} aria-hidden />
      <span>{t(`cardAdmin.fit.${fit}`, params)}</span>
    </p>
  );
}
