import { BatteryFull, BatteryLow, BatteryMedium } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

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
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      <span className="sr-only">{label}</span>
      <span aria-hidden>{power}%</span>
    </span>
  );
}
