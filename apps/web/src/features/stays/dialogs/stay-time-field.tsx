import type { ReactNode } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { DateTimeField } from '@/components/date-time-field';
import { FormField, fieldErrorId, fieldHintId } from '@/components/ui/form-field';

/**
 * A time of a stay form (`YYYY-MM-DDTHH:mm` in the hotel's zone, or a date with `withTime={false}`)
 * as a labelled field: the console's own date-time field, in the console's language, wired to
 * react-hook-form. `onValueChange` runs after the form has the new value (to fill other fields).
 */
export function StayTimeField<T extends FieldValues, TOut = T>({
  control,
  name,
  id,
  label,
  hint,
  error,
  required,
  timeZone,
  withTime = true,
  className,
  timeForPickedDay,
  onValueChange,
}: {
  control: Control<T, unknown, TOut>;
  name: Path<T>;
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  timeZone: string;
  withTime?: boolean;
  className?: string;
  /** The time a day picked on the calendar gets (DateTimeField's `timeForPickedDay`). */
  timeForPickedDay?(date: string): string;
  onValueChange?(value: string): void;
}) {
  const describedBy = [hint ? fieldHintId(id) : null, error ? fieldErrorId(id) : null].filter(Boolean).join(' ') || undefined;
  return (
    <FormField id={id} label={label} hint={hint} error={error} required={required} className={className}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <DateTimeField
            ref={field.ref}
            id={id}
            value={typeof field.value === 'string' ? field.value : ''}
            onChange={(value) => {
              field.onChange(value);
              onValueChange?.(value);
            }}
            onBlur={field.onBlur}
            timeZone={timeZone}
            withTime={withTime}
            timeForPickedDay={timeForPickedDay}
            invalid={Boolean(error)}
            describedBy={describedBy}
            data-testid={id}
          />
        )}
      />
    </FormField>
  );
}
