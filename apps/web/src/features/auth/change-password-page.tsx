import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { ZChangePasswordInput } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { trpc } from '@/lib/trpc';
import { clearUserInfo } from '@/lib/user-info';
import { fieldMessage } from '@/lib/field-message';
import { PasswordInput } from '@/components/password-input';
import { useAppForm } from '@/lib/use-app-form';

/** `/user/changePsw`: the change ends every session, so the user signs in again (spec §8). */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const form = useAppForm(ZChangePasswordInput, { oldPassword: '', newPassword: '', confirmPassword: '' });
  const { errors } = form.formState;
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      meta: { handledCodes: ['VALIDATION', 'OLD_PASSWORD_WRONG'] },
      onSuccess: () => {
        toast.success(t('changePassword.succeeded'));
        clearUserInfo();
        setTimeout(() => window.location.assign('/login'), 1200);
      },
      onError: (error) => {
        const app = appErrorOf(error);
        // A wrong current password is said under that field, which is marked invalid.
        if (app?.code === 'OLD_PASSWORD_WRONG') form.setError('oldPassword', { type: 'server', message: app.message }, { shouldFocus: true });
        else form.applyServerErrors(error);
      },
    }),
  );
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        {/* The page's one heading. */}
        <h1 className="text-xl leading-none font-semibold">{t('changePassword.title')}</h1>
        <CardDescription>{t('changePassword.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={form.handleSubmit((values) => change.mutate(values))} noValidate className="space-y-4" data-testid="change-password-form">
          <FormField id="oldPassword" label={t('changePassword.oldPassword')} error={fieldMessage(t, errors.oldPassword?.message)}>
            <PasswordInput
              id="oldPassword"
              autoComplete="current-password"
              aria-invalid={Boolean(errors.oldPassword)}
              aria-describedby={errors.oldPassword ? 'oldPassword-error' : undefined}
              autoFocus
              {...form.register('oldPassword')}
            />
          </FormField>
          <FormField
            id="newPassword"
            label={t('changePassword.newPassword')}
            hint={t('changePassword.hint')}
            error={fieldMessage(t, errors.newPassword?.message)}
          >
            <PasswordInput
              id="newPassword"
              autoComplete="new-password"
              aria-invalid={Boolean(errors.newPassword)}
              aria-describedby={errors.newPassword ? 'newPassword-error' : undefined}
              {...form.register('newPassword')}
            />
          </FormField>
          <FormField id="confirmPassword" label={t('changePassword.confirmPassword')} error={fieldMessage(t, errors.confirmPassword?.message)}>
            <PasswordInput
              id="confirmPassword"
              autoComplete="new-password"
              aria-invalid={Boolean(errors.confirmPassword)}
              aria-describedby={errors.confirmPassword ? 'confirmPassword-error' : undefined}
              {...form.register('confirmPassword')}
            />
          </FormField>
          <Button type="submit" disabled={change.isPending || change.isSuccess} data-testid="change-password-submit">
            {change.isPending && <Spinner />}
            {t('changePassword.submit')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
