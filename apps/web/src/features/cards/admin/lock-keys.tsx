import { useState } from 'react';
import { Lock, Send, ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TDeliveryState, TSharedDoorKind } from '@console/shared';
import { DeliveryStateBadge } from '@/components/delivery-state-badge';
import { FormError } from '@/components/form-error';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { deliveryErrorKey, isInFlight, isWaitingForAccount } from '@/lib/credentials';
import { formatDateTime, formatNumber } from '@/lib/format';
import type { RouterOutputs } from '@/lib/trpc-types';

/** A lock's row on the page: a room's lock, or a shared door's (room cards name the doors their room is served by). */
interface LockKeyRow {
  key: string;
  testId: string;
  name: string;
  door: TSharedDoorKind | null;
  providerLockId: string;
  deliveryState: TDeliveryState | 'never';
  lastError: string | null;
  deliveredAt: string | null;
}

type KeyStatesQuery<T> = { data: T[] | undefined; error: unknown; isError: boolean; isFetching: boolean; isLoading: boolean; refetch(): unknown };

/** The rooms' locks, then the shared doors, as one list with one loading state, error and refresh. */
export function lockKeyRows(
  rooms: KeyStatesQuery<RouterOutputs['card']['keyStates'][number]>,
  doors: KeyStatesQuery<RouterOutputs['card']['doorKeyStates'][number]>,
): KeyStatesQuery<LockKeyRow> {
  const data =
    rooms.data && doors.data
      ? [
          ...rooms.data.map((r) => ({ ...r, key: `room-${r.roomId}`, testId: `lock-key-${r.roomId}`, name: r.roomName, door: null, providerLockId: r.lockId })),
          ...doors.data.map((d) => ({ ...d, key: `door-${d.lockId}`, testId: `lock-key-door-${d.lockId}`, door: d.kind })),
        ]
      : undefined;
  const failed = rooms.isError ? rooms : doors;
  return {
    data,
    error: failed.error,
    isError: rooms.isError || doors.isError,
    isFetching: rooms.isFetching || doors.isFetching,
    isLoading: rooms.isLoading || doors.isLoading,
    refetch: () => Promise.all([rooms.refetch(), doors.refetch()]),
  };
}

interface LockKeysProps {
  query: KeyStatesQuery<LockKeyRow>;
  canSync: boolean;
  syncing: boolean;
  onSync(): void;
  syncError: unknown;
  hasKeys: boolean;
  timeZone: string;
}

