import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ZResetPasswordInput } from '@console/shared';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { trpc } from '@/lib/trpc';
import { AuthShell } from './auth-shell';
import { fieldMessage } from '@/lib/field-message';
import { PasswordInput } from '@/components/password-input';
import { useAppForm } from '@/lib/use-app-form';

const RESEND_SECONDS = 60;

/** `/find`: a 6-digit SMS code and a new password; success returns to /login (spec §2, §8). */
export function FindPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useAppForm(ZResetPasswordInput, { mobile: '', code: '', newPassword: '', confirmPassword: '' });
  const { errors } = form.formState;
  const [cooldown, setCooldown] = useState(0);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const send = useMutation(
    trpc.auth.sendResetCode.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: () => {
        toast.success(t('find.codeSent'));
        setCooldown(RESEND_SECONDS);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      meta: { handledCodes: ['VALIDATION', 'SMS_CODE_INVALID'] },
      onSuccess: () => {
        toast.success(t('find.resetSucceeded'));
        void navigate({ to: '/login', search: {} });
      },
      onError: (error) => {
        const app = appErrorOf(error);
        // A wrong or expired SMS code is said under the code field, which is marked invalid.
        if (app?.code === 'SMS_CODE_INVALID') form.setError('code', { type: 'server', message: app.message }, { shouldFocus: true });
        else form.applyServerErrors(error);
      },
    }),
  );

  const sendCode = async () => {
    if (await form.trigger('mobile')) send.mutate({ mobile: form.getValues('mobile') });
  };

  return (
    <AuthShell title={t('find.title')} subtitle={t('find.subtitle')}>
      <form onSubmit={form.handleSubmit((values) => reset.mutate(values))} noValidate className="space-y-4" data-testid="find-form">
        <FormField id="mobile" label={t('find.mobile')} error={fieldMessage(t, errors.mobile?.message)}>
          <Input
            id="mobile"
            inputMode="tel"
            autoComplete="tel"
            placeholder={t('find.mobilePlaceholder')}
            aria-invalid={Boolean(errors.mobile)}
            aria-describedby={errors.mobile ? 'mobile-error' : undefined}
            autoFocus
            {...form.register('mobile')}
          />
        </FormField>
        <FormField id="code" label={t('find.code')} error={fieldMessage(t, errors.code?.message)}>
          <div className="flex gap-2">
            <Input
              id="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder={t('find.codePlaceholder')}
              aria-invalid={Boolean(errors.code)}
              aria-describedby={errors.code ? 'code-error' : undefined}
              {...form.register('code')}
            />
            <Button
              type="button"
              variant="outline"
              className="shrink-0"
              disabled={cooldown > 0 || send.isPending}
              onClick={() => void sendCode()}
              data-testid="send-code"
            >
              {send.isPending && <Spinner />}
              {cooldown > 0 ? t('find.resendIn', { seconds: cooldown }) : t('find.sendCode')}
            </Button>
          </div>
        </FormField>
        <FormField id="newPassword" label={t('find.newPassword')} error={fieldMessage(t, errors.newPassword?.message)}>
          <PasswordInput
            id="newPassword"
            autoComplete="new-password"
            placeholder={t('find.newPasswordPlaceholder')}
            aria-invalid={Boolean(errors.newPassword)}
            {...form.register('newPassword')}
          />
        </FormField>
        <FormField id="confirmPassword" label={t('find.confirmPassword')} error={fieldMessage(t, errors.confirmPassword?.message)}>
          <PasswordInput
            id="confirmPassword"
            autoComplete="new-password"
            placeholder={t('find.confirmPasswordPlaceholder')}
            aria-invalid={Boolean(errors.confirmPassword)}
            {...form.register('confirmPassword')}
          />
        </FormField>
        <Button type="submit" className="w-full" disabled={reset.isPending} data-testid="reset-submit">
          {reset.isPending && <Spinner />}
          {t('find.submit')}
        </Button>
        <div className="text-sm">
          <Link to="/login" search={{}} className="text-primary hover:underline">
            {t('find.backToLogin')}
          </Link>
        </div>
      </form>
    </AuthShell>
  );
}
