import { Suspense, lazy, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BookOpen, Cloud, FlaskConical, Plug, Plus, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type * as shared from '@console/shared';
import { FormError } from '@/components/form-error';
import { PageHeader } from '@/components/list-page';
import { LoadError, failedQuery } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useMountedOnce, usePrefetchWhenIdle } from '@/lib/lazy';
import { toast } from '@/lib/toast';
import { trpc, trpcClient } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';
import { invalidateLockAccountList, invalidateLocksAndRooms, lockAccountQueries } from './api';
import { AccountCard, type ImportState } from './account-card';
import { HotelLocks } from './hotel-locks';
import { SharedDoorEditor } from '@/components/shared-doors/shared-door-editor';
import type { LockAccount, LockAccountsData } from './lock-accounts';
import type { SeamDialogState } from './seam-connect-dialog';

/** The forms (with zod) are a chunk of their own, loaded when the page is idle. */
const loadDialogs = () => import('./account-dialogs');
const ConnectAccountDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ConnectAccountDialog })));
const ReconnectAccountDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ReconnectAccountDialog })));
const BudgetDialog = lazy(() => loadDialogs().then((m) => ({ default: m.BudgetDialog })));
const loadSeamDialog = () => import('./seam-connect-dialog');
const SeamConnectDialog = lazy(() => loadSeamDialog().then((m) => ({ default: m.SeamConnectDialog })));
const SeamLinkDialog = lazy(() => import('./seam-link-dialog').then((m) => ({ default: m.SeamLinkDialog })));

/** Byte orders of card numbers (packages/shared CARD_NUMBER_ORDERS). */
const CARD_NUMBER_ORDERS = ['same', 'reversed'] as const satisfies typeof shared.CARD_NUMBER_ORDERS;
type CardNumberOrder = (typeof CARD_NUMBER_ORDERS)[number];

/**
 * `/lockAccounts` (issue 16 §2): the install's lock cloud (simulated or TTLock, and its region; or
 * what the administrator must set when there is none), the hotel's TTLock accounts and Seam
 * workspaces (connect, get locks, reconnect: a Seam workspace with a new API key, disconnect,
 * remove, monthly call budget), how the hotel's desk reader gives
 * card numbers, and the hotel's locks with their rooms. For owners and administrators (lock.accounts).
 */
export function LockAccountsPage() {
  const { t } = useTranslation();
  const accounts = useQuery(lockAccountQueries.accounts());

  if (!accounts.data) {
    return (
      <div className="space-y-4" data-testid="lock-accounts-page" aria-busy={accounts.isLoading}>
        <PageHeader title={t('lockAccounts.title')} />
        {accounts.isLoading ? (
          <>
            <Skeleton className="h-28 w-full" />
            <Skeleton className="h-64 w-full" />
          </>
        ) : (
          <Card className="p-0">
            <LoadError query={failedQuery(accounts)} what={t('lockAccounts.what')} />
          </Card>
        )}
      </div>
    );
  }
  return <LockAccountsView data={accounts.data} query={accounts} />;
}

