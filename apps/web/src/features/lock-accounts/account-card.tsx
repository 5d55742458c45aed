import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CloudDownload, Gauge, Hourglass, Link2, PlugZap, Trash2, TriangleAlert, Unplug } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { formatDateTime, formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { cn } from '@/lib/utils';
import { invalidateLockAccounts } from './api';
import { SeamWebhookSection } from './seam-webhook';
import { accountActions, budgetUse, importSummaryParts, stateReason, stateTexts, stateVariant, type ImportResult, type LockAccount } from './lock-accounts';

/** Where a "get locks" of an account stands on this page. */
export type ImportState = { state: 'running' } | { state: 'done'; result: ImportResult } | { state: 'failed'; error: unknown };

const BAR_COLOUR = { ok: 'bg-primary', warning: 'bg-amber-500', over: 'bg-destructive' } as const;

/**
 * One lock account of the hotel: who it is (user name, label, kind), where it stands with the lock
 * cloud (connected, or what the administrator must do, and why), the lock cloud's limit if one
 * paused it, its calls today and this month against its monthly budget, its locks, and its
 * actions: get locks (with progress, then what changed), reconnect, monthly budget, disconnect and
 * remove (both asked first).
 */
export function AccountCard({
  account,
  timeZone,
  importState,
  onImport,
  onReconnect,
  onBudget,
  onLink,
}: {
  account: LockAccount;
  timeZone: string;
  importState: ImportState | undefined;
  onImport(): void;
  onReconnect(): void;
  onBudget(): void;
  /** A connected Seam workspace: link a lock brand's account into it (Seam's page). */
  onLink?(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<'disconnect' | 'remove' | null>(null);
  const actions = accountActions(account.state);
  const texts = stateTexts(account);
  const use = budgetUse(account.calls.month, account.monthlyBudget);
  const isImporting = importState?.state === 'running';
  const headingId = `lock-account-${account.id}-name`;

  const changed = () => invalidateLockAccounts(queryClient);
  const disconnect = useMutation(
    trpc.lockAccount.disconnect.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('lockAccounts.disconnected', { username: account.username }));
        setAsking(null);
      },
      onSettled: changed,
    }),
  );
  const remove = useMutation(
    trpc.lockAccount.remove.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('lockAccounts.removed', { username: account.username }));
        setAsking(null);
      },
      onSettled: changed,
    }),
  );
  const reasonCode = stateReason(account.state, account.lastError);
  const reason = reasonCode ? t(`credentials.errors.${reasonCode}`) : null;

  return (
    <Card
      className="gap-4"
      role="group"
      aria-labelledby={headingId}
      data-testid={`lock-account-${account.id}`}
      data-state={account.state}
      data-budget={account.budget}
    >
      <CardHeader className="gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 id={headingId} className="min-w-0 truncate font-semibold" dir="ltr" title={account.username} data-testid="lock-account-title">
            {account.username}
          </h3>
          <Badge variant={stateVariant(account.state)} data-testid="lock-account-state">
            {t(texts.badge)}
          </Badge>
        </div>
        <p className="text-muted-foreground text-sm">
          {account.label && (
            <>
              <span className="font-medium" dir="auto">
                {account.label}
              </span>
              {' · '}
            </>
          )}
          <span data-testid="lock-account-kind">{t(`lockAccounts.kinds.${account.kind}`)}</span>
        </p>
      </CardHeader>

      <CardContent className="space-y-4">
        {account.state !== 'connected' && (
          <Notice tone={account.state === 'disconnected' ? 'muted' : 'warning'} testId="lock-account-problem">
            <p>{t(texts.help)}</p>
            {reason && account.state !== 'disconnected' && <p className="mt-1 text-xs">{t('lockAccounts.reason', { reason })}</p>}
          </Notice>
        )}
        {account.limitedUntil && (
          <Notice tone="warning" icon={<Hourglass className="mt-0.5 size-4 shrink-0" aria-hidden />} testId="lock-account-limited">
            {t('lockAccounts.limitedUntil', { time: formatDateTime(account.limitedUntil, timeZone) })}
          </Notice>
        )}

        <div className="grid gap-1.5" data-testid="lock-account-calls">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
            <span className="font-medium">{t('lockAccounts.calls.title')}</span>
            <span className="text-muted-foreground tabular-nums">
              {t('lockAccounts.calls.month', {
                used: formatNumber(account.calls.month),
                budget: formatNumber(account.monthlyBudget),
                percent: formatNumber(use.percent),
              })}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={t('lockAccounts.calls.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={use.bar}
            aria-valuetext={t('lockAccounts.calls.month', {
              used: formatNumber(account.calls.month),
              budget: formatNumber(account.monthlyBudget),
              percent: formatNumber(use.percent),
            })}
            className="bg-muted h-2 w-full overflow-hidden rounded-full"
          >
            <div className={cn('h-full rounded-full', BAR_COLOUR[account.budget])} style={{ width: `${use.bar}%` }} />
          </div>
          <p className="text-muted-foreground text-xs tabular-nums">{t('lockAccounts.calls.today', { number: formatNumber(account.calls.today) })}</p>
          {account.budget === 'warning' && (
            <p className="text-xs text-amber-800" data-testid="lock-account-budget-warning">
              {t('lockAccounts.budgetWarning', { percent: formatNumber(use.percent) })}
            </p>
          )}
          {account.budget === 'over' && (
            <p className="text-destructive text-xs" data-testid="lock-account-budget-over">
              {t('lockAccounts.budgetOver')}
            </p>
          )}
        </div>

        <dl className="grid grid-cols-3 gap-2 text-sm" data-testid="lock-account-locks">
          <Fact label={t('lockAccounts.facts.locks')} value={formatNumber(account.locks.total)} />
          <Fact label={t('lockAccounts.facts.paired')} value={formatNumber(account.locks.paired)} />
          <Fact label={t('lockAccounts.facts.gone')} value={formatNumber(account.locks.gone)} warn={account.locks.gone > 0} />
        </dl>
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <Fact
            label={t('lockAccounts.facts.connectedAt')}
            value={account.connectedAt ? formatDateTime(account.connectedAt, timeZone) : t('lockAccounts.facts.never')}
          />
          <Fact
            label={t('lockAccounts.facts.importedAt')}
            value={account.importedAt ? formatDateTime(account.importedAt, timeZone) : t('lockAccounts.facts.never')}
          />
        </dl>

        {account.webhook && <SeamWebhookSection account={account} webhook={account.webhook} timeZone={timeZone} />}
        <ImportStatus state={importState} />
      </CardContent>

      <CardFooter className="mt-auto flex-wrap gap-2">
        {actions.importLocks && (
          <Button onClick={onImport} disabled={isImporting} data-testid="lock-account-import">
            {isImporting ? <Spinner /> : <CloudDownload aria-hidden />}
            {t('lockAccounts.importLocks')}
          </Button>
        )}
        {actions.reconnect && (
          <Button onClick={onReconnect} data-testid="lock-account-reconnect" data-kind={account.kind}>
            <PlugZap aria-hidden />
            {t(texts.reconnect)}
          </Button>
        )}
        {onLink && account.kind === 'seam' && account.state === 'connected' && (
          <Button variant="outline" onClick={onLink} data-testid="lock-account-link">
            <Link2 aria-hidden />
            {t('lockAccounts.link.button')}
          </Button>
        )}
        <Button variant="outline" onClick={onBudget} data-testid="lock-account-budget">
          <Gauge aria-hidden />
          {t('lockAccounts.budget')}
        </Button>
        {actions.disconnect && (
          <Button
            variant="outline"
            onClick={() => {
              disconnect.reset();
              setAsking('disconnect');
            }}
            disabled={isImporting}
            data-testid="lock-account-disconnect"
          >
            <Unplug aria-hidden />
            {t('lockAccounts.disconnect')}
          </Button>
        )}
        {actions.remove && (
          <Button
            variant="outline"
            className="text-destructive hover:text-destructive"
            onClick={() => {
              remove.reset();
              setAsking('remove');
            }}
            data-testid="lock-account-remove"
          >
            <Trash2 aria-hidden />
            {t('lockAccounts.remove')}
          </Button>
        )}
      </CardFooter>

      <ConfirmDialog
        open={asking === 'disconnect'}
        onOpenChange={(open) => !open && setAsking(null)}
        title={t('lockAccounts.disconnectTitle', { username: account.username })}
        description={t(texts.disconnectText)}
        confirmLabel={t('lockAccounts.disconnect')}
        destructive
        pending={disconnect.isPending}
        onConfirm={() => disconnect.mutate({ accountId: account.id })}
        data-testid="lock-account-disconnect-dialog"
        confirmTestId="lock-account-disconnect-confirm"
      >
        <FormError error={disconnect.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'remove'}
        onOpenChange={(open) => !open && setAsking(null)}
        title={t('lockAccounts.removeTitle', { username: account.username })}
        description={t('lockAccounts.removeText', { number: formatNumber(account.locks.total) })}
        confirmLabel={t('lockAccounts.remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ accountId: account.id })}
        data-testid="lock-account-remove-dialog"
        confirmTestId="lock-account-remove-confirm"
      >
        <FormError error={remove.error} safeToRetry={false} />
      </ConfirmDialog>
    </Card>
  );
}

function Fact({ label, value, warn = false }: { label: string; value: string; warn?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className={cn('mt-0.5 font-medium tabular-nums', warn && 'text-destructive')}>{value}</dd>
    </div>
  );
}

function Notice({ tone, icon, children, testId }: { tone: 'warning' | 'muted'; icon?: ReactNode; children: ReactNode; testId: string }) {
  return (
    <div
      role="note"
      className={cn(
        'flex items-start gap-2 rounded-md border px-3 py-2 text-sm',
        tone === 'warning' ? 'border-amber-300 bg-amber-50 text-amber-900' : 'bg-muted/50 text-muted-foreground',
      )}
      data-testid={testId}
    >
      {icon ?? <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />}
      <div className="min-w-0">{children}</div>
    </div>
  );
}

/** "Get locks" under way (an indeterminate bar: the lock cloud does not say how many pages are left), then what it found. */
function ImportStatus({ state }: { state: ImportState | undefined }) {
  const { t } = useTranslation();
  return (
    <div aria-live="polite" data-testid="lock-account-import-status" data-state={state?.state}>
      {state?.state === 'running' && (
        <div className="grid gap-1.5">
          <p className="text-muted-foreground flex items-center gap-2 text-sm">
            <Spinner />
            {t('lockAccounts.importing')}
          </p>
          <div role="progressbar" aria-label={t('lockAccounts.importing')} className="bg-muted h-1.5 w-full overflow-hidden rounded-full">
            <div className="bg-primary/60 h-full w-full animate-pulse rounded-full motion-reduce:animate-none" />
          </div>
        </div>
      )}
      {state?.state === 'done' && <ImportSummary result={state.result} />}
      {state?.state === 'failed' && (
        <p role="alert" className="border-destructive/40 bg-destructive/5 text-destructive flex items-start gap-2 rounded-md border px-3 py-2 text-sm">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {appErrorOf(state.error)?.message ?? t('common.noAnswer')}
        </p>
      )}
    </div>
  );
}

/** What "get locks" found: how many locks the account holds, and what changed in the hotel's list. */
export function ImportSummary({ result }: { result: ImportResult }) {
  const { t } = useTranslation();
  const parts = importSummaryParts(result);
  return (
    <div className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-950" data-testid="lock-account-import-summary">
      <p className="font-medium">{t('lockAccounts.imported', { number: formatNumber(result.total) })}</p>
      {parts.length === 0 ? (
        <p>{t('lockAccounts.importedNothing')}</p>
      ) : (
        <ul className="mt-1 list-disc space-y-0.5 ps-5">
          {parts.map((part) => (
            <li key={part.key} data-testid={`lock-account-import-${part.key}`} data-number={part.number}>
              {t(`lockAccounts.importedParts.${part.key}`, { number: formatNumber(part.number) })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
