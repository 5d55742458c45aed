import { QUICK_RANGES } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { todayInHotel } from '@/lib/hotel-time';
import { quickRange } from '@/lib/quick-range';
import { cn } from '@/lib/utils';

/**
 * A period's quick ranges (today, yesterday, the last week) in the hotel's calendar, the one the
 * period is now pressed. Test ids are `{testIdPrefix}-{range}`.
 */
export function QuickRangeButtons({
  from,
  to,
  timeZone,
  onPick,
  testIdPrefix,
  className,
}: {
  from: string;
  to: string;
  timeZone: string;
  onPick(period: { from: string; to: string }): void;
  testIdPrefix: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const today = todayInHotel(timeZone);
  const activeRange = QUICK_RANGES.find((range) => {
    const r = quickRange(range, today);
    return r.from === from && r.to === to;
  });
  return (
    <div className={cn('flex flex-wrap gap-2', className)} role="group" aria-label={t('frontDesk.detail.unlockQuickRange')}>
      {QUICK_RANGES.map((range) => (
        <Button
          key={range}
          type="button"
          size="sm"
          variant={activeRange === range ? 'default' : 'outline'}
          aria-pressed={activeRange === range}
          onClick={() => onPick(quickRange(range, todayInHotel(timeZone)))}
          data-testid={`${testIdPrefix}-${range}`}
        >
          {t(`frontDesk.detail.unlockRanges.${range}`)}
        </Button>
      ))}
    </div>
  );
}
