import { useQuery } from '@tanstack/react-query';
import { ZCustomerMobile } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { formatMoney } from '@/lib/money';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { stayQueries } from '../api';

/** A mobile as the server takes it, or null while what was typed is not one yet. */
export function payerMobile(text: string): string | null {
  const parsed = ZCustomerMobile.safeParse(text);
  return parsed.success ? parsed.data : null;
}

/**
 * The member whose balance pays (way of paying "balance"): their mobile, and, once it names a
 * customer of the hotel, who they are and what their balance holds, said next to the field, with a
 * warning when it does not cover `amount` or the member is frozen. The server checks all of it
 * again when the money is recorded.
 */
export function BalancePayerField({
  id,
  mobile,
  onMobileChange,
  amount,
  currency,
  error,
}: {
  id: string;
  mobile: string;
  onMobileChange(mobile: string): void;
  /** What is to be taken from the balance, when known. */
  amount: number | undefined;
  currency: string;
  error?: string;
}) {
  const { t } = useTranslation();
  const valid = payerMobile(mobile.trim());
  const settled = useDebouncedValue(valid, 250);
  const lookup = useQuery(stayQueries.payerBalance(settled ?? '', settled !== null && settled === valid));
  const found = valid !== null && lookup.data && lookup.data.customer.mobile === valid ? lookup.data : null;
  const notFound = valid !== null && settled === valid && lookup.isError ? (appErrorOf(lookup.error)?.message ?? t('common.noAnswer')) : null;
  const short = found && amount !== undefined && !Number.isNaN(amount) && amount > found.balance;
  const status = found ? (
    <span data-testid="balance-payer" data-balance={found.balance} data-frozen={found.customer.frozen}>
      {t('orders.balancePay.member', { name: found.customer.nickname || found.customer.mobile, amount: formatMoney(found.balance, currency) })}
    </span>
  ) : valid !== null && !notFound ? (
    <span className="text-muted-foreground">{t('orders.balancePay.lookingUp')}</span>
  ) : null;
  const problem =
    error ??
    notFound ??
    (found?.customer.frozen
      ? t('orders.errors.balanceFrozen')
      : short
        ? t('orders.balancePay.notEnough', { amount: formatMoney(amount ?? 0, currency) })
        : undefined);
  return (
    <FormField id={id} label={t('orders.balancePay.mobile')} error={problem} hint={status} required>
      <Input
        inputMode="tel"
        dir="ltr"
        autoComplete="off"
        value={mobile}
        onChange={(e) => onMobileChange(e.target.value)}
        aria-required
        {...fieldControlProps(id, problem, status !== null)}
      />
    </FormField>
  );
}
