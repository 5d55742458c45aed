import type { TMoneyMethod } from '@console/shared';
import { formatMoney } from '@/lib/money';
import { cn } from '@/lib/utils';
import type { Shift } from './api';

type ShiftLine = Shift['methods'][number];

/** The ways of paying a shift's close counts: cash always, and every way it took money by except a customer's balance (never in hand). */
export const countedLines = (shift: Shift) => shift.methods.filter((line): line is ShiftLine & { method: TMoneyMethod } => line.method !== 'balance');

/** Counted minus expected: red when money is missing, green when there is more than expected, plain when even; "—" before a count. */
export function Difference({ minor, currency, className, testId }: { minor: number | null; currency: string; className?: string; testId?: string }) {
  return (
    <span
      dir="ltr"
      className={cn(
        'tabular-nums',
        minor !== null && minor < 0 && 'text-destructive font-semibold',
        minor !== null && minor > 0 && 'text-emerald-700',
        className,
      )}
      data-testid={testId}
      data-difference={minor ?? undefined}
    >
      {minor === null ? '—' : `${minor > 0 ? '+' : ''}${formatMoney(minor, currency)}`}
    </span>
  );
}
