import type { ReactNode } from 'react';
import type { Control, FieldValues, Path, UseFormRegister } from 'react-hook-form';
import { DateTimeFormField } from '@/components/date-time-form-field';
import { cn } from '@/lib/utils';
import { VALIDITY_MODES, type ValidityMode } from '@/lib/validity';

export interface ValidityChoiceProps<T extends FieldValues> {
  control: Control<T, unknown, T>;
  register: UseFormRegister<T>;
  mode: ValidityMode;
  /** The room has a current stay (else "for the stay" is offered disabled). */
  hasStay: boolean;
  timeZone: string;
  legend: ReactNode;
  labels: { stay: ReactNode; period: ReactNode; validFrom: ReactNode; validUntil: ReactNode };
  /** The small text under each choice (the stay's check-out, or why there is none). */
  hints: Partial<Record<ValidityMode, ReactNode>>;
  errors: { validFrom?: string; validUntil?: string };
  /** Prefix of the element ids (`<idPrefix>-mode-stay`, `<idPrefix>-valid-from`). */
  idPrefix: string;
  /** Prefix of the choices' test ids (`<testIdPrefix>-stay`). */
  testIdPrefix: string;
  testId?: string;
}

/** The choice between the stay and a period, with the period's two times when it is chosen (radio buttons: arrows move). */
export function ValidityChoice<T extends FieldValues>({
  control,
  register,
  mode,
  hasStay,
  timeZone,
  legend,
  labels,
  hints,
  errors,
  idPrefix,
  testIdPrefix,
  testId,
}: ValidityChoiceProps<T>) {
  return (
    <fieldset className="grid gap-2" data-testid={testId}>
      <legend className="mb-2 text-sm leading-none font-medium">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {VALIDITY_MODES.map((value) => {
          const disabled = value === 'stay' && !hasStay;
          return (
            <label
              key={value}
              htmlFor={`${idPrefix}-mode-${value}`}
              className={cn(
                'has-focus-visible:ring-ring flex gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
                mode === value ? 'border-primary bg-primary/5' : !disabled && 'hover:bg-accent/50',
              )}
            >
              <input
                type="radio"
                id={`${idPrefix}-mode-${value}`}
                value={value}
                disabled={disabled}
                className="accent-primary mt-0.5 size-4 shrink-0"
                {...register('mode' as Path<T>)}
                data-testid={`${testIdPrefix}-${value}`}
              />
              <span className="grid gap-1">
                <span className="font-medium">{labels[value]}</span>
                {hints[value] && <span className="text-muted-foreground text-xs leading-snug">{hints[value]}</span>}
              </span>
            </label>
          );
        })}
      </div>
      {mode === 'period' && (
        <div className="mt-2 grid gap-x-3 gap-y-1 sm:grid-cols-2">
          <DateTimeFormField
            control={control}
            name={'validFrom' as Path<T>}
            id={`${idPrefix}-valid-from`}
            label={labels.validFrom}
            error={errors.validFrom}
            required
            timeZone={timeZone}
          />
          <DateTimeFormField
            control={control}
            name={'validUntil' as Path<T>}
            id={`${idPrefix}-valid-until`}
            label={labels.validUntil}
            error={errors.validUntil}
            required
            timeZone={timeZone}
          />
        </div>
      )}
    </fieldset>
  );
}
