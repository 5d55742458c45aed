import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZUpdateNicknameInput } from '@console/shared';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { currentLanguage } from '@/lib/language';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { ruleMessage } from './rule-message';
import { useRefreshUser, type Profile } from './use-refresh-user';

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

/** The nickname and the avatar (uploaded, then set; or removed). */
export function ProfileCard({ profile }: { profile: Profile }) {
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
