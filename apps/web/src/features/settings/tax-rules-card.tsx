import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TAX_APPLIES_TO, ZTaxRuleInput, type TTaxAppliesTo } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { settingsQueries } from './api';
import { ruleMessage } from './rule-message';

type Rules = RouterOutputs['hotel']['taxRules'];

/** A rate as typed (`6`, `9.5`, `13,25`), or null when empty; NaN for text that is no number. */
function typedRate(text: string): number | null {
  const t = text.trim().replace(',', '.').replace('%', '').trim();
  if (t === '') return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * The taxes included in the price (issue 36, docs/journal.md "Taxes"): a rate for rooms and one for
 * everything else, in force from when it is saved (what was posted keeps its rate). Owners and
 * administrators change them; managers read them. The bill does not change; the books show the tax.
 */
export function TaxRulesCard() {
  const { t } = useTranslation();
  const rules = useQuery(settingsQueries.taxRules());
  return (
    <Card className="mx-auto max-w-2xl" data-testid="tax-rules">
      <CardHeader>
        <h2 className="text-lg leading-none font-semibold">{t('settings.taxes.title')}</h2>
        <CardDescription>{t('settings.taxes.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {rules.data ? (
          <TaxRulesForm key={JSON.stringify(rules.data)} rules={rules.data} />
        ) : rules.isError ? (
          <p className="text-destructive text-sm">{t('settings.loadFailed')}</p>
        ) : (
          <div className="bg-muted h-9 w-full animate-pulse rounded-md" />
        )}
      </CardContent>
    </Card>
  );
}

function TaxRulesForm({ rules }: { rules: Rules }) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const canEdit = hasPermission(user, 'hotel.manage');
  const queryClient = useQueryClient();
  const shown = (kind: TTaxAppliesTo) => (rules[kind] ? String(rules[kind].ratePercent) : '');
  const [texts, setTexts] = useState<Record<TTaxAppliesTo, string>>({ rooms: shown('rooms'), extras: shown('extras') });
  const [errors, setErrors] = useState<Partial<Record<TTaxAppliesTo, string>>>({});
  const set = useMutation(trpc.hotel.setTaxRule.mutationOptions({ meta: { handledCodes: ['VALIDATION'] } }));
  const changed = TAX_APPLIES_TO.filter((k) => texts[k].trim() !== shown(k));

  const save = async () => {
    const next: Partial<Record<TTaxAppliesTo, string>> = {};
    for (const kind of changed) {
      const rate = typedRate(texts[kind]);
      // The rule the server applies (packages/shared): one place for what a rate may be.
      if (!ZTaxRuleInput.shape.ratePercent.safeParse(rate).success) next[kind] = 'settings.validation.taxRateInvalid';
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      for (const kind of changed) await set.mutateAsync({ appliesTo: kind, ratePercent: typedRate(texts[kind]) });
      toast.success(t('settings.taxes.saved'));
    } finally {
      await queryClient.invalidateQueries({ queryKey: settingsQueries.taxRules().queryKey });
    }
  };

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!set.isPending) void save();
      }}
    >
      {TAX_APPLIES_TO.map((kind) => (
        <FormField
          key={kind}
          id={`tax-${kind}`}
          label={t(`settings.taxes.${kind}`)}
          hint={rules[kind] ? t('settings.taxes.since', { date: formatDateTime(rules[kind].since, user?.hotel.timeZone ?? 'UTC') }) : t('settings.taxes.none')}
          error={ruleMessage(t, errors[kind])}
        >
          <Input
            id={`tax-${kind}`}
            data-testid={`tax-${kind}`}
            inputMode="decimal"
            dir="ltr"
            className="text-start tabular-nums"
            placeholder="%"
            disabled={!canEdit || set.isPending}
            aria-invalid={Boolean(errors[kind])}
            value={texts[kind]}
            onChange={(event) => setTexts({ ...texts, [kind]: event.target.value })}
          />
        </FormField>
      ))}
      {canEdit && (
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" disabled={set.isPending || changed.length === 0} data-testid="tax-save">
            {set.isPending && <Spinner />}
            {t('settings.save')}
          </Button>
        </div>
      )}
      {set.error && (
        <p role="alert" className="text-destructive text-sm sm:col-span-2">
          {set.error.message}
        </p>
      )}
    </form>
  );
}