function LockAccountsView({ data, query }: { data: LockAccountsData; query: Parameters<typeof failedQuery>[0] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const canPair = hasPermission(useUserInfo(), 'room.manage');
  const [isConnectOpen, setIsConnectOpen] = useState(false);
  const [seamDialog, setSeamDialog] = useState<SeamDialogState>(null);
  const [reconnecting, setReconnecting] = useState<LockAccount | null>(null);
  const [budgeting, setBudgeting] = useState<LockAccount | null>(null);
  const [linking, setLinking] = useState<LockAccount | null>(null);
  const [imports, setImports] = useState<Record<number, ImportState>>({});
  usePrefetchWhenIdle(loadDialogs);
  usePrefetchWhenIdle(loadSeamDialog);
  const isDialogMounted = useMountedOnce(isConnectOpen || seamDialog !== null || reconnecting !== null || budgeting !== null || linking !== null);
  const isConfigured = data.configured;

  /** "Get locks" of an account: its card shows the progress, then what changed (also in a toast). */
  const runImport = async (account: { id: number; username: string }) => {
    setImports((all) => ({ ...all, [account.id]: { state: 'running' } }));
    try {
      const result = await trpcClient.lockAccount.importLocks.mutate({ accountId: account.id });
      setImports((all) => ({ ...all, [account.id]: { state: 'done', result } }));
      toast.success(t('lockAccounts.importedToast', { username: account.username, number: formatNumber(result.total) }));
    } catch (error) {
      setImports((all) => ({ ...all, [account.id]: { state: 'failed', error } }));
    } finally {
      invalidateLocksAndRooms(queryClient);
    }
  };

  /** Connect a TTLock account (where the install has TTLock), and beside it a Seam workspace. */
  const connectButtons = (testId: string) => (
    <>
      {data.ttlock && (
        <Button onClick={() => setIsConnectOpen(true)} data-testid={testId}>
          <Plus aria-hidden />
          {t('lockAccounts.connect')}
        </Button>
      )}
      <Button variant={data.ttlock ? 'outline' : 'default'} onClick={() => setSeamDialog({ account: null })} data-testid={`${testId}-seam`}>
        <Plus aria-hidden />
        {t('lockAccounts.seam.connect')}
      </Button>
    </>
  );

  return (
    <div className="space-y-6" data-testid="lock-accounts-page">
      <PageHeader
        title={t('lockAccounts.title')}
        isBusy={query.isFetching}
        actions={isConfigured && data.items.length > 0 ? connectButtons('lock-accounts-connect') : undefined}
      />
      <LoadError query={failedQuery(query)} what={t('lockAccounts.what')} />
      <CloudCard data={data} />

      {isConfigured && (
        <>
          <section className="space-y-3" aria-labelledby="lock-accounts-heading" data-testid="lock-accounts-list">
            <h2 id="lock-accounts-heading" className="text-lg font-semibold">
              {t('lockAccounts.accountsTitle')}
            </h2>
            {data.items.length === 0 ? (
              <Card className="p-0">
                <EmptyState
                  icon={Plug}
                  title={t('lockAccounts.emptyTitle')}
                  description={t('lockAccounts.emptyText')}
                  action={<div className="flex flex-wrap justify-center gap-2">{connectButtons('lock-accounts-connect-empty')}</div>}
                  data-testid="lock-accounts-empty"
                />
              </Card>
            ) : (
              <div className="grid gap-4 lg:grid-cols-2">
                {data.items.map((account) => (
                  <AccountCard
                    key={account.id}
                    account={account}
                    timeZone={timeZone}
                    importState={imports[account.id]}
                    onImport={() => void runImport(account)}
                    onReconnect={() => (account.kind === 'seam' ? setSeamDialog({ account }) : setReconnecting(account))}
                    onBudget={() => setBudgeting(account)}
                    onLink={() => setLinking(account)}
                  />
                ))}
              </div>
            )}
          </section>
          <CardNumberOrderCard key={data.cardNumberOrder} current={data.cardNumberOrder === 'reversed' ? 'reversed' : 'same'} />
          {data.items.length > 0 && <HotelLocks accounts={data.items} canPair={canPair} />}
          {data.items.length > 0 && <SharedDoorEditor />}
        </>
      )}

      {isDialogMounted && (
        <Suspense fallback={null}>
          <ConnectAccountDialog open={isConnectOpen} onOpenChange={setIsConnectOpen} onConnected={(account) => void runImport(account)} />
          <SeamConnectDialog state={seamDialog} onClose={() => setSeamDialog(null)} onConnected={(account) => void runImport(account)} />
          <ReconnectAccountDialog account={reconnecting} onClose={() => setReconnecting(null)} />
          <BudgetDialog account={budgeting} onClose={() => setBudgeting(null)} />
          <SeamLinkDialog account={linking} onClose={() => setLinking(null)} onLinked={(account) => void runImport(account)} />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The install's lock cloud: simulated locks or TTLock and its region, and where to read how an
 * account is connected. Without one, what the server's administrator must set: nothing else works.
 */
function CloudCard({ data }: { data: LockAccountsData }) {
  const { t } = useTranslation();
  if (!data.configured) {
    return (
      <Card className="border-amber-300" data-testid="lock-cloud" data-configured="false">
        <CardHeader>
          <h2 className="flex items-center gap-2 font-semibold">
            <TriangleAlert className="size-4 text-amber-700" aria-hidden />
            {t('lockAccounts.cloud.noneTitle')}
          </h2>
          <CardDescription>{t('lockAccounts.cloud.noneText')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <pre className="bg-muted overflow-x-auto rounded-md p-3 text-xs leading-relaxed" dir="ltr" data-testid="lock-cloud-settings">
            {'LOCK_PROVIDER=ttlock\nTTLOCK_CLIENT_ID=…\nTTLOCK_CLIENT_SECRET=…\nTTLOCK_REGION=eu | cn\n\n# Seam workspaces only\nLOCK_PROVIDER=seam'}
          </pre>
          <HowTo />
        </CardContent>
      </Card>
    );
  }
  return (
    <Card className="gap-3" data-testid="lock-cloud" data-configured="true" data-simulated={data.simulated}>
      <CardHeader>
        <h2 className="flex flex-wrap items-center gap-2 font-semibold">
          <Cloud className="size-4" aria-hidden />
          {t('lockAccounts.cloud.title')}
        </h2>
      </CardHeader>
      <CardContent className="space-y-3">
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground text-xs">{t('lockAccounts.cloud.provider')}</dt>
            <dd className="mt-0.5 flex flex-wrap items-center gap-2 font-medium" data-testid="lock-cloud-provider">
              {data.simulated ? (
                <Badge variant="warning">
                  <FlaskConical aria-hidden />
                  {t('lockAccounts.cloud.simulated')}
                </Badge>
              ) : data.ttlock ? (
                t('lockAccounts.cloud.ttlock')
              ) : (
                t('lockAccounts.cloud.seam')
              )}
            </dd>
          </div>
          {data.ttlock && (
            <div>
              <dt className="text-muted-foreground text-xs">{t('lockAccounts.cloud.region')}</dt>
              <dd className="mt-0.5 font-medium" data-testid="lock-cloud-region" data-region={data.region}>
                {data.region === 'eu' || data.region === 'cn' ? t(`lockAccounts.regions.${data.region}`) : data.region}
              </dd>
            </div>
          )}
        </dl>
        {data.simulated && <p className="text-muted-foreground text-sm">{t('lockAccounts.cloud.simulatedHint')}</p>}
        {!data.ttlock && (
          <p className="text-muted-foreground text-sm" data-testid="lock-cloud-seam-only">
            {t('lockAccounts.cloud.seamOnlyHint')}
          </p>
        )}
        <HowTo />
      </CardContent>
    </Card>
  );
}

/** Where the step-by-step guide is (the README links it). */
function HowTo() {
  const { t } = useTranslation();
  return (
    <p className="text-muted-foreground flex items-start gap-2 text-sm" data-testid="lock-accounts-how-to">
      <BookOpen className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>
        {t('lockAccounts.howTo')}{' '}
        <code className="bg-muted rounded px-1 py-0.5 text-xs" dir="ltr">
          docs/ttlock-account.md
        </code>
      </span>
    </p>
  );
}

/**
 * The hotel's card-number byte order: desk readers of some brands give a card's number in the
 * other byte order than the locks read it; "reversed" sends it to the locks the other way round.
 */
function CardNumberOrderCard({ current }: { current: CardNumberOrder }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [order, setOrder] = useState<CardNumberOrder>(current);
  const save = useMutation(
    trpc.lockAccount.setSettings.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('lockAccounts.cardOrder.saved'));
        void invalidateLockAccountList(queryClient);
      },
    }),
  );
  return (
    <Card className="gap-3" data-testid="card-number-order">
      <CardHeader>
        <h2 className="font-semibold" id="card-number-order-heading">
          {t('lockAccounts.cardOrder.title')}
        </h2>
        <CardDescription id="card-number-order-text">{t('lockAccounts.cardOrder.text')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (!save.isPending) save.mutate({ cardNumberOrder: order });
          }}
        >
          <fieldset className="flex flex-wrap gap-2" aria-labelledby="card-number-order-heading" aria-describedby="card-number-order-text">
            {CARD_NUMBER_ORDERS.map((value) => (
              <label
                key={value}
                className={cn(
                  'has-focus-visible:ring-ring flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-focus-visible:ring-2',
                  order === value ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
                )}
              >
                <input
                  type="radio"
                  name="card-number-order"
                  value={value}
                  checked={order === value}
                  onChange={() => setOrder(value)}
                  className="accent-primary size-4"
                  data-testid={`card-number-order-${value}`}
                />
                {t(`lockAccounts.cardOrder.${value}`)}
              </label>
            ))}
          </fieldset>
          <Button type="submit" variant="outline" disabled={order === current || save.isPending} data-testid="card-number-order-save">
            {save.isPending && <Spinner />}
            {t('lockAccounts.cardOrder.save')}
          </Button>
        </form>
        <FormError error={save.error} className="mt-3" />
      </CardContent>
    </Card>
  );
}
