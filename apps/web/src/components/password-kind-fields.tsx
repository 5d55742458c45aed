import { Dices, Info } from 'lucide-react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AIR_PASSWORD_RULES, LIMITS, PASSWORD_KINDS, type TPasswordKind } from '@console/shared';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/** The order the desk meets the kinds in: the one it types first, then the generated ones. */
const KIND_ORDER: readonly TPasswordKind[] = ['custom', 'air', 'one_time'];

/**
 * The type of a lock password (spec §4: custom, over the air, one-time), each with what it means
 * for the guest: radios (arrow keys move between them), one card each. Used by the "Issue
 * password" dialog and the check-in dialog.
 */
export function PasswordKindField({ idPrefix, registration, value }: { idPrefix: string; registration: UseFormRegisterReturn; value: TPasswordKind }) {
  const { t } = useTranslation();
  const kinds = KIND_ORDER.filter((kind) => PASSWORD_KINDS.includes(kind));
  return (
    <fieldset className="grid gap-2" data-testid={`${idPrefix}-kind`}>
      <legend className="mb-2 text-sm leading-none font-medium">{t('credentials.kindLabel')}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {kinds.map((kind) => (
          <label
            key={kind}
            htmlFor={`${idPrefix}-kind-${kind}`}
            className={cn(
              'has-focus-visible:ring-ring flex cursor-pointer gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
              value === kind ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
            )}
          >
            <input
              type="radio"
              id={`${idPrefix}-kind-${kind}`}
              value={kind}
              className="accent-primary mt-0.5 size-4 shrink-0"
              data-testid={`${idPrefix}-kind-${kind}`}
              {...registration}
            />
            <span className="grid gap-1">
              <span className="font-medium">{t(`credentials.kinds.${kind}`)}</span>
              <span className="text-muted-foreground text-xs leading-snug">
                {t(`credentials.kindHints.${kind}`, {
                  hours: kind === 'one_time' ? AIR_PASSWORD_RULES.oneTimeUseWithinHours : AIR_PASSWORD_RULES.firstUseWithinHours,
                })}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The lock cloud's rules for generated passwords (AIR_PASSWORD_RULES), said once before issuing one. */
export function AirPasswordRules({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <p className={cn('bg-muted/50 text-muted-foreground flex gap-2 rounded-md border p-3 text-xs leading-relaxed', className)} data-testid="air-password-rules">
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{t('credentials.airRules')}</span>
    </p>
  );
}

/**
 * The six digits of a custom password: typed (digits only, kept left to right in every language),
 * or drawn at random (never a run or a repeat, which locks refuse).
 */
export function CustomCodeField({ id, registration, error, onRandom }: { id: string; registration: UseFormRegisterReturn; error?: string; onRandom(): void }) {
  const { t } = useTranslation();
  return (
    <FormField id={id} label={t('credentials.code')} error={error} hint={t('credentials.codeHint', { length: LIMITS.customPasswordLength })} required>
      <div className="flex gap-2">
        <Input
          {...fieldControlProps(id, error, true)}
          aria-required
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={LIMITS.customPasswordLength}
          dir="ltr"
          className="w-40 font-mono tracking-[0.3em] tabular-nums"
          {...registration}
          data-testid={id}
        />
        <Button type="button" variant="outline" onClick={onRandom} data-testid={`${id}-random`}>
          <Dices aria-hidden />
          {t('credentials.randomCode')}
        </Button>
      </div>
    </FormField>
  );
}
