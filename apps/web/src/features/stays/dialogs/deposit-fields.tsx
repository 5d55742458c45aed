import { MONEY_METHODS } from '@console/shared';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { MoneyInput } from '@/components/money-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { formatMoney } from '@/lib/money';

/**
 * The deposit taken with a check-in or a reservation (issue 26 "nothing about money is assumed"):
 * the amount starts empty and the way of paying unchosen; the room's deposit (the price setting)
 * is shown beside it as what to take, but only what the clerk enters, with how it was paid, is
 * recorded on the bill.
 */
export function DepositFields({
  idPrefix,
  currency,
  suggested,
  amount,
  method,
  amountError,
  methodError,
}: {
  idPrefix: string;
  currency: string;
  /** The room's deposit, once the room and dates are known. */
  suggested: number | undefined;
  amount: UseFormRegisterReturn;
  method: UseFormRegisterReturn;
  amountError?: string;
  methodError?: string;
}) {
  const { t } = useTranslation();
  const amountId = `${idPrefix}depositAmount`;
  const methodId = `${idPrefix}depositMethod`;
  const hint = suggested !== undefined && suggested > 0 ? t('frontDesk.stay.depositSuggested', { amount: formatMoney(suggested, currency) }) : undefined;
  return (
    <>
      <FormField id={amountId} label={t('frontDesk.stay.depositLabel')} error={amountError} hint={hint}>
        <MoneyInput currency={currency} {...fieldControlProps(amountId, amountError, hint !== undefined)} {...amount} data-testid={amountId} />
      </FormField>
      <FormField id={methodId} label={t('reservations.depositMethod')} error={methodError}>
        <NativeSelect wrapperClassName="w-full" {...fieldControlProps(methodId, methodError)} {...method} data-testid={methodId}>
          <NativeSelectOption value="">{t('common.choose')}</NativeSelectOption>
          {MONEY_METHODS.map((m) => (
            <NativeSelectOption key={m} value={m}>
              {t(`orders.methods.${m}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
    </>
  );
}
