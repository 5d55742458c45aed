import * as React from 'react';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/**
 * An amount typed in major units, with the currency code at its end. Amounts read left to right
 * in every language, so the box and its suffix are laid out left to right as one (in Arabic too):
 * the padding that keeps digits clear of the suffix and the suffix itself are always on the same side.
 */
export const MoneyInput = React.forwardRef<HTMLInputElement, React.ComponentProps<typeof Input> & { currency: string }>(function MoneyInput(
  { currency, className, ...props },
  ref,
) {
  return (
    <div className="relative" dir="ltr">
      <Input ref={ref} inputMode="decimal" autoComplete="off" dir="ltr" className={cn('pe-14 text-start', className)} {...props} />
      <span className="text-muted-foreground pointer-events-none absolute inset-y-0 end-3 flex items-center text-xs" aria-hidden data-slot="currency">
        {currency}
      </span>
    </div>
  );
});
