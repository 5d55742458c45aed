import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { HOUSEKEEPING_LIMITS, STAYOVER_RULES, type TStayoverRule } from '@console/shared';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { housekeepingKey, type HousekeepingDay } from './api';

type Settings = HousekeepingDay['settings'];

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The errors of a draft, by field, as keys of the texts (none: it may be saved). */
function settingsErrors(draft: { stayoverRule: TStayoverRule; everyDays: string; dayStart: string }): { everyDays?: string; dayStart?: string } {
  const errors: { everyDays?: string; dayStart?: string } = {};
  if (draft.stayoverRule === 'every_n_days') {
    const n = Number(draft.everyDays);
    if (!/^\d+$/.test(draft.everyDays.trim()) || n < 1 || n > HOUSEKEEPING_LIMITS.everyDaysMax) errors.everyDays = 'housekeeping.validation.everyDays';
  }
  if (!TIME.test(draft.dayStart)) errors.dayStart = 'housekeeping.validation.timeInvalid';
  return errors;
}

/**
 * The hotel's housekeeping rule (docs/housekeeping.md), for members with `housekeeping.manage`: a
 * stay-over clean daily, every N days (counted from the check-in day) or only when the guest asks,
 * and the hour the day's tasks are made (`housekeeping.setSettings`). A bad N is refused here in
 * words, and by the server in the same words.
 */
export function HousekeepingSettingsSection({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState({ stayoverRule: settings.stayoverRule, everyDays: String(settings.stayoverEveryDays), dayStart: settings.dayStart });
  const [shown, setShown] = useState(false);
  const errors = settingsErrors(draft);
  const save = useMutation(
    trpc.housekeeping.setSettings.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('housekeeping.settings.saved'));
        setShown(false);
        void queryClient.invalidateQueries({ queryKey: housekeepingKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (Object.keys(errors).length > 0) return;
    save.mutate({
      stayoverRule: draft.stayoverRule,
      // The N is kept when another rule is chosen, for when it is chosen again.
      stayoverEveryDays: draft.stayoverRule === 'every_n_days' ? Number(draft.everyDays) : settings.stayoverEveryDays,
      dayStart: draft.dayStart,
    });
  };
  const everyDaysError = shown && errors.everyDays ? t(errors.everyDays) : undefined;
  const dayStartError = shown && errors.dayStart ? t(errors.dayStart) : undefined;
  return (
    <section aria-labelledby="hk-settings-title" className="space-y-3 rounded-lg border p-3" data-testid="hk-settings">
      <div>
        <h2 id="hk-settings-title" className="text-lg font-semibold">
          {t('housekeeping.settings.title')}
        </h2>
        <p className="text-muted-foreground text-sm">{t('housekeeping.settings.description')}</p>
      </div>
      <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-3 sm:items-start">
        <FormField id="hk-stayover-rule" label={t('housekeeping.settings.rule')}>
          <NativeSelect
            id="hk-stayover-rule"
            value={draft.stayoverRule}
            onChange={(e) => setDraft((d) => ({ ...d, stayoverRule: e.target.value as TStayoverRule }))}
            data-testid="hk-stayover-rule"
          >
            {STAYOVER_RULES.map((rule) => (
              <NativeSelectOption key={rule} value={rule}>
                {t(`housekeeping.settings.rules.${rule}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </FormField>
        {draft.stayoverRule === 'every_n_days' && (
          <FormField
            id="hk-every-days"
            label={t('housekeeping.settings.everyDays')}
            hint={t('housekeeping.settings.everyDaysHint')}
            error={everyDaysError}
            required
          >
            <Input
              {...fieldControlProps('hk-every-days', everyDaysError, true)}
              type="number"
              inputMode="numeric"
              min={1}
              max={HOUSEKEEPING_LIMITS.everyDaysMax}
              step={1}
              required
              value={draft.everyDays}
              onChange={(e) => setDraft((d) => ({ ...d, everyDays: e.target.value }))}
              className="w-28"
              data-testid="hk-every-days"
            />
          </FormField>
        )}
        <FormField id="hk-day-start" label={t('housekeeping.settings.dayStart')} hint={t('housekeeping.settings.dayStartHint')} error={dayStartError} required>
          <Input
            {...fieldControlProps('hk-day-start', dayStartError, true)}
            type="time"
            required
            value={draft.dayStart}
            onChange={(e) => setDraft((d) => ({ ...d, dayStart: e.target.value }))}
            className="w-32"
            data-testid="hk-day-start"
          />
        </FormField>
        <div className="sm:col-span-3">
          <Button type="submit" disabled={save.isPending} data-testid="hk-settings-save">
            {t('housekeeping.settings.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}