/** Each lock's state with the hotel's card keys, and "Send keys to locks" with its progress. */
export function LockKeys({ query, canSync, syncing, onSync, syncError, hasKeys, timeZone }: LockKeysProps) {
  const { t } = useTranslation();
  const [show, setShow] = useState<'all' | 'missing'>('all');
  const states = query.data ?? [];
  const shown = show === 'all' ? states : states.filter((s) => s.deliveryState !== 'on_lock');
  const onLock = states.filter((s) => s.deliveryState === 'on_lock').length;
  const pending = states.filter((s) => s.deliveryState !== 'never' && isInFlight(s.deliveryState)).length;
  const failed = states.filter((s) => s.deliveryState === 'failed' || s.deliveryState === 'unknown').length;
  const progress = states.length ? Math.round((onLock / states.length) * 100) : 0;
  return (
    <Card className="gap-0 p-0" data-testid="lock-keys">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 border-b p-4">
        <div className="grid gap-1">
          <CardTitle className="flex items-center gap-2">
            <Lock className="size-4" aria-hidden />
            {t('cardAdmin.locks.title')}
          </CardTitle>
          <CardDescription>{t('cardAdmin.locks.text')}</CardDescription>
        </div>
        <div className="flex items-center gap-2">
          <RefreshButton onRefresh={query.refetch} fetching={query.isFetching} />
          {canSync && (
            <Button variant="outline" onClick={onSync} disabled={syncing || states.length === 0} data-testid="keys-sync">
              {syncing ? <Spinner /> : <Send className="rtl:-scale-x-100" aria-hidden />}
              {t('cardAdmin.locks.send')}
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 p-0">
        <FormError error={syncError} className="m-4 mb-0" />
        {states.length > 0 && (
          <div className="grid gap-2 px-4 pt-4" data-testid="lock-keys-summary" data-on-lock={onLock} data-pending={pending} data-total={states.length}>
            <p className="text-sm" role="status" aria-live="polite">
              {pending > 0
                ? t('cardAdmin.locks.progress', { done: formatNumber(onLock), total: formatNumber(states.length) })
                : t('cardAdmin.locks.summary', { done: formatNumber(onLock), total: formatNumber(states.length) })}
              {failed > 0 && <span className="text-destructive ms-2">{t('cardAdmin.locks.failedCount', { n: formatNumber(failed) })}</span>}
            </p>
            <div
              className="bg-muted h-2 overflow-hidden rounded-full"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              aria-label={t('cardAdmin.locks.title')}
            >
              <div className="bg-primary h-full transition-[width]" style={{ width: `${progress}%` }} />
            </div>
            {!hasKeys && <p className="text-muted-foreground text-sm">{t('cardAdmin.locks.noKeysYet')}</p>}
            <ToggleGroup
              type="single"
              value={show}
              onValueChange={(value) => value && setShow(value as 'all' | 'missing')}
              aria-label={t('cardAdmin.locks.show')}
              className="mt-1"
              data-testid="lock-keys-show"
            >
              <ToggleGroupItem value="all" data-testid="lock-keys-show-all">
                {t('cardAdmin.locks.showAll')}
              </ToggleGroupItem>
              <ToggleGroupItem value="missing" data-testid="lock-keys-show-missing">
                {t('cardAdmin.locks.showMissing')}
              </ToggleGroupItem>
            </ToggleGroup>
          </div>
        )}
        {query.isError && !query.data ? (
          <LoadError query={failedQuery(query)} what={t('cardAdmin.locks.what')} />
        ) : query.isLoading ? (
          <SkeletonRows rows={4} label={t('common.loading')} />
        ) : states.length === 0 ? (
          <EmptyState icon={Lock} title={t('cardAdmin.locks.emptyTitle')} description={t('cardAdmin.locks.emptyText')} data-testid="lock-keys-empty" />
        ) : shown.length === 0 ? (
          <EmptyState icon={ShieldCheck} title={t('cardAdmin.locks.allHaveKeys')} data-testid="lock-keys-all-done" />
        ) : (
          <Table data-testid="lock-keys-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('cardAdmin.locks.where')}</TableHead>
                <TableHead className="hidden sm:table-cell">{t('cardAdmin.locks.lock')}</TableHead>
                <TableHead>{t('cardAdmin.locks.state')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('cardAdmin.locks.deliveredAt')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {shown.map((s) => (
                <TableRow key={s.key} data-testid={s.testId} data-state={s.deliveryState}>
                  <TableCell className="font-medium">
                    <span dir="auto">{s.name}</span>
                    {s.door && (
                      <span className="text-muted-foreground ms-2 text-xs font-normal" data-testid="lock-key-door-kind">
                        {t('sharedDoors.section')} · {t(`sharedDoors.kinds.${s.door}`)}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="hidden font-mono text-xs sm:table-cell" dir="ltr">
                    {s.providerLockId}
                  </TableCell>
                  <TableCell>
                    <LockKeyStatus state={s.deliveryState} lastError={s.lastError} testId={s.testId.replace('lock-key-', 'lock-key-error-')} />
                  </TableCell>
                  <TableCell className="text-muted-foreground hidden whitespace-nowrap tabular-nums md:table-cell">
                    {s.deliveredAt ? <time dateTime={s.deliveredAt}>{formatDateTime(s.deliveredAt, timeZone)}</time> : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/** A lock's state with the keys (never sent, or a delivery state) and the last error, translated. */
function LockKeyStatus({ state, lastError, testId }: { state: TDeliveryState | 'never'; lastError: string | null; testId: string }) {
  const { t } = useTranslation();
  const errorKey = deliveryErrorKey(lastError);
  return (
    <div className="grid gap-1" aria-live="polite">
      {state === 'never' ? (
        <Badge variant="outline" data-testid="delivery-state" data-state="never">
          {t('cards.keySync.never')}
        </Badge>
      ) : (
        <DeliveryStateBadge state={state} />
      )}
      {errorKey && state !== 'on_lock' && (
        <span className={state === 'pending' ? 'text-muted-foreground text-xs' : 'text-destructive text-xs'} data-testid={testId}>
          {state === 'pending'
            ? t(isWaitingForAccount(state, lastError) ? 'credentials.waiting' : 'credentials.retrying', { reason: t(errorKey) })
            : t(errorKey)}
        </span>
      )}
    </div>
  );
}
