import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LockCannotTake } from '@/components/lock-cannot-take';
import { Link } from '@tanstack/react-router';
import { AlertTriangle, CreditCard, DoorOpen, FlaskConical, Lock, PlugZap, RefreshCw, Router, Wifi, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { LoadError, failedQuery } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc, trpcClient } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';
import { invalidateLockRefreshed, invalidateRoomLock, lockPanelQueries } from './api';
import { LockBattery } from './lock-battery';
import { LockContents } from './lock-contents';

type LockStatus = RouterOutputs['lock']['status'];

/**
 * A room's lock (issue 7 §1, §5): online or not, its gateway, its battery and when the lock was last
 * heard from, as the provider last reported them; "Refresh" asks the provider now. Members who
 * manage credentials can open the door from here (after a confirmation; a failure says why) and
 * read what the lock holds.
 */
export function LockPanel({ room }: { room: { id: number; name: string } }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const user = useUserInfo();
  const canManage = hasPermission(user, 'credential.manage');
  const canManageAccounts = hasPermission(user, 'lock.accounts');
  const [isUnlockOpen, setIsUnlockOpen] = useState(false);

  const statusOptions = lockPanelQueries.status(room.id);
  const status = useQuery(statusOptions);
  /** The room's lock changed as the server sees it: this panel, the page's heading, the board, the bell. */
  const lockChanged = () => invalidateRoomLock(queryClient, room.id);
  const refresh = useMutation({
    mutationFn: () => trpcClient.lock.status.query({ roomId: room.id, refresh: true }),
    onSuccess: (data) => {
      queryClient.setQueryData(statusOptions.queryKey, data);
      invalidateLockRefreshed(queryClient);
    },
  });
  const unlock = useMutation(
    trpc.lock.unlock.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        setIsUnlockOpen(false);
        toast.success(t('locks.unlocked', { room: room.name }));
      },
      // A lock found unreachable is shown offline at once, with a lock message.
      onError: lockChanged,
    }),
  );

  const data = status.data;
  const hasLock = Boolean(data?.lockId);
  return (
    <Card data-testid="lock-panel" data-online={data?.online ?? undefined}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <Lock className="size-4" aria-hidden />
          {t('locks.title')}
          {data?.simulated && hasLock && (
            <Badge variant="warning" title={t('locks.simulatedHint')}>
              <FlaskConical aria-hidden />
              {t('credentials.simulatedBadge')}
            </Badge>
          )}
        </CardTitle>
        {hasLock && !data?.encodedCards && (
          <CardAction>
            <Button variant="outline" size="sm" onClick={() => refresh.mutate()} disabled={refresh.isPending} data-testid="lock-refresh">
              <RefreshCw className={cn(refresh.isPending && 'animate-spin')} aria-hidden />
              {t('locks.refresh')}
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {status.isLoading ? (
          <Skeleton className="h-16 w-full" />
        ) : !data ? (
          <LoadError query={failedQuery(status)} what={t('locks.statusWhat')} />
        ) : !hasLock ? (
          <p className="text-muted-foreground text-sm" data-testid="lock-none">
            {t('credentials.errors.no_lock')}
          </p>
        ) : (
          <>
            <LockIdentity status={data} />
            {data.gone && (
              <p
                role="alert"
                className="border-destructive/40 bg-destructive/5 text-destructive flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
                data-testid="lock-gone"
              >
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span>
                  {t('lockAccounts.panel.gone')} {canManageAccounts && <AccountsLink />}
                </span>
              </p>
            )}
            {data.account && data.account.state !== 'connected' && (
              <p
                role="status"
                className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
                data-testid="lock-account-problem"
                data-state={data.account.state}
              >
                <PlugZap className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span>
                  {t(`lockAccounts.panel.account.${data.account.state}`, { username: data.account.username })} {canManageAccounts && <AccountsLink />}
                </span>
              </p>
            )}
            {data.statusError && (
              <p
                role="status"
                className="border-warning bg-warning/15 flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
                data-testid="lock-status-error"
              >
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('locks.statusError', { reason: t(`credentials.errors.${data.statusError}`) })}
              </p>
            )}
            {data.encodedCards ? (
              // A card system's door: nothing to read of it, nothing to open from here.
              <p className="text-muted-foreground flex items-start gap-2 text-sm" data-testid="lock-card-system">
                <CreditCard className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('locks.cardSystemDoor')}
              </p>
            ) : (
              <LockFacts status={data} timeZone={timeZone} />
            )}
            {canManage &&
              !data.encodedCards &&
              (data.remoteUnlock ? (
                <div className="flex flex-wrap items-center gap-2">
                  <Button onClick={() => setIsUnlockOpen(true)} data-testid="lock-unlock">
                    <DoorOpen className="rtl:-scale-x-100" aria-hidden />
                    {t('locks.unlock')}
                  </Button>
                </div>
              ) : (
                <LockCannotTake what="remoteUnlock" roomName={room.name} />
              ))}
          </>
        )}
        {canManage && hasLock && !data?.encodedCards && <LockContents room={room} timeZone={timeZone} />}
      </CardContent>

      <ConfirmDialog
        open={isUnlockOpen}
        onOpenChange={(open) => {
          setIsUnlockOpen(open);
          if (!open) unlock.reset();
        }}
        title={t('locks.unlockTitle', { room: room.name })}
        description={t('locks.unlockText')}
        confirmLabel={t('locks.unlock')}
        pending={unlock.isPending}
        onConfirm={() => unlock.mutate({ roomId: room.id })}
        data-testid="lock-unlock-dialog"
        confirmTestId="lock-unlock-confirm"
      >
        <FormError error={unlock.error} safeToRetry={false} />
      </ConfirmDialog>
    </Card>
  );
}

