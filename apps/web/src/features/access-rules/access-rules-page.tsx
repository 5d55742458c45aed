import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ACCESS_CODE_RULES, ACCESS_CODE_TYPES, ACCESS_PHONE_FALLBACKS, ACCESS_RULE_LIMITS, type TAccessRuleSetInput } from '@console/shared';
import type { TAccessRuleDto } from '@console/shared/dto';
import { PageHeader } from '@/components/list-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { accessRuleQueries, invalidateAccessRules } from './api';

/**
 * Access rules (issue 20 §2, docs/access-rules.md): the hotel's rule and each room group's own
 * where it differs, with the lock cloud's limits in plain words. Managers only (`hotel.manage`).
 */
export function AccessRulesPage() {
  const { t } = useTranslation();
  const rules = useQuery(accessRuleQueries.list());
  return (
    <div className="grid max-w-4xl gap-4" data-testid="access-rules-page">
      <PageHeader title={t('accessRules.title')} />
      <p className="text-muted-foreground text-sm">{t('accessRules.intro')}</p>
      <p className="text-muted-foreground text-sm" data-testid="access-rules-limits">
        {t('accessRules.limits')}
      </p>
      <p className="text-muted-foreground text-sm" data-testid="access-rules-first-use">
        {t('accessRules.firstUse')}
      </p>
      <p className="text-muted-foreground text-sm">{t('accessRules.afterCheckOut')}</p>
      {!rules.data ? (
        <Skeleton className="h-48 w-full" aria-label={t('common.loading')} />
      ) : (
        <>
          <RuleCard rule={rules.data.hotel} key={`hotel-${rules.data.hotel.updatedAt ?? ''}`} />
          {rules.data.groups.map((g) => (
            <RuleCard rule={g} key={`${g.groupId}-${String(g.inherited)}-${g.updatedAt ?? ''}`} />
          ))}
        </>
      )}
    </div>
  );
}

type Draft = Omit<TAccessRuleSetInput, 'groupId'> & {
  issueDaysBefore: number;
  minutesBeforeCheckIn: number;
  minutesAfterCheckOut: number;
  offlineCodeMinutes: number;
};

function RuleCard({ rule }: { rule: TAccessRuleDto }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>({
    enabled: rule.enabled,
    deskReservations: rule.deskReservations,
    issueDaysBefore: rule.issueDaysBefore,
    minutesBeforeCheckIn: rule.minutesBeforeCheckIn,
    minutesAfterCheckOut: rule.minutesAfterCheckOut,
    password: rule.password,
    face: rule.face,
    card: rule.card,
    codeRule: rule.codeRule,
    phoneFallback: rule.phoneFallback,
    codeType: rule.codeType,
    autoCheckIn: rule.autoCheckIn,
    offlineCodeMinutes: rule.offlineCodeMinutes,
  });
  const refresh = () => invalidateAccessRules(queryClient);
  const save = useMutation(
    trpc.accessRule.set.mutationOptions({
      onSuccess: async () => {
        toast.success(t('accessRules.saved'));
        await refresh();
      },
    }),
  );
  const reset = useMutation(trpc.accessRule.reset.mutationOptions({ onSuccess: refresh }));
  const id = `ar-${rule.groupId ?? 'hotel'}`;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const number = (key: 'issueDaysBefore' | 'minutesBeforeCheckIn' | 'minutesAfterCheckOut' | 'offlineCodeMinutes', max: number, hint?: string) => (
    <div className="grid content-start gap-1.5">
      <Label htmlFor={`${id}-${key}`}>{t(`accessRules.${key}`)}</Label>
      <Input
        id={`${id}-${key}`}
        type="number"
        min={0}
        max={max}
        step={1}
        value={draft[key]}
        aria-describedby={hint ? `${id}-${key}-hint` : undefined}
        onChange={(e) => set(key, Number(e.target.value))}
      />
      {hint && (
        <p id={`${id}-${key}-hint`} className="text-muted-foreground text-xs">
          {hint}
        </p>
      )}
    </div>
  );
  const phone = draft.codeRule !== 'random';
  return (
    <Card data-testid={`access-rule-${rule.groupId ?? 'hotel'}`}>
      <CardHeader>
        <h2 className="flex items-center gap-2 text-base font-semibold">
          {rule.groupName === null ? t('accessRules.hotelRule') : t('accessRules.groupRule', { group: rule.groupName })}
          {rule.groupId !== null && <Badge variant="secondary">{rule.inherited ? t('accessRules.inherited') : t('accessRules.ownRule')}</Badge>}
        </h2>
        {rule.groupId !== null && rule.inherited && <CardDescription>{t('accessRules.inheritedHint')}</CardDescription>}
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-3 sm:grid-cols-3"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ ...draft, ...(rule.groupId !== null ? { groupId: rule.groupId } : {}) });
          }}
        >
          {(['enabled', 'deskReservations', 'password', 'face', 'card', 'autoCheckIn'] as const).map((key) => (
            <label key={key} className="flex items-center gap-2 text-sm sm:col-span-3">
              <Checkbox checked={draft[key]} onCheckedChange={(v) => set(key, v === true)} />
              {t(`accessRules.${key}`)}
            </label>
          ))}
          {number('issueDaysBefore', ACCESS_RULE_LIMITS.issueDaysBeforeMax)}
          {number('minutesBeforeCheckIn', ACCESS_RULE_LIMITS.marginMinutesMax)}
          {number('minutesAfterCheckOut', ACCESS_RULE_LIMITS.marginMinutesMax)}
          <div className="grid content-start gap-1.5">
            <Label htmlFor={`${id}-codeRule`}>{t('accessRules.codeRule')}</Label>
            <NativeSelect id={`${id}-codeRule`} value={draft.codeRule} onChange={(e) => set('codeRule', e.target.value as Draft['codeRule'])}>
              {ACCESS_CODE_RULES.map((r) => (
                <NativeSelectOption key={r} value={r}>
                  {t(`accessRules.codeRules.${r}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={`${id}-phoneFallback`}>{t('accessRules.phoneFallback')}</Label>
            <NativeSelect
              id={`${id}-phoneFallback`}
              value={draft.phoneFallback}
              disabled={!phone}
              onChange={(e) => set('phoneFallback', e.target.value as Draft['phoneFallback'])}
            >
              {ACCESS_PHONE_FALLBACKS.map((f) => (
                <NativeSelectOption key={f} value={f}>
                  {t(`accessRules.phoneFallbacks.${f}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={`${id}-codeType`}>{t('accessRules.codeType')}</Label>
            <NativeSelect id={`${id}-codeType`} value={draft.codeType} disabled={phone} onChange={(e) => set('codeType', e.target.value as Draft['codeType'])}>
              {ACCESS_CODE_TYPES.map((c) => (
                <NativeSelectOption key={c} value={c}>
                  {t(`accessRules.codeTypes.${c}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
            {phone && <p className="text-muted-foreground text-xs">{t('accessRules.phoneIsCustom')}</p>}
          </div>
          {number('offlineCodeMinutes', ACCESS_RULE_LIMITS.marginMinutesMax, t('accessRules.offlineCodeHint'))}
          <div className="flex gap-2 sm:col-span-3">
            <Button type="submit" disabled={save.isPending} data-testid={`access-rule-save-${rule.groupId ?? 'hotel'}`}>
              {t('accessRules.save')}
            </Button>
            {rule.groupId !== null && !rule.inherited && (
              <Button type="button" variant="outline" disabled={reset.isPending} onClick={() => reset.mutate({ groupId: rule.groupId! })}>
                {t('accessRules.useHotel')}
              </Button>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
