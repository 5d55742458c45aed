import { MONEY_METHODS, type TMoneyMethod } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';

/**
 * How money handed back to a guest goes (cash, card, ...): the clerk's choice, nothing preselected
 * (issue 36), at a check-out with money due back and at a cancellation that refunds a deposit.
 */
export function RefundMethodField({
  id,
  label,
  placeholder,
  value,
  onChange,
  error,
  testId,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: TMoneyMethod | '';
  onChange(next: TMoneyMethod | ''): void;
  error?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <FormField id={id} label={label} error={error} required>
      <NativeSelect
        {...fieldControlProps(id, error)}
        value={value}
        onChange={(e) => onChange(e.target.value as TMoneyMethod | '')}
        wrapperClassName="w-full"
        aria-required
        data-testid={testId}
      >
        <NativeSelectOption value="" disabled>
          {placeholder}
        </NativeSelectOption>
        {MONEY_METHODS.map((m) => (
          <NativeSelectOption key={m} value={m}>
            {t(`orders.methods.${m}`)}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </FormField>
  );
}
