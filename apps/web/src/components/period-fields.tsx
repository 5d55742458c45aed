import { useTranslation } from 'react-i18next';
import { DateTimeField } from '@/components/date-time-field';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/**
 * A list's period filter: the "From" and "To" days in the hotel's zone, side by side. The page keeps
 * the values (`usePeriodDraft`) and says why a period is refused where it fits, with `PeriodError`
 * (`<p id="{idPrefix}-period-error">`, which "To" is then described by). Ids and test ids are
 * `{idPrefix}-from` and `{idPrefix}-to`.
 */
export function PeriodFields({
  idPrefix,
  timeZone,
  from,
  to,
  onFromChange,
  onToChange,
  hasError,
  fieldClassName = 'w-44',
  className = 'gap-1.5',
}: {
  idPrefix: string;
  timeZone: string;
  from: string;
  to: string;
  onFromChange: (value: string) => void;
  onToChange: (value: string) => void;
  hasError: boolean;
  fieldClassName?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className={cn('grid', className)}>
        <Label htmlFor={`${idPrefix}-from`}>{t('frontDesk.detail.unlockFrom')}</Label>
        <DateTimeField
          id={`${idPrefix}-from`}
          withTime={false}
          timeZone={timeZone}
          className={fieldClassName}
          value={from}
          onChange={onFromChange}
          data-testid={`${idPrefix}-from`}
        />
      </div>
      <div className={cn('grid', className)}>
        <Label htmlFor={`${idPrefix}-to`}>{t('frontDesk.detail.unlockTo')}</Label>
        <DateTimeField
          id={`${idPrefix}-to`}
          withTime={false}
          timeZone={timeZone}
          className={fieldClassName}
          value={to}
          onChange={onToChange}
          invalid={hasError}
          describedBy={hasError ? `${idPrefix}-period-error` : undefined}
          data-testid={`${idPrefix}-to`}
        />
      </div>
    </>
  );
}

/** Why the period cannot be asked for (`periodErrorOf`), said under the fields: the text "To" is described by. */
export function PeriodError({
  idPrefix,
  error,
  className,
}: {
  idPrefix: string;
  error: 'validation.dateInvalid' | 'validation.endAfterStart';
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <p id={`${idPrefix}-period-error`} role="alert" className={cn('text-destructive text-sm', className)}>
      {t(error)}
    </p>
  );
}
