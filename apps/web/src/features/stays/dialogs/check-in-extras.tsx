import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { MoneyInput } from '@/components/money-input';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { fieldMessage } from '@/lib/field-message';
import { DepositFields } from './deposit-fields';
import type { CheckInFormOutput, CheckInFormValues } from './check-in-form';
import { PriceModeField, QuoteSummary, type QuoteState } from './price-fields';

type Form = UseFormReturn<CheckInFormValues, unknown, CheckInFormOutput>;

/** The options of a new stay: breakfast, the guest's old cards, unlocking by ID card. */
export function CheckInOptions({ form }: { form: Form }) {
  const { t } = useTranslation();
  return (
    <section className="space-y-3" aria-labelledby="check-in-options-heading">
      <h3 id="check-in-options-heading" className="text-sm font-semibold">
        {t('frontDesk.stay.optionsSection')}
      </h3>
      <div className="grid gap-3 sm:grid-cols-3">
        {(['breakfast', 'disableOldCards', 'idCardUnlock'] as const).map((name) => (
          <Controller
            key={name}
            control={form.control}
            name={name}
            render={({ field }) => (
              <div className="flex items-center gap-2">
                <Checkbox
                  id={name}
                  ref={field.ref}
                  checked={field.value}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  data-testid={name}
                />
                <Label htmlFor={name} className="leading-snug font-normal">
                  {t(`frontDesk.stay.${name}`)}
                </Label>
              </div>
            )}
          />
        ))}
      </div>
    </section>
  );
}

/** How the new stay is priced (the live quote, or a set price), its deposit and its remark. */
export function CheckInPrice({
  form,
  quote,
  currency,
  suggestedDeposit,
}: {
  form: Form;
  quote: QuoteState;
  currency: string;
  suggestedDeposit: number | undefined;
}) {
  const { t } = useTranslation();
  const { errors } = form.formState;
  const priceMode = useWatch({ control: form.control, name: 'priceMode' });
  const moneyError = (name: 'fixedPrice' | 'depositAmount' | 'depositMethod') => fieldMessage(t, errors[name]?.message);
  const remarkError = fieldMessage(t, errors.remark?.message);
  return (
    <section className="grid gap-3" aria-labelledby="check-in-price-heading">
      <h3 id="check-in-price-heading" className="text-sm font-semibold">
        {t('frontDesk.stay.priceSection')}
      </h3>
      <PriceModeField idPrefix="priceMode" registration={form.register('priceMode')} />
      <QuoteSummary
        state={quote}
        currency={currency}
        testId="price-quote"
        label={t(priceMode === 'computed' ? 'frontDesk.stay.quoteTotal' : 'frontDesk.stay.quoteReference')}
      />
      <div className="grid gap-x-3 gap-y-1 sm:grid-cols-2">
        {priceMode === 'fixed' && (
          <FormField id="fixedPrice" label={t('frontDesk.stay.quoteTotal')} error={moneyError('fixedPrice')} required>
            <MoneyInput
              currency={currency}
              {...fieldControlProps('fixedPrice', moneyError('fixedPrice'))}
              aria-required
              {...form.register('fixedPrice')}
              data-testid="fixedPrice"
            />
          </FormField>
        )}
        <DepositFields
          idPrefix=""
          currency={currency}
          suggested={suggestedDeposit}
          amount={form.register('depositAmount')}
          method={form.register('depositMethod')}
          amountError={moneyError('depositAmount')}
          methodError={moneyError('depositMethod')}
        />
      </div>
      <FormField id="remark" label={t('frontDesk.stay.remark')} error={remarkError}>
        <Textarea {...fieldControlProps('remark', remarkError)} rows={2} maxLength={LIMITS.remarkMaxLength} {...form.register('remark')} data-testid="remark" />
      </FormField>
    </section>
  );
}
