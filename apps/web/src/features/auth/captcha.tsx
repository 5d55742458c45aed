import { useCallback, useEffect } from 'react';
import { useMutation } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { takeEarlyCaptcha } from '@/lib/early-captcha';
import { trpc, trpcClient } from '@/lib/trpc';

/** A graphic verification code made by the server (4 characters, 2 minutes, single use). */
export function useCaptcha() {
  // The first code is the one the route asked for as it started (lib/early-captcha.ts), when there is one.
  const { mutate, data, isPending } = useMutation({
    ...trpc.auth.captcha.mutationOptions(),
    mutationFn: () => takeEarlyCaptcha() ?? trpcClient.auth.captcha.mutate(),
  });
  const refresh = useCallback(() => mutate(), [mutate]);
  useEffect(() => {
    refresh();
    // A code lives 2 minutes: fetch a fresh one before it expires.
    const timer = setInterval(refresh, 110_000);
    return () => clearInterval(timer);
  }, [refresh]);
  return { captcha: data, refresh, isLoading: isPending };
}

export function CaptchaImage({ captcha, isLoading, onRefresh }: { captcha?: { id: string; svg: string }; isLoading: boolean; onRefresh(): void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      onClick={onRefresh}
      className="group focus-visible:ring-ring relative h-10 w-30 shrink-0 overflow-hidden rounded-md border outline-none focus-visible:ring-2"
      title={t('auth.refreshCaptcha')}
      aria-label={t('auth.refreshCaptcha')}
      data-testid="captcha"
      data-captcha-id={captcha?.id ?? ''}
    >
      {captcha && !isLoading ? (
        <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(captcha.svg)}`} alt={t('auth.captchaImage')} className="h-full w-full" />
      ) : (
        <Skeleton className="h-full w-full rounded-none" />
      )}
      <span className="absolute inset-0 hidden items-center justify-center bg-black/30 text-white group-hover:flex">
        <RefreshCw className="size-4" aria-hidden />
      </span>
    </button>
  );
}
