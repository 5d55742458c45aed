import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { deviceLabel } from '@/lib/device';
import { ZChangeEmailInput, ZChangeMobileInput, ZUpdateNicknameInput } from '@console/shared';
import { PasswordInput } from '@/components/password-input';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { invalidateProfile, invalidateSessions, settingsQueries } from './api';
import { ruleMessage } from './rule-message';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { currentLanguage } from '@/lib/language';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { hasPermission, readUserInfo, useUserInfo, writeUserInfo } from '@/lib/user-info';
import { useAppForm } from '@/lib/use-app-form';

/**
 * The personal centre (`/center/personalCenter`, spec §2; issue 9 §4): the signed-in account's
 * nickname and avatar, its e-mail and mobile (each change asks for the password), its sessions on
 * every face with "sign out everywhere else", and the links to management cards, universal cards
 * and the fingerprint test.
 */
export function PersonalCenterPage() {
  const { t } = useTranslation();
  const profile = useQuery(settingsQueries.profile());
  return (
    <div className="mx-auto grid max-w-4xl gap-4" data-testid="personal-center">
      <h1 className="text-xl font-semibold">{t('settings.personal.title')}</h1>
      {profile.data ? (
        <>
          {/* New forms only when the profile changed, not on every refetch: what is being typed stays. */}
          <ProfileCard key={`p${profile.data.nickname}|${profile.data.avatar ?? ''}`} profile={profile.data} />
          <IdentityCard key={`i${profile.data.email ?? ''}|${profile.data.mobile ?? ''}`} profile={profile.data} />
        </>
      ) : (
        <Card>
          <CardContent className="space-y-3 pt-6">
            {profile.isError ? (
              <p className="text-destructive text-sm">{t('settings.loadFailed')}</p>
            ) : (
              [0, 1, 2].map((i) => <div key={i} className="bg-muted h-9 w-full animate-pulse rounded-md" />)
            )}
          </CardContent>
        </Card>
      )}
      <SessionsCard />
      <LinksCard />
    </div>
  );
}

type Profile = { id: number; nickname: string; avatar: string | null; mobile: string | null; email: string | null };

/**
 * After a change the navbar's name and avatar follow: the server's answer (the profile as saved) is
 * written into the stored user info at once, and the user info is asked again (the navbar does not
 * wait for that second answer, which a busy server or a dropped request could hold back).
 */
function useRefreshUser() {
  const queryClient = useQueryClient();
  return (saved?: Profile) => {
    const stored = readUserInfo();
    if (saved && stored) writeUserInfo({ ...stored, nickname: saved.nickname, avatar: saved.avatar, mobile: saved.mobile, email: saved.email });
    return invalidateProfile(queryClient);
  };
}

async function uploadAvatar(file: File): Promise<{ url: string } | { error: string }> {
  const formData = new FormData();
  formData.append('file', file);
  const response = await fetch('/api/uploads?purpose=avatar', {
    method: 'POST',
    body: formData,
    credentials: 'same-origin',
    headers: { language: currentLanguage().header },
  });
  const body = (await response.json().catch(() => null)) as { url?: string; error?: { message?: string } } | null;
  if (response.ok && body?.url) return { url: body.url };
  return { error: body?.error?.message ?? '' };
}

function ProfileCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const refresh = useRefreshUser();
  const form = useAppForm(ZUpdateNicknameInput, { nickname: profile.nickname });
  const { errors, isDirty } = form.formState;
  const fileInput = useRef<HTMLInputElement>(null);
  const [isUploading, setIsUploading] = useState(false);
  const nickname = useMutation(
    trpc.account.updateNickname.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: async (saved) => {
        toast.success(t('settings.personal.nicknameSaved'));
        await refresh(saved);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const avatar = useMutation(
    trpc.account.setAvatar.mutationOptions({
      onSuccess: async (saved) => {
        toast.success(t('settings.personal.avatarSaved'));
        await refresh(saved);
      },
    }),
  );
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setIsUploading(true);
    try {
      const result = await uploadAvatar(file);
      if ('url' in result) avatar.mutate({ avatar: result.url });
      else toast.error(result.error || t('settings.personal.uploadFailed'));
    } catch {
      toast.error(t('settings.personal.uploadFailed'));
    } finally {
      setIsUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };
  const name = profile.nickname || profile.mobile || profile.email || '';
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{t('settings.personal.profile')}</h2>
      </CardHeader>
      <CardContent className="flex flex-col gap-6 sm:flex-row">
        <div className="flex flex-col items-center gap-2">
          <Avatar className="size-20" data-testid="profile-avatar">
            {profile.avatar && <AvatarImage src={profile.avatar} alt={t('settings.personal.avatar')} />}
            <AvatarFallback className="text-2xl">{name.slice(0, 1).toUpperCase()}</AvatarFallback>
          </Avatar>
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="sr-only"
            id="avatar-file"
            tabIndex={-1}
            aria-label={t('settings.personal.uploadAvatar')}
            onChange={(e) => void onFile(e.target.files?.[0])}
            data-testid="avatar-file"
          />
          <div className="flex gap-1">
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={isUploading || avatar.isPending}
              onClick={() => fileInput.current?.click()}
              data-testid="avatar-upload"
            >
              {(isUploading || avatar.isPending) && <Spinner />}
              {t('settings.personal.uploadAvatar')}
            </Button>
            {profile.avatar && (
              <Button type="button" size="sm" variant="ghost" disabled={avatar.isPending} onClick={() => avatar.mutate({ avatar: null })}>
                {t('settings.personal.removeAvatar')}
              </Button>
            )}
          </div>
        </div>
        <form onSubmit={form.handleSubmit((values) => nickname.mutate(values))} noValidate className="flex flex-1 flex-col gap-3" data-testid="nickname-form">
          <FormField id="nickname" label={t('settings.personal.nickname')} error={ruleMessage(t, errors.nickname?.message)} required>
            <Input
              id="nickname"
              data-testid="nickname"
              autoComplete="nickname"
              aria-invalid={Boolean(errors.nickname)}
              aria-describedby={errors.nickname ? 'nickname-error' : undefined}
              {...form.register('nickname')}
            />
          </FormField>
          <div>
            <Button type="submit" disabled={nickname.isPending || !isDirty} data-testid="nickname-save">
              {nickname.isPending && <Spinner />}
              {t('settings.save')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** E-mail and mobile: each a small form with the current password. */
function IdentityCard({ profile }: { profile: Profile }) {
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
  const refresh = useRefreshUser();
  const form = useAppForm(ZChangeEmailInput, { email: current ?? '', password: '' });
  const { errors } = form.formState;
  const change = useMutation(
    trpc.account.changeEmail.mutationOptions({
      meta: { handledCodes: ['VALIDATION', 'OLD_PASSWORD_WRONG', 'CONFLICT'] },
      onSuccess: async () => {
        toast.success(t('settings.personal.emailSaved'));
        form.resetField('password');
        await refresh();
      },
      onError: (error) => {
        const app = appErrorOf(error);
        if (app?.code === 'OLD_PASSWORD_WRONG') form.setError('password', { type: 'server', message: app.message }, { shouldFocus: true });
        else form.applyServerErrors(error);
      },
    }),
  );
  return (
    <form onSubmit={form.handleSubmit((values) => change.mutate(values))} noValidate className="space-y-3" data-testid="email-form">
      <FormField id="email" label={t('settings.personal.email')} error={ruleMessage(t, errors.email?.message)}>
        <Input
          id="email"
          type="email"
          dir="ltr"
          autoComplete="email"
          aria-invalid={Boolean(errors.email)}
          aria-describedby={errors.email ? 'email-error' : undefined}
          {...form.register('email')}
        />
      </FormField>
      <FormField id="email-password" label={t('settings.personal.currentPassword')} error={ruleMessage(t, errors.password?.message)}>
        <PasswordInput
          id="email-password"
          autoComplete="current-password"
          aria-invalid={Boolean(errors.password)}
          aria-describedby={errors.password ? 'email-password-error' : undefined}
          {...form.register('password')}
        />
      </FormField>
      <Button type="submit" variant="outline" disabled={change.isPending}>
        {change.isPending && <Spinner />}
        {t('settings.personal.changeEmail')}
      </Button>
    </form>
  );
}

function MobileForm({ current }: { current: string | null }) {
  const { t } = useTranslation();
  const refresh = useRefreshUser();
  const form = useAppForm(ZChangeMobileInput, { mobile: current ?? '', password: '' });
  const { errors } = form.formState;
  const change = useMutation(
    trpc.account.changeMobile.mutationOptions({
      meta: { handledCodes: ['VALIDATION', 'OLD_PASSWORD_WRONG', 'CONFLICT'] },
      onSuccess: async () => {
        toast.success(t('settings.personal.mobileSaved'));
        form.resetField('password');
        await refresh();
      },
      onError: (error) => {
        const app = appErrorOf(error);
        if (app?.code === 'OLD_PASSWORD_WRONG') form.setError('password', { type: 'server', message: app.message }, { shouldFocus: true });
        else form.applyServerErrors(error);
      },
    }),
  );
  return (
    <form onSubmit={form.handleSubmit((values) => change.mutate(values))} noValidate className="space-y-3" data-testid="mobile-form">
      <FormField id="mobile" label={t('settings.personal.mobile')} error={ruleMessage(t, errors.mobile?.message)}>
        <Input
          id="mobile"
          type="tel"
          dir="ltr"
          inputMode="numeric"
          autoComplete="tel"
          aria-invalid={Boolean(errors.mobile)}
          aria-describedby={errors.mobile ? 'mobile-error' : undefined}
          {...form.register('mobile')}
        />
      </FormField>
      <FormField id="mobile-password" label={t('settings.personal.currentPassword')} error={ruleMessage(t, errors.password?.message)}>
        <PasswordInput
          id="mobile-password"
          autoComplete="current-password"
          aria-invalid={Boolean(errors.password)}
          aria-describedby={errors.password ? 'mobile-password-error' : undefined}
          {...form.register('password')}
        />
      </FormField>
      <Button type="submit" variant="outline" disabled={change.isPending}>
        {change.isPending && <Spinner />}
        {t('settings.personal.changeMobile')}
      </Button>
    </form>
  );
}

/** The account's sessions on every face, the current one first and marked; others end one by one or all at once (after a confirmation). */
function SessionsCard() {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const queryClient = useQueryClient();
  const sessions = useQuery(settingsQueries.sessions());
  const [isConfirming, setIsConfirming] = useState(false);
  const refresh = () => invalidateSessions(queryClient);
  const revokeOthers = useMutation(
    trpc.account.revokeOtherSessions.mutationOptions({
      onSuccess: async (result) => {
        setIsConfirming(false);
        toast.success(t('settings.sessions.othersEnded', { count: result.revoked }));
        await refresh();
      },
    }),
  );
  const revokeOne = useMutation(
    trpc.account.revokeSession.mutationOptions({
      onSuccess: async () => {
        toast.success(t('settings.sessions.ended'));
        await refresh();
      },
      onError: () => void refresh(),
    }),
  );
  const items = sessions.data?.items ?? [];
  const others = items.filter((s) => !s.isCurrent).length;
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div className="space-y-1.5">
          <h2 className="leading-none font-semibold">{t('settings.sessions.title')}</h2>
          <CardDescription>{t('settings.sessions.description')}</CardDescription>
        </div>
        <Button
          type="button"
          variant="destructive"
          size="sm"
          disabled={others === 0 || revokeOthers.isPending}
          onClick={() => setIsConfirming(true)}
          data-testid="sessions-revoke-others"
        >
          {t('settings.sessions.signOutOthers')}
        </Button>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <div className="bg-muted h-16 w-full animate-pulse rounded-md" />
        ) : sessions.isError ? (
          <p className="text-destructive text-sm">{t('settings.loadFailed')}</p>
        ) : (
          <ul className="divide-y" data-testid="sessions">
            {items.map((s) => (
              <li key={s.id} className="flex items-center gap-3 py-3" data-testid="session-row" data-current={s.isCurrent ? 'true' : undefined}>
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    <span>{t(`settings.sessions.kind.${s.kind}`)}</span>
                    {s.isCurrent && <Badge variant="secondary">{t('settings.sessions.current')}</Badge>}
                  </div>
                  {/* Browser and system as a person says them; the raw user agent is the hint. */}
                  <div className="text-muted-foreground truncate text-xs" title={s.userAgent ?? undefined} data-testid="session-device">
                    <bdi>{deviceLabel(s.device, t)}</bdi>
                  </div>
                  <div className="text-muted-foreground text-xs">
                    {t('settings.sessions.details', {
                      ip: s.ip ?? '—',
                      lastSeen: formatDateTime(String(s.lastSeenAt), timeZone),
                      since: formatDateTime(String(s.createdAt), timeZone),
                    })}
                  </div>
                </div>
                {!s.isCurrent && (
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    disabled={revokeOne.isPending}
                    onClick={() => revokeOne.mutate({ sessionId: s.id })}
                    data-testid="session-revoke"
                  >
                    {t('settings.sessions.signOut')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <AlertDialog open={isConfirming} onOpenChange={(open) => !revokeOthers.isPending && setIsConfirming(open)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t('settings.sessions.confirmTitle')}</AlertDialogTitle>
            <AlertDialogDescription>{t('settings.sessions.confirmText', { count: others })}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={revokeOthers.isPending}>{t('settings.cancel')}</AlertDialogCancel>
            <AlertDialogAction
              data-testid="sessions-revoke-others-confirm"
              disabled={revokeOthers.isPending}
              onClick={(event) => {
                event.preventDefault();
                revokeOthers.mutate();
              }}
            >
              {revokeOthers.isPending && <Spinner />}
              {t('settings.sessions.signOutOthers')}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}

/** The personal centre's pages of the cards issue (spec §2: its hidden children). */
function LinksCard() {
  const { t } = useTranslation();
  const user = useUserInfo();
  const canCards = hasPermission(user, 'credential.manage');
  const links = [
    ...(canCards
      ? [
          { to: '/center/personalCenter/cardList', label: t('settings.personal.managementCards'), testId: 'link-management-cards' },
          { to: '/center/personalCenter/universalCardList', label: t('settings.personal.universalCards'), testId: 'link-universal-cards' },
        ]
      : []),
    { to: '/center/personalCenter/cardSenderFingerTest', label: t('settings.personal.fingerTest'), testId: 'link-finger-test' },
  ] as const;
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{t('settings.personal.tools')}</h2>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {links.map((l) => (
          <Button key={l.to} asChild variant="outline">
            <Link to={l.to} data-testid={l.testId}>
              {l.label}
            </Link>
          </Button>
        ))}
      </CardContent>
    </Card>
  );
}
