import { RESCHEDULE_PRICING, type TReschedulePricing } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { RadioChoices } from '@/components/radio-choices';
import { formatMoney } from '@/lib/money';

/**
 * A reservation moved keeps its booked rate unless the clerk chooses to price it again at today's
 * rates (issue 36): both prices shown, the booked one as it stands.
 */
export function ReschedulePricing({
  prices,
  currency,
  value,
  onChange,
}: {
  prices: { kept: number; quoted: number };
  currency: string;
  value: TReschedulePricing;
  onChange(next: TReschedulePricing): void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="grid gap-2 text-sm" data-testid="reschedule-pricing" data-kept={prices.kept} data-quoted={prices.quoted}>
      <legend className="mb-1 font-medium">{t('frontDesk.stay.reschedule.pricingQuestion')}</legend>
      <RadioChoices
        name="reschedule-pricing"
        choices={RESCHEDULE_PRICING}
        value={value}
        onChange={onChange}
        label={(choice) => t(`frontDesk.stay.reschedule.pricing.${choice}`, { price: formatMoney(choice === 'keep' ? prices.kept : prices.quoted, currency) })}
        testId="reschedule-pricing"
      />
    </fieldset>
  );
}
