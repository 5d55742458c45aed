import * as React from 'react';

import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';

/** Id of the error message rendered by `FormField` for the control `id`. */
function fieldErrorId(id: string) {
  return `${id}-error`;
}

/** Id of the hint rendered by `FormField` for the control `id`. */
function fieldHintId(id: string) {
  return `${id}-hint`;
}

/**
 * Accessibility props for the control inside a `FormField`:
 * `<Input {...fieldControlProps('email', errors.email?.message, true)} {...register('email')} />`.
 */
function fieldControlProps(id: string, error?: React.ReactNode, hasHint = false) {
  const describedBy = [hasHint ? fieldHintId(id) : null, error ? fieldErrorId(id) : null].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
}

type FormFieldProps = {
  /** Id of the control; the label points at it and the error gets `${id}-error`. */
  id: string;
  label: React.ReactNode;
  /** Validation message (e.g. `errors.name?.message`); its line stays (empty) when there is none. */
  error?: React.ReactNode;
  hint?: React.ReactNode;
  /** Shows a decorative marker after the label; set `required`/`aria-required` on the control too. */
  required?: boolean;
  className?: string;
  children: React.ReactNode;
};

/**
 * Library-agnostic field layout (label, control, hint, error). The caller wires the control:
 * `id`, `aria-invalid` and `aria-describedby={fieldErrorId(id)}` (see `fieldControlProps`).
 */
function FormField({ id, label, error, hint, required, className, children }: FormFieldProps) {
  const invalid = Boolean(error);
  return (
    <div data-slot="form-field" data-invalid={invalid || undefined} className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={id} data-error={invalid} className="data-[error=true]:text-destructive">
        {label}
        {required ? (
          <span aria-hidden="true" className="-ms-1 text-destructive">
            *
          </span>
        ) : null}
      </Label>
      {children}
      {hint ? (
        <p id={fieldHintId(id)} data-slot="form-field-hint" className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {/*
        The error line keeps its place while empty, so a message appearing (on blur) never moves
        the fields below it: the click that was on its way to the next field still lands there.
      */}
      <p id={fieldErrorId(id)} data-slot="form-field-error" className="text-destructive -mt-1 min-h-5 text-sm leading-5">
        {invalid ? <span role="alert">{error}</span> : null}
      </p>
    </div>
  );
}

export { FormField, fieldControlProps, fieldErrorId, fieldHintId };
export type { FormFieldProps };
