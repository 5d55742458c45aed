import { DEPOSIT_DECISIONS, ORDER_LIMITS, type TDepositDecision, type TMoneyMethod } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { RadioChoices } from '@/components/radio-choices';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldMessage } from '@/lib/field-message';
import { formatMoney } from '@/lib/money';
import { RefundMethodField } from '../bills/refund-method-field';

export interface CancelDepositChoice {
  deposit: TDepositDecision | null;
  refundMethod: TMoneyMethod | '';
  reason: string;
}

export const NO_DEPOSIT_CHOICE: CancelDepositChoice = { deposit: null, refundMethod: '', reason: '' };

/**
 * What becomes of the money a reservation holds when it is cancelled (issue 36): refunded in a way
 * the clerk chooses, or kept as a cancellation fee with the reason. Nothing is chosen for the clerk.
 */
export function CancelDepositFields({
  held,
  paidBeyondDeposit,
  currency,
  value,
  onChange,
  errors,
}: {
  held: number;
  /** Money paid on the bill besides the deposit: it goes back whatever becomes of the deposit, in the way the clerk names. */
  paidBeyondDeposit: boolean;
  currency: string;
  value: CancelDepositChoice;
  onChange(next: CancelDepositChoice): void;
  errors: { deposit?: string; refundMethod?: string; depositReason?: string };
}) {
  const { t } = useTranslation();
  const decisionError = fieldMessage(t, errors.deposit);
  const methodError = fieldMessage(t, errors.refundMethod);
  const reasonError = fieldMessage(t, errors.depositReason);
  return (
    <fieldset className="grid gap-2" data-testid="cancel-deposit" data-held={held} aria-invalid={decisionError ? true : undefined}>
      <legend className="mb-1 text-sm font-medium">{t('reservations.cancel.holds', { amount: formatMoney(held, currency) })}</legend>
      <RadioChoices
        name="cancel-deposit-decision"
        choices={DEPOSIT_DECISIONS}
        value={value.deposit}
        onChange={(deposit) => onChange({ ...value, deposit })}
        label={(choice) => t(`orders.checkOut.deposit.${choice}`)}
        testId="cancel-deposit"
        className="text-sm"
      />
      {decisionError && (
        <p className="text-destructive text-sm" role="alert" data-testid="cancel-deposit-error">
          {decisionError}
        </p>
      )}
      {(value.deposit === 'refund' || (value.deposit === 'keep' && paidBeyondDeposit)) && (
        <RefundMethodField
          id="cancel-refund-method"
          label={t('reservations.cancel.refundMethod')}
          placeholder={t('reservations.cancel.methodPlaceholder')}
          value={value.refundMethod}
          onChange={(refundMethod) => onChange({ ...value, refundMethod })}
          error={methodError}
          testId="cancel-refund-method"
        />
      )}
      {value.deposit === 'keep' && (
        <FormField id="cancel-deposit-reason" label={t('orders.checkOut.keepReason')} error={reasonError} required>
          <Input
            {...fieldControlProps('cancel-deposit-reason', reasonError)}
            value={value.reason}
            maxLength={ORDER_LIMITS.reasonMaxLength}
            onChange={(e) => onChange({ ...value, reason: e.target.value })}
            aria-required
            data-testid="cancel-deposit-reason"
          />
        </FormField>
      )}
    </fieldset>
  );
}
