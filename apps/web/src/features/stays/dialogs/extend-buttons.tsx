import { useTranslation } from 'react-i18next';
import type { TStayLengthUnit } from '@console/shared';
import { Button } from '@/components/ui/button';

/** The quick lengths (the spec's units, and a week): each adds to the time in the field. */
const QUICK_LENGTHS = [
  { key: 'hour', testId: 'plusHour', amount: 1, unit: 'hour' },
  { key: 'day', testId: 'plusDay', amount: 1, unit: 'day' },
  { key: 'week', testId: 'plusWeek', amount: 7, unit: 'day' },
  { key: 'month', testId: 'plusMonth', amount: 1, unit: 'month' },
  { key: 'year', testId: 'plusYear', amount: 1, unit: 'year' },
] as const satisfies readonly { key: string; testId: string; amount: number; unit: TStayLengthUnit }[];

/**
 * "+1 hour, +1 day, +1 week, +1 month, +1 year" next to a time field: each press moves the field's
 * time on by that much (stay-times.ts `addToTime`), so "+1 day" pressed twice is two days more.
 */
export function ExtendButtons({
  label,
  onExtend,
  testIdPrefix,
}: {
  label: string;
  onExtend(amount: number, unit: TStayLengthUnit): void;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={label}>
      <span className="text-muted-foreground text-sm" aria-hidden>
        {label}
      </span>
      {QUICK_LENGTHS.map((quick) => (
        <Button
          key={quick.key}
          type="button"
          variant="outline"
          size="sm"
          onClick={() => onExtend(quick.amount, quick.unit)}
          data-testid={`${testIdPrefix}-${quick.testId}`}
        >
          {t(`dateField.add.${quick.key}`)}
        </Button>
      ))}
    </div>
  );
}
