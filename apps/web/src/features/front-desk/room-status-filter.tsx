import { useTranslation } from 'react-i18next';
import type { TRoomStatus } from '@console/shared';
import { ROOM_STATUSES } from '@/lib/shared-constants';
import { ROOM_STATUS_STYLES } from '@/components/status-badges';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

/** "All" and the five statuses, each with its number of rooms; one of them filters the board. */
export function RoomStatusFilter({
  value,
  counts,
  onChange,
}: {
  value: TRoomStatus | undefined;
  counts: Record<TRoomStatus, number> | undefined;
  onChange(status: TRoomStatus | undefined): void;
}) {
  const { t } = useTranslation();
  const all = counts ? ROOM_STATUSES.reduce((sum, s) => sum + counts[s], 0) : undefined;
  return (
    // Wrapped on every screen: on a phone every status (Dirty, Maintain too) is in sight, nothing scrolls sideways (issue 17 §5).
    <div className="flex flex-wrap gap-1.5 sm:gap-2" role="group" aria-label={t('frontDesk.board.statusFilter')} data-testid="status-filter">
      <Chip label={t('frontDesk.board.statusAll')} count={all} isActive={value === undefined} onClick={() => onChange(undefined)} testId="status-filter-all" />
      {ROOM_STATUSES.map((status) => (
        <Chip
          key={status}
          label={t(`roomStatus.${status}`)}
          count={counts?.[status]}
          dot={ROOM_STATUS_STYLES[status].dot}
          isActive={value === status}
          onClick={() => onChange(status)}
          testId={`status-filter-${status}`}
        />
      ))}
    </div>
  );
}

function Chip({
  label,
  count,
  dot,
  isActive,
  onClick,
  testId,
}: {
  label: string;
  count: number | undefined;
  dot?: string;
  isActive: boolean;
  onClick(): void;
  testId: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={isActive}
      onClick={onClick}
      data-testid={testId}
      data-count={count}
      className={cn(
        'focus-visible:ring-ring inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full border px-2.5 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-2 sm:gap-2 sm:px-3',
        isActive ? 'bg-primary text-primary-foreground border-primary' : 'bg-background hover:bg-accent hover:text-accent-foreground',
      )}
    >
      {dot && <span className={cn('size-2 rounded-full', dot)} aria-hidden />}
      <span>{label}</span>
      <span
        className={cn('min-w-5 rounded-full px-1.5 text-xs tabular-nums', isActive ? 'bg-primary-foreground text-primary' : 'bg-muted text-muted-foreground')}
      >
        {count === undefined ? '–' : formatNumber(count)}
      </span>
    </button>
  );
}
