import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TAX_APPLIES_TO, TAX_MODES, ZCityTaxInput, ZTaxRuleInput, type TTaxAppliesTo, type TTaxMode } from '@console/shared';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { MoneyInput } from '@/components/money-input';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { moneyInputValue, parseMoneyInput } from '@/lib/money';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { settingsQueries } from './api';
import { ruleMessage } from './rule-message';
import { SettingsCard } from './settings-card';

type Rules = RouterOutputs['hotel']['taxRules'];

/** A rate as typed (`6`, `9.5`, `13,25`), or null when empty; NaN for text that is no number. */
function typedRate(text: string): number | null {
  const t = text.trim().replace(',', '.').replace('%', '').trim();
  if (t === '') return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * The hotel's taxes (issue 36, docs/journal.md "Taxes"): a rate for rooms and one for everything else,
 * each included in the price (the bill unchanged, the books show the tax) or added on top (a tax line
 * on the bill with each charge), and a city tax per person and night; each in force from when it is
 * saved (what was posted keeps its rate). Owners and administrators change them; managers read them.
 */
export function TaxRulesCard() {
  const { t } = useTranslation();
  const rules = useQuery(settingsQueries.taxRules());
  return (
    <SettingsCard title={t('settings.taxes.title')} description={t('settings.taxes.description')} query={rules} data-testid="tax-rules">
      {(saved) => <TaxRulesForm rules={saved} />}
    </SettingsCard>
  );
}

function TaxRulesForm({ rules }: { rules: Rules }) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const canEdit = hasPermission(user, 'hotel.manage');
  const currency = user?.hotel.currency ?? 'CNY';
  const queryClient = useQueryClient();
  const shown = (kind: TTaxAppliesTo) => (rules[kind] ? String(rules[kind].ratePercent) : '');
  const shownMode = (kind: TTaxAppliesTo): TTaxMode => rules[kind]?.mode ?? 'included';
  const shownCity = moneyInputValue(rules.city?.amountPerNight, currency);
  const [texts, setTexts] = useState<Record<TTaxAppliesTo, string>>({ rooms: shown('rooms'), extras: shown('extras') });
  const [modes, setModes] = useState<Record<TTaxAppliesTo, TTaxMode>>({ rooms: shownMode('rooms'), extras: shownMode('extras') });
  const [cityText, setCityText] = useState(shownCity);
  const [errors, setErrors] = useState<Partial<Record<TTaxAppliesTo | 'city', string>>>({});
  const set = useMutation(trpc.hotel.setTaxRule.mutationOptions({ meta: { handledCodes: ['VALIDATION'] } }));
  const setCity = useMutation(trpc.hotel.setCityTax.mutationOptions({ meta: { handledCodes: ['VALIDATION'] } }));
  const isPending = set.isPending || setCity.isPending;
  // A kind whose rate, or whose way (included or added) with a rate, was changed.
  const changed = TAX_APPLIES_TO.filter((k) => texts[k].trim() !== shown(k) || (texts[k].trim() !== '' && modes[k] !== shownMode(k)));
  const cityChanged = cityText.trim() !== shownCity;

  const save = async () => {
    const next: Partial<Record<TTaxAppliesTo | 'city', string>> = {};
    for (const kind of changed) {
      const rate = typedRate(texts[kind]);
      // The rule the server applies (packages/shared): one place for what a rate may be.
      if (!ZTaxRuleInput.shape.ratePercent.safeParse(rate).success) next[kind] = 'settings.validation.taxRateInvalid';
    }
    const cityAmount = parseMoneyInput(cityText, currency) ?? null;
    if (cityChanged && !ZCityTaxInput.shape.amountPerNight.safeParse(cityAmount).success) next.city = 'settings.validation.cityTaxInvalid';
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      for (const kind of changed) await set.mutateAsync({ appliesTo: kind, ratePercent: typedRate(texts[kind]), mode: modes[kind] });
      if (cityChanged) await setCity.mutateAsync({ amountPerNight: cityAmount });
      toast.success(t('settings.taxes.saved'));
    } finally {
      await queryClient.invalidateQueries({ queryKey: settingsQueries.taxRules().queryKey });
    }
  };
  const error = set.error ?? setCity.error;

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!isPending) void save();
      }}
    >
      {TAX_APPLIES_TO.map((kind) => (
        <div key={kind} className="grid gap-2">
          <FormField
            id={`tax-${kind}`}
            label={t(`settings.taxes.${kind}`)}
            hint={
              rules[kind] ? t('settings.taxes.since', { date: formatDateTime(rules[kind].since, user?.hotel.timeZone ?? 'UTC') }) : t('settings.taxes.none')
            }
            error={ruleMessage(t, errors[kind])}
          >
            <Input
              id={`tax-${kind}`}
              data-testid={`tax-${kind}`}
              inputMode="decimal"
              dir="ltr"
              className="text-start tabular-nums"
              placeholder="%"
              disabled={!canEdit || isPending}
              aria-invalid={Boolean(errors[kind])}
              value={texts[kind]}
              onChange={(event) => setTexts({ ...texts, [kind]: event.target.value })}
            />
          </FormField>
          <NativeSelect
            wrapperClassName="w-full"
            aria-label={t('settings.taxes.modeOf', { kind: t(`settings.taxes.${kind}`) })}
            data-testid={`tax-${kind}-mode`}
            disabled={!canEdit || isPending}
            value={modes[kind]}
            onChange={(event) => setModes({ ...modes, [kind]: event.target.value as TTaxMode })}
          >
            {TAX_MODES.map((mode) => (
              <NativeSelectOption key={mode} value={mode}>
                {t(`settings.taxes.modes.${mode}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
      ))}
      <FormField
        id="tax-city"
        className="sm:col-span-2"
        label={t('settings.taxes.city')}
        hint={rules.city ? t('settings.taxes.since', { date: formatDateTime(rules.city.since, user?.hotel.timeZone ?? 'UTC') }) : t('settings.taxes.cityHint')}
        error={ruleMessage(t, errors.city)}
      >
        <MoneyInput
          id="tax-city"
          data-testid="tax-city"
          currency={currency}
          className="tabular-nums"
          disabled={!canEdit || isPending}
          aria-invalid={Boolean(errors.city)}
          value={cityText}
          onChange={(event) => setCityText(event.target.value)}
        />
      </FormField>
      {canEdit && (
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" disabled={isPending || (changed.length === 0 && !cityChanged)} data-testid="tax-save">
            {isPending && <Spinner />}
            {t('settings.save')}
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {error.message}
        </p>
      )}
    </form>
  );
}
