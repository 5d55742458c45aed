import type { ReactNode } from 'react';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { DateTimeField } from '@/components/date-time-field';
import { FormField, fieldErrorId, fieldHintId } from '@/components/ui/form-field';

/**
 * A wall-clock time of the hotel (`YYYY-MM-DDTHH:mm`) as a labelled form field: the console's own
 * date-time field, in the console's language, wired to react-hook-form.
 */
export function DateTimeFormField<T extends FieldValues, TOut = T>({
  control,
  name,
  id,
  label,
  hint,
  error,
  required,
  timeZone,
  className,
}: {
  control: Control<T, unknown, TOut>;
  name: Path<T>;
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  timeZone: string;
  className?: string;
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
            onChange={field.onChange}
            onBlur={field.onBlur}
            timeZone={timeZone}
            invalid={Boolean(error)}
            describedBy={describedBy}
            data-testid={id}
          />
        )}
      />
    </FormField>
  );
}
