import { useTranslation } from 'react-i18next';
import type { TRoomStatus, TStayState } from '@console/shared';
import { cn } from '@/lib/utils';

/** One colour per room status, used by badges, filter chips and the tiles of the room board. */
export const ROOM_STATUS_STYLES: Record<TRoomStatus, { dot: string; tile: string; badge: string }> = {
  vacant: { dot: 'bg-emerald-500', tile: 'border-emerald-300 bg-emerald-50', badge: 'bg-emerald-100 text-emerald-800' },
  reserved: { dot: 'bg-amber-500', tile: 'border-amber-300 bg-amber-50', badge: 'bg-amber-100 text-amber-900' },
  checked_in: { dot: 'bg-blue-600', tile: 'border-blue-300 bg-blue-50', badge: 'bg-blue-100 text-blue-800' },
  dirty: { dot: 'bg-orange-600', tile: 'border-orange-300 bg-orange-50', badge: 'bg-orange-100 text-orange-900' },
  maintain: { dot: 'bg-slate-500', tile: 'border-slate-300 bg-slate-100', badge: 'bg-slate-200 text-slate-800' },
};

export function RoomStatusBadge({ status, className }: { status: TRoomStatus; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn(
        'inline-flex max-w-full min-w-0 items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        ROOM_STATUS_STYLES[status].badge,
        className,
      )}
      data-status={status}
    >
      <span className={cn('size-1.5 shrink-0 rounded-full', ROOM_STATUS_STYLES[status].dot)} aria-hidden />
      <span className="truncate">{t(`roomStatus.${status}`)}</span>
    </span>
  );
}

const STAY_STATE_STYLES: Record<TStayState, string> = {
  reserved: 'bg-amber-100 text-amber-900',
  in_house: 'bg-blue-100 text-blue-800',
  expired: 'bg-red-100 text-red-800',
  moved: 'bg-slate-200 text-slate-700',
  checked_out: 'bg-slate-100 text-slate-700',
  ended: 'bg-slate-100 text-slate-600',
  no_show: 'bg-red-100 text-red-800',
};

export function StayStateBadge({ state, className }: { state: TStayState; className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', STAY_STATE_STYLES[state], className)}
      data-state={state}
    >
      {t(`stayState.${state}`)}
    </span>
  );
}
