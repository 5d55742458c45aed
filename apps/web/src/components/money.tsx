import { formatMoney } from '@/lib/money';
import { cn } from '@/lib/utils';

/** An amount, read left to right in every language. */
export function Money({ minor, currency, className }: { minor: number | null; currency: string; className?: string }) {
  return (
    <span dir="ltr" className={cn('tabular-nums', className)}>
      {formatMoney(minor, currency)}
    </span>
  );
}

/** A column heading of the money tables (shifts, reports): it wraps (a long word breaks only when nothing else can), so no table scrolls sideways in any language. */
export const WRAP = 'whitespace-normal align-bottom [overflow-wrap:anywhere]';
export const WRAP_END = `${WRAP} text-end`;
