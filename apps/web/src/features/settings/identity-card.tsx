import { useMutation } from '@tanstack/react-query';
import type { ComponentProps, FormEventHandler } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ZChangeEmailInput, ZChangeMobileInput } from '@console/shared';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { ruleMessage } from './rule-message';
import { type Profile, useRefreshUser } from './use-refresh-user';

/** E-mail and mobile: each a small form with the current password. */
export function IdentityCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{t('settings.personal.signIn')}</h2>
        <CardDescription>{t('settings.personal.signInHint')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <EmailForm current={profile.email} />
        <MobileForm current={profile.mobile} />
      </CardContent>
    </Card>
  );
}

function EmailForm({ current }: { current: string | null }) {
  const { t } = useTranslation();
  const form = useAppForm(ZChangeEmailInput, { email: current ?? '', password: '' });
  const { errors } = form.formState;
  const answered = useIdentityAnswered(form, t('settings.personal.emailSaved'));
  const change = useMutation(
    trpc.account.changeEmail.mutationOptions({ meta: { handledCodes: ['VALIDATION', 'OLD_PASSWORD_WRONG', 'CONFLICT'] }, ...answered }),
  );
  return (
    <IdentityForm
      field="email"
      label={t('settings.personal.email')}
      inputProps={{ type: 'email', autoComplete: 'email' }}
      value={form.register('email')}
      valueError={errors.email}
      password={form.register('password')}
      passwordError={errors.password}
      onSubmit={form.handleSubmit((values) => change.mutate(values))}
      isPending={change.isPending}
      submitLabel={t('settings.personal.changeEmail')}
    />
  );
}

function MobileForm({ current }: { current: string | null }) {
  const { t } = useTranslation();
  const form = useAppForm(ZChangeMobileInput, { mobile: current ?? '', password: '' });
  const { errors } = form.formState;
  const answered = useIdentityAnswered(form, t('settings.personal.mobileSaved'));
  const change = useMutation(
    trpc.account.changeMobile.mutationOptions({ meta: { handledCodes: ['VALIDATION', 'OLD_PASSWORD_WRONG', 'CONFLICT'] }, ...answered }),
  );
  return (
    <IdentityForm
      field="mobile"
      label={t('settings.personal.mobile')}
      inputProps={{ type: 'tel', inputMode: 'numeric', autoComplete: 'tel' }}
      value={form.register('mobile')}
      valueError={errors.mobile}
      password={form.register('password')}
      passwordError={errors.password}
      onSubmit={form.handleSubmit((values) => change.mutate(values))}
      isPending={change.isPending}
      submitLabel={t('settings.personal.changeMobile')}
    />
  );
}

/** The form of a change that asks for the password: what it can do with the answer. */
interface PasswordForm {
  resetField(name: 'password'): void;
  setError(name: 'password', error: { type: string; message: string }, options: { shouldFocus: boolean }): void;
  applyServerErrors(error: unknown): void;
}

/**
 * What a change of the sign-in e-mail or mobile does with the server's answer: saved, the password
 * is cleared and the user info asked again; a wrong password is said under the password, any other
 * refusal under its field.
 */
function useIdentityAnswered(form: PasswordForm, savedText: string) {
  const refresh = useRefreshUser();
  return {
    onSuccess: async () => {
      toast.success(savedText);
      form.resetField('password');
      await refresh();
    },
    onError: (error: unknown) => {
      const app = appErrorOf(error);
      if (app?.code === 'OLD_PASSWORD_WRONG') form.setError('password', { type: 'server', message: app.message }, { shouldFocus: true });
      else form.applyServerErrors(error);
    },
  };
}

/** The new e-mail or mobile (left to right) and the current password, with the change's button. */
function IdentityForm({
  field,
  label,
  inputProps,
  value,
  valueError,
  password,
  passwordError,
  onSubmit,
  isPending,
  submitLabel,
}: {
  field: 'email' | 'mobile';
  label: string;
  inputProps: Pick<ComponentProps<typeof Input>, 'type' | 'inputMode' | 'autoComplete'>;
  value: UseFormRegisterReturn;
  valueError: FieldError | undefined;
  password: UseFormRegisterReturn;
  passwordError: FieldError | undefined;
  onSubmit: FormEventHandler<HTMLFormElement>;
  isPending: boolean;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const passwordId = `${field}-password`;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" data-testid={`${field}-form`}>
      <FormField id={field} label={label} error={ruleMessage(t, valueError?.message)}>
        <Input
          id={field}
          dir="ltr"
          {...inputProps}
          aria-invalid={Boolean(valueError)}
          aria-describedby={valueError ? `${field}-error` : undefined}
          {...value}
        />
      </FormField>
      <FormField id={passwordId} label={t('settings.personal.currentPassword')} error={ruleMessage(t, passwordError?.message)}>
        <PasswordInput
          id={passwordId}
          autoComplete="current-password"
          aria-invalid={Boolean(passwordError)}
          aria-describedby={passwordError ? `${passwordId}-error` : undefined}
          {...password}
        />
      </FormField>
      <Button type="submit" variant="outline" disabled={isPending}>
        {isPending && <Spinner />}
        {submitLabel}
      </Button>
    </form>
  );
}
