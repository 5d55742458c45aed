import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

/**
 * The radio buttons of a question the clerk answers (refund or keep a deposit, charge a dearer room's
 * difference or give the upgrade, keep a booked rate or price it again): none checked until the clerk
 * picks one. The caller wraps them in its fieldset and legend. Each input's test id is
 * `${testId}-${choice}`.
 */
export function RadioChoices<T extends string>({
  name,
  choices,
  value,
  onChange,
  label,
  testId,
  className,
}: {
  name: string;
  choices: readonly T[];
  value: NoInfer<T> | null;
  onChange(next: NoInfer<T>): void;
  label(choice: NoInfer<T>): ReactNode;
  testId: string;
  className?: string;
}) {
  return (
    <>
      {choices.map((choice) => (
        <label key={choice} className={cn('flex items-center gap-2', className)}>
          <input
            type="radio"
            name={name}
            value={choice}
            checked={value === choice}
            onChange={() => onChange(choice)}
            className="accent-primary size-4"
            data-testid={`${testId}-${choice}`}
          />
          {label(choice)}
        </label>
      ))}
    </>
  );
}
