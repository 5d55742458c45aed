import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { deviceLabel } from '@/lib/device';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateSessions, settingsQueries } from './api';

/** The account's sessions on every face, the current one first and marked; others end one by one or all at once (after a confirmation). */
export function SessionsCard() {
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
