import { useEffect } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { AirPasswordRules, CustomCodeField, PasswordKindField, firstKindTaken, lockTakesKind } from '@/components/password-kind-fields';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { randomCustomCode } from '@/lib/credentials';
import { fieldMessage } from '@/lib/field-message';
import { stayQueries } from '../api';
import type { CheckInFormOutput, CheckInFormValues } from './check-in-form';

type Form = UseFormReturn<CheckInFormValues, unknown, CheckInFormOutput>;

/**
 * "Issue a lock password" at check-in (off unless asked for): its type and, for a custom one, its
 * six digits (a random code proposed, never an empty field), checked before the stay is made. The password is issued for the new stay right
 * after the check-in succeeds, valid from its check-in to its check-out.
 */
export function CheckInPassword({ form, room }: { form: Form; room: { id: number; name: string } }) {
  const { t } = useTranslation();
  const [isOn, kind] = useWatch({ control: form.control, name: ['issuePassword', 'passwordKind'] });
  // What the room's lock takes (the room as the dialog's dirty-room notice reads it): a kind it cannot take is greyed out with why.
  const takes = useQuery(stayQueries.roomNow(room.id)).data?.lock?.takes;
  // A lock that takes generated codes only starts there (the only kind it takes; nothing else is chosen for the clerk).
  useEffect(() => {
    if (takes && !lockTakesKind(takes, form.getValues('passwordKind'))) form.setValue('passwordKind', firstKindTaken(takes));
  }, [takes, form]);
  const noZero = takes?.noZero === true;
  const codeError = fieldMessage(t, form.formState.errors.passwordCode?.message);
  // A custom code is never proposed empty: turned on (or switched to custom), the field holds a
  // random code the clerk can keep, change or draw again.
  useEffect(() => {
    if (isOn && kind === 'custom' && !form.getValues('passwordCode').trim()) form.setValue('passwordCode', randomCustomCode(noZero), { shouldDirty: true });
  }, [isOn, kind, form, noZero]);
  return (
    <section className="space-y-3" aria-labelledby="check-in-password-heading" data-testid="check-in-password">
      <h3 id="check-in-password-heading" className="text-sm font-semibold">
        {t('credentials.checkIn.section')}
      </h3>
      <Controller
        control={form.control}
        name="issuePassword"
        render={({ field }) => (
          <div className="flex items-start gap-2">
            <Checkbox
              id="issuePassword"
              ref={field.ref}
              checked={field.value}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
              aria-describedby="issuePassword-hint"
              data-testid="issuePassword"
            />
            <div className="grid gap-1">
              <Label htmlFor="issuePassword" className="leading-snug font-normal">
                {t('credentials.checkIn.toggle')}
              </Label>
              <p id="issuePassword-hint" className="text-muted-foreground text-xs">
                {t('credentials.checkIn.hint')}
              </p>
            </div>
          </div>
        )}
      />
      {isOn && (
        <div className="grid gap-3 rounded-md border p-3">
          <PasswordKindField idPrefix="check-in-password" registration={form.register('passwordKind')} value={kind} takes={takes} roomName={room.name} />
          {kind === 'custom' ? (
            <CustomCodeField
              id="passwordCode"
              registration={form.register('passwordCode')}
              error={codeError}
              noZero={noZero}
              onRandom={() => form.setValue('passwordCode', randomCustomCode(noZero), { shouldDirty: true, shouldValidate: true })}
            />
          ) : (
            <AirPasswordRules />
          )}
        </div>
      )}
    </section>
  );
}
