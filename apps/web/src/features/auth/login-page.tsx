import { lazy, Suspense, useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Link, useRouter, getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { TAppErrorData } from '@console/shared';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf, signedOutReason } from '@/lib/api-errors';
import { trpc } from '@/lib/trpc';
import { loadUserInfoCodec, writeUserInfo } from '@/lib/user-info';
import { AuthShell } from './auth-shell';
import { CaptchaImage, useCaptcha } from './captcha';
import { fieldMessage } from '@/lib/field-message';
import { PasswordInput } from '@/components/password-input';
import { RenderedInBackground, whenIdle } from '@/lib/lazy';
import { useAppFormLoadingSchema } from '@/lib/use-app-form';

/** Only paths of this console are followed after sign-in (never another site). */
function safeRedirect(target: string | undefined): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login') ? target : '/';
}

const loginRoute = getRouteApi('/login');

/** The form's rules (the shared zod schema) load once the page is idle, or at the first check, which waits for them. */
const loadLoginRules = () => import('./login-rules').then((m) => m.ZLoginInput);

/**
 * The first sign-in's second step (a password sent by SMS changed for the member's own), a chunk of
 * its own: its form and rules (zod) would otherwise be in every visitor's first download of the
 * sign-in page, for the few who ever see it.
 */
const FirstPasswordStep = lazy(() => import('./first-password-form').then((m) => ({ default: m.FirstPasswordStep })));

/** The answers about the graphic code: shown at its field, not as a passing toast. */
const CAPTCHA_ERRORS: TAppErrorData['code'][] = ['CAPTCHA_INVALID', 'CAPTCHA_REQUIRED'];

/** `/login`: the form is rendered in the background once the route is there (lib/lazy.ts). */
export function LoginPage() {
  return (
    <RenderedInBackground>
      <LoginForm />
    </RenderedInBackground>
  );
}

function LoginForm() {
  const { t } = useTranslation();
  const router = useRouter();
  const { redirect } = loginRoute.useSearch();
  const { captcha, refresh, isLoading } = useCaptcha();
  const form = useAppFormLoadingSchema(loadLoginRules, { account: '', password: '', captchaId: '', captchaCode: '' });
  const { errors } = form.formState;
  // Why the console sent its user here (a frozen account), said until the page is left.
  const [reason] = useState(() => signedOutReason());
  useEffect(() => void signedOutReason(true), []);
  // Signed in with a password sent by SMS: its own is chosen here before the console opens (issue 39 §7).
  const [sentPassword, setSentPassword] = useState<string | null>(null);

  const login = useMutation(
    trpc.auth.login.mutationOptions({
      meta: { handledCodes: ['VALIDATION', ...CAPTCHA_ERRORS] },
      onSuccess: async (user, values) => {
        if (user.mustChangePassword) {
          setSentPassword(values.password);
          return;
        }
        // Asked for as the form showed (below): here at once but for a very quick hand.
        await loadUserInfoCodec();
        writeUserInfo(user);
        router.history.push(safeRedirect(redirect));
      },
      onError: (error) => {
        // Every attempt uses up its code: a new picture, an empty field.
        form.setValue('captchaCode', '');
        refresh();
        const app = appErrorOf(error);
        // A wrong or missing graphic code is said under the code field, which is marked invalid.
        if (app && CAPTCHA_ERRORS.includes(app.code)) form.setError('captchaCode', { type: 'server', message: app.message }, { shouldFocus: true });
        else form.applyServerErrors(error);
      },
    }),
  );

  useEffect(() => {
    if (captcha) form.setValue('captchaId', captcha.id);
  }, [captcha, form]);

  // The cookie's cipher, needed once signed in: fetched while the form is filled in.
  useEffect(() => whenIdle(() => void loadUserInfoCodec()), []);

  const onSubmit = form.handleSubmit((values) => login.mutate(values));

  // The account field takes the focus once the page has painted, not while it first renders: a
  // focus then makes the browser lay the page out inside that render's task (issue 18 §4). Not if
  // the visitor has already put the focus somewhere.
  const { setFocus } = form;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        if (document.activeElement === document.body || document.activeElement === null) setFocus('account');
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [setFocus]);

  if (sentPassword !== null)
    return (
      <Suspense
        fallback={
          <AuthShell title={t('login.title')}>
            <Spinner />
          </AuthShell>
        }
      >
        <FirstPasswordStep
          sentPassword={sentPassword}
          onDone={() => {
            // The change ended the session (or the member signed out): sign in again, with the new password.
            setSentPassword(null);
            form.setValue('password', '');
            form.setValue('captchaCode', '');
            refresh();
          }}
        />
      </Suspense>
    );

  return (
    <AuthShell title={t('login.title')}>
      <form onSubmit={onSubmit} noValidate className="space-y-4" data-testid="login-form">
        {reason && (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
            data-testid="login-signed-out-reason"
          >
            {reason}
          </p>
        )}
        <FormField id="account" label={t('login.account')} error={fieldMessage(t, errors.account?.message)}>
          <Input
            id="account"
            autoComplete="username"
            inputMode="email"
            placeholder={t('login.accountPlaceholder')}
            aria-invalid={Boolean(errors.account)}
            aria-describedby={errors.account ? 'account-error' : undefined}
            {...form.register('account')}
          />
        </FormField>
        <FormField id="password" label={t('login.password')} error={fieldMessage(t, errors.password?.message)}>
          <PasswordInput
            id="password"
            autoComplete="current-password"
            placeholder={t('login.passwordPlaceholder')}
            aria-invalid={Boolean(errors.password)}
            aria-describedby={errors.password ? 'password-error' : undefined}
            {...form.register('password')}
          />
        </FormField>
        <FormField id="captchaCode" label={t('login.captcha')} error={fieldMessage(t, errors.captchaCode?.message)}>
          <div className="flex gap-2">
            <Input
              id="captchaCode"
              autoComplete="off"
              maxLength={4}
              placeholder={t('login.captchaPlaceholder')}
              aria-invalid={Boolean(errors.captchaCode)}
              aria-describedby={errors.captchaCode ? 'captchaCode-error' : undefined}
              {...form.register('captchaCode')}
            />
            <CaptchaImage captcha={captcha} isLoading={isLoading} onRefresh={refresh} />
          </div>
        </FormField>
        <Button type="submit" className="w-full" disabled={login.isPending} data-testid="login-submit">
          {login.isPending && <Spinner />}
          {t('login.submit')}
        </Button>
        <div className="text-end text-sm">
          <Link to="/find" className="text-primary hover:underline">
            {t('login.forgot')}
          </Link>
        </div>
      </form>
    </AuthShell>
  );
}
