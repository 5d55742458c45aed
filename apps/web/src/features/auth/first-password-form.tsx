import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ZChangePasswordInput } from '@console/shared';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { AuthShell } from './auth-shell';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { useLaterTexts } from '@/lib/use-later-texts';

/**
 * The sign-in's second step in its frame, once its texts (the later part: lib/text-parts.ts) are
 * there, which they almost always are by the time a member has signed in.
 */
export function FirstPasswordStep({ sentPassword, onDone }: { sentPassword: string; onDone: () => void }) {
  const { t } = useTranslation();
  const hasTexts = useLaterTexts('changePassword.firstTitle');
  if (!hasTexts)
    return (
      <AuthShell title={t('login.title')}>
        <Spinner />
      </AuthShell>
    );
  return (
    <AuthShell title={t('changePassword.firstTitle')} subtitle={t('changePassword.firstDescription')}>
      <FirstPasswordForm sentPassword={sentPassword} onDone={onDone} />
    </AuthShell>
  );
}

/**
 * The sign-in's second step for an account whose password was sent to it by SMS (issue 39 §7): it
 * chooses its own before anything else (the server refuses every other call until then). The
 * password just typed is the current one; the change ends the session, and the member signs in
 * again with the new password. "Sign out" leaves without changing it.
 */
function FirstPasswordForm({ sentPassword, onDone }: { sentPassword: string; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useAppForm(ZChangePasswordInput, { oldPassword: sentPassword, newPassword: '', confirmPassword: '' });
  const { errors } = form.formState;
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      meta: { handledCodes: ['VALIDATION', 'OLD_PASSWORD_WRONG'] },
      onSuccess: () => {
        toast.success(t('changePassword.firstSucceeded'));
        onDone();
      },
      onError: (error) => {
        const app = appErrorOf(error);
        // The sent password no longer works (changed meanwhile elsewhere): sign in again.
        if (app?.code === 'OLD_PASSWORD_WRONG') {
          toast.error(app.message);
          onDone();
        } else form.applyServerErrors(error);
      },
    }),
  );
  const signOut = useMutation(trpc.auth.logout.mutationOptions({ meta: { showsErrors: true }, onSettled: () => onDone() }));

  return (
    <form onSubmit={form.handleSubmit((values) => change.mutate(values))} noValidate className="space-y-4" data-testid="first-password-form">
      <FormField id="newPassword" label={t('changePassword.newPassword')} hint={t('changePassword.hint')} error={fieldMessage(t, errors.newPassword?.message)}>
        <PasswordInput
          id="newPassword"
          autoComplete="new-password"
          aria-invalid={Boolean(errors.newPassword)}
          aria-describedby={errors.newPassword ? 'newPassword-error' : undefined}
          autoFocus
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
      <Button type="submit" className="w-full" disabled={change.isPending || change.isSuccess || signOut.isPending} data-testid="first-password-submit">
        {change.isPending && <Spinner />}
        {t('changePassword.submit')}
      </Button>
      <Button
        type="button"
        variant="ghost"
        className="w-full"
        disabled={change.isPending || signOut.isPending}
        onClick={() => signOut.mutate()}
        data-testid="first-password-sign-out"
      >
        {t('layout.signOut')}
      </Button>
    </form>
  );
}
