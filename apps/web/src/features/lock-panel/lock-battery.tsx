import { BatteryFull, BatteryLow, BatteryMedium, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatShortDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';

/** A room's lock as the board lists it: the last status its provider reported, null before the first. */
interface RoomLockInfo {
  lock: { online: boolean | null; battery: number | null; lastSeenAt: string | null } | null;
  /** The level a legacy app read over Bluetooth, for rooms whose lock the provider has not reported. */
  lockPower: number | null;
}

/** The battery to show for a room: the provider's last report, else the legacy app's reading. */
export function roomBattery(room: RoomLockInfo): number | null {
  return room.lock?.battery ?? room.lockPower;
}

/** The provider found the room's lock offline at its last check (null, never asked, is not offline). */
export function isLockOffline(room: RoomLockInfo): boolean {
  return room.lock?.online === false;
}

/** The battery of a room's lock, as the lock last reported it (0-100). Low batteries stand out. */
export function LockBattery({ power, className }: { power: number | null; className?: string }) {
  const { t } = useTranslation();
  if (power === null) return null;
  const Icon = power <= 20 ? BatteryLow : power <= 60 ? BatteryMedium : BatteryFull;
  const label = t('frontDesk.board.lockPowerValue', { power });
  return (
    <span
      className={cn('inline-flex items-center gap-1 text-xs tabular-nums', power <= 20 ? 'text-destructive font-medium' : 'text-muted-foreground', className)}
      title={label}
      data-testid="lock-power"
      data-low={power <= 20 || undefined}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      <span className="sr-only">{label}</span>
      <span aria-hidden>{power}%</span>
    </span>
  );
}

/**
 * The room's lock did not answer: an icon with its label for screen readers (or shown, `withText`),
 * and a tooltip saying when the lock was last heard from. Inside a link (a tile) it is not a tab stop
 * of its own: the link reads its label; elsewhere (`focusable`) the keyboard reaches its tooltip.
 */
export function LockOffline({
  lastSeenAt,
  timeZone,
  focusable = false,
  withText = false,
  className,
}: {
  lastSeenAt: string | null;
  timeZone: string;
  focusable?: boolean;
  withText?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  const label = t('frontDesk.board.lockOffline');
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          className={cn(
            'focus-visible:ring-ring inline-flex shrink-0 items-center gap-1 rounded-full bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-800 outline-none focus-visible:ring-2',
            className,
          )}
          tabIndex={focusable ? 0 : undefined}
          data-testid="lock-offline"
        >
          <WifiOff className="size-3.5 shrink-0" aria-hidden />
          <span className={withText ? undefined : 'sr-only'}>{label}</span>
        </span>
      </TooltipTrigger>
      <TooltipContent>
        {label}
        {lastSeenAt && (
          <>
            {' · '}
            {t('frontDesk.board.lockLastSeenAt', { time: formatShortDateTime(lastSeenAt, timeZone) })}
          </>
        )}
      </TooltipContent>
    </Tooltip>
  );
}
