import { Dices, Info } from 'lucide-react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AIR_PASSWORD_RULES, LIMITS, PASSWORD_KINDS, type TPasswordKind } from '@console/shared';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import type { LockTakes } from './lock-cannot-take';

/** The order the desk meets the kinds in: the one it types first, then the generated ones. */
const KIND_ORDER: readonly TPasswordKind[] = ['custom', 'air', 'one_time'];

/** What a kind needs of the lock (issue 38): a chosen code is sent to it, a generated one computed without reaching it. */
const KIND_NEEDS = { custom: 'onlineCodes', air: 'offlineCodes', one_time: 'offlineCodes' } as const satisfies Record<TPasswordKind, keyof LockTakes>;
const CANNOT = { onlineCodes: 'credentials.errors.lockTakesNoOnlineCodes', offlineCodes: 'credentials.errors.lockTakesNoOfflineCodes' } as const;

/** Whether the room's lock takes a kind of password (a room without a lock, or not told: every kind). */
export const lockTakesKind = (takes: LockTakes | null | undefined, kind: TPasswordKind) => !takes || takes[KIND_NEEDS[kind]];

/** The first kind the room's lock takes, in the desk's order: what the dialog starts with. */
export const firstKindTaken = (takes: LockTakes | null | undefined): TPasswordKind => KIND_ORDER.find((kind) => lockTakesKind(takes, kind)) ?? 'custom';

/**
 * The type of a lock password (spec §4: custom, over the air, one-time), each with what it means
 * for the guest: radios (arrow keys move between them), one card each. A kind the room's lock cannot
 * take (`takes`: a lock without online codes takes no chosen code) is shown greyed out, not chosen,
 * with why. Used by the "Issue password" dialog and the check-in dialog.
 */
export function PasswordKindField({
  idPrefix,
  registration,
  value,
  takes,
  roomName = '',
}: {
  idPrefix: string;
  registration: UseFormRegisterReturn;
  value: TPasswordKind;
  takes?: LockTakes | null;
  roomName?: string;
}) {
  const { t } = useTranslation();
  const kinds = KIND_ORDER.filter((kind) => PASSWORD_KINDS.includes(kind));
  return (
    <fieldset className="grid gap-2" data-testid={`${idPrefix}-kind`}>
      <legend className="mb-2 text-sm leading-none font-medium">{t('credentials.kindLabel')}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {kinds.map((kind) => {
          const taken = lockTakesKind(takes, kind);
          return (
            <label
              key={kind}
              htmlFor={`${idPrefix}-kind-${kind}`}
              className={cn(
                'has-focus-visible:ring-ring flex gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                !taken
                  ? 'bg-muted/40 text-muted-foreground cursor-not-allowed'
                  : value === kind
                    ? 'border-primary bg-primary/5 cursor-pointer'
                    : 'hover:bg-accent/50 cursor-pointer',
              )}
              data-taken={taken}
            >
              <input
                type="radio"
                id={`${idPrefix}-kind-${kind}`}
                value={kind}
                disabled={!taken}
                aria-describedby={taken ? undefined : `${idPrefix}-kind-${kind}-why`}
                className="accent-primary mt-0.5 size-4 shrink-0"
                data-testid={`${idPrefix}-kind-${kind}`}
                {...registration}
              />
              <span className="grid gap-1">
                <span className="font-medium">{t(`credentials.kinds.${kind}`)}</span>
                <span className="text-muted-foreground text-xs leading-snug" id={taken ? undefined : `${idPrefix}-kind-${kind}-why`}>
                  {taken
                    ? t(`credentials.kindHints.${kind}`, {
                        hours: kind === 'one_time' ? AIR_PASSWORD_RULES.oneTimeUseWithinHours : AIR_PASSWORD_RULES.firstUseWithinHours,
                      })
                    : t(CANNOT[KIND_NEEDS[kind]], { room: roomName })}
                </span>
              </span>
            </label>
          );
        })}
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
export function CustomCodeField({
  id,
  registration,
  error,
  onRandom,
  noZero = false,
}: {
  id: string;
  registration: UseFormRegisterReturn;
  error?: string;
  onRandom(): void;
  /** The room's keypad has no 0 key (a Nuki Keypad): said under the field; its random code has none. */
  noZero?: boolean;
}) {
  const { t } = useTranslation();
  const hint = t('credentials.codeHint', { length: LIMITS.customPasswordLength });
  return (
    <FormField id={id} label={t('credentials.code')} error={error} hint={noZero ? `${hint} ${t('credentials.noZeroHint')}` : hint} required>
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