/** The lock's name in the lock app (else its Bluetooth name) and its lock id. */
function LockIdentity({ status }: { status: LockStatus }) {
  const { t } = useTranslation();
  return (
    <p className="flex min-w-0 flex-wrap items-baseline gap-x-2 text-sm" data-testid="lock-name" data-lock-id={status.lockId ?? undefined}>
      <span className="truncate font-medium" dir="auto">
        {status.name || status.lockId}
      </span>
      <span className="text-muted-foreground font-mono text-xs">{t('lockAccounts.lockIdValue', { id: status.lockId })}</span>
    </p>
  );
}

/** To the Lock accounts page, for those who may see it (lock.accounts). */
function AccountsLink() {
  const { t } = useTranslation();
  return (
    <Link
      to="/lockAccounts"
      className="focus-visible:ring-ring font-medium whitespace-nowrap underline underline-offset-4 outline-none focus-visible:ring-2"
      data-testid="lock-accounts-link"
    >
      {t('lockAccounts.openPage')}
    </Link>
  );
}

/**
 * Online, gateway, battery, last heard from, the door when its sensor reports it: what the provider
 * last reported. The battery says when it was reported, unless the last check failed (it is then
 * older than that check).
 */
function LockFacts({ status, timeZone }: { status: LockStatus; timeZone: string }) {
  const { t } = useTranslation();
  const gateway = status.gateway;
  return (
    <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
      <Fact label={t('frontDesk.board.status')} testId="lock-online" value={status.online === null ? 'unknown' : status.online ? 'online' : 'offline'}>
        <Connection online={status.online} />
      </Fact>
      <Fact label={t('frontDesk.detail.unlockSources.gateway')} testId="lock-gateway">
        {gateway ? (
          <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            <Router className="text-muted-foreground size-4 shrink-0" aria-hidden />
            <span className="truncate" dir="auto">
              {gateway.name || gateway.id}
            </span>
            <Connection online={gateway.online} />
          </span>
        ) : (
          <span className="text-muted-foreground">{t('credentials.errors.no_gateway')}</span>
        )}
      </Fact>
      <Fact label={t('locks.battery')} testId="lock-battery" value={status.battery ?? undefined}>
        {status.battery === null ? (
          <span className="text-muted-foreground">—</span>
        ) : (
          <span className="flex flex-wrap items-center gap-x-2">
            <LockBattery power={status.battery} className="text-sm" />
            {status.statusCheckedAt && !status.statusError && (
              <span className="text-muted-foreground text-xs">{t('locks.reportedAt', { time: formatDateTime(status.statusCheckedAt, timeZone) })}</span>
            )}
          </span>
        )}
      </Fact>
      <Fact label={t('locks.lastSeen')} testId="lock-last-seen">
        {status.lastSeenAt ? (
          <time dateTime={status.lastSeenAt}>{formatDateTime(status.lastSeenAt, timeZone)}</time>
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </Fact>
      {/* The door, when the lock's own sensor reports it (a Seam lock's door_open). */}
      {status.door && (
        <Fact label={t('locks.door')} testId="lock-door" value={status.door.open ? 'open' : 'closed'}>
          {status.door.open
            ? status.door.openedAt
              ? t('locks.doorOpenSince', { time: formatDateTime(status.door.openedAt, timeZone) })
              : t('locks.doorOpen')
            : t('locks.doorClosed')}
        </Fact>
      )}
    </dl>
  );
}

function Fact({ label, testId, value, children }: { label: string; testId: string; value?: string | number; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="mt-1 font-medium" data-testid={testId} data-value={value}>
        {children}
      </dd>
    </div>
  );
}

/** Online (green), offline (red) or not known yet, in words and with an icon. */
function Connection({ online }: { online: boolean | null }) {
  const { t } = useTranslation();
  if (online === null) return <span className="text-muted-foreground">{t('locks.notRead')}</span>;
  const Icon = online ? Wifi : WifiOff;
  return (
    <span className={cn('inline-flex items-center gap-1', online ? 'text-emerald-700' : 'text-destructive')}>
      <Icon className="size-4 shrink-0" aria-hidden />
      {online ? t('locks.online') : t('locks.offline')}
    </span>
  );
}
