import { Suspense, lazy, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, History, KeyRound, Plus, RotateCcw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DeliveryStatus, ValidityRange } from '@/components/delivery-state-badge';
import { IconAction } from '@/components/icon-action';
import { ListPagination } from '@/components/list-pagination';
import { LoadError, failedQuery } from '@/components/load-error';
import { RefreshButton } from '@/components/refresh-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { canRetry, canRevoke, refetchWhileInFlight, type PasswordDto } from '@/lib/credentials';
import { useMountedOnce, usePrefetchWhenIdle } from '@/lib/lazy';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { StayForPassword } from './issue-password-form';
import { PasswordCode } from './password-code';

const PAGE_SIZE = 10;
type Scope = 'active' | 'history';

/** The "Issue password" dialog (a form with zod) is a chunk of its own, loaded when the page is idle. */
const loadIssueDialog = () => import('./issue-password-dialog');
const IssuePasswordDialog = lazy(() => loadIssueDialog().then((m) => ({ default: m.IssuePasswordDialog })));

export interface CredentialsTabProps {
  room: { id: number; name: string; lockId: string | null };
  /** The room's current stay: a password can be issued for its guest. */
  stay: StayForPassword | null;
  timeZone: string;
  /** May issue, revoke and retry (`credential.manage`). */
  canManage: boolean;
}

/**
 * The room page's Credentials tab: every lock password of the room, active or past, with its
 * holder, type, digits (hidden until asked for), validity and where it stands with the lock. A
 * password is active only once the lock confirmed it; while one is being sent or removed the list
 * asks again every 1.5 s, so progress shows without a reload. Failures say why, in words, and can
 * be tried again; revoking asks first.
 */
export function CredentialsTab({ room, stay, timeZone, canManage }: CredentialsTabProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<Scope>('active');
  const [page, setPage] = useState(1);
  const [isIssueOpen, setIsIssueOpen] = useState(false);
  const [revoking, setRevoking] = useState<PasswordDto | null>(null);
  usePrefetchWhenIdle(loadIssueDialog);
  const isIssueMounted = useMountedOnce(isIssueOpen);

  const list = useQuery(
    trpc.password.list.queryOptions(
      { roomId: room.id, scope, page, pageSize: PAGE_SIZE },
      { placeholderData: keepPreviousData, refetchInterval: refetchWhileInFlight, meta: { showsErrors: true } },
    ),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.password.pathKey() });

  const revoke = useMutation(
    trpc.password.revoke.mutationOptions({
      onSuccess: () => {
        setRevoking(null);
        toast.success(t('credentials.revoked'));
        void refresh();
      },
    }),
  );
  const retry = useMutation(
    trpc.password.retry.mutationOptions({
      onSuccess: () => {
        toast.success(t('credentials.retried'));
        void refresh();
      },
      onError: () => void refresh(),
    }),
  );

  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];
  // The last row of the last page gone (revoked, expired): show the page before, not an empty one.
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (list.data && !list.isPlaceholderData && page > lastPage) setPage(lastPage);
  const issueButton = canManage && (
    <Button onClick={() => setIsIssueOpen(true)} data-testid="issue-password">
      <Plus aria-hidden />
      {t('credentials.issue')}
    </Button>
  );

  return (
    <Card className="gap-0 p-0" data-testid="credentials-tab" data-scope={scope}>
      <div className="flex flex-wrap items-center gap-3 border-b p-3">
        <h2 className="sr-only">{t('frontDesk.detail.tabs.credentials')}</h2>
        <ToggleGroup
          type="single"
          value={scope}
          onValueChange={(value) => {
            if (!value) return;
            setScope(value as Scope);
            setPage(1);
          }}
          aria-label={t('credentials.scopeLabel')}
        >
          <ToggleGroupItem value="active" data-testid="credentials-scope-active">
            <KeyRound aria-hidden />
            {t('credentials.scopes.active')}
          </ToggleGroupItem>
          <ToggleGroupItem value="history" data-testid="credentials-scope-history">
            <History aria-hidden />
            {t('credentials.scopes.history')}
          </ToggleGroupItem>
        </ToggleGroup>
        <div className="ms-auto flex items-center gap-2">
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} size="icon-sm" />
          {issueButton}
        </div>
      </div>

      {!room.lockId && (
        <p className="m-3 mb-0 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" role="note" data-testid="credentials-no-lock">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t('credentials.noLock')}
        </p>
      )}

      {list.isError && !list.data ? (
        <LoadError query={failedQuery(list)} what={t('credentials.loadWhat')} />
      ) : list.isLoading ? (
        <SkeletonRows rows={4} label={t('common.loading')} />
      ) : total === 0 ? (
        <EmptyState
          icon={scope === 'active' ? KeyRound : History}
          title={t(scope === 'active' ? 'credentials.emptyActiveTitle' : 'credentials.emptyHistoryTitle')}
          description={t(scope === 'active' ? 'credentials.emptyActiveText' : 'credentials.emptyHistoryText')}
          action={scope === 'active' ? issueButton : undefined}
          data-testid="credentials-empty"
        />
      ) : (
        <>
          {list.isError && <LoadError query={failedQuery(list)} what={t('credentials.loadWhat')} className="m-3" />}
          <Table data-testid="password-table" aria-label={t('credentials.tableLabel', { room: room.name })}>
            <TableHeader>
              <TableRow>
                <TableHead>{t('credentials.columns.holder')}</TableHead>
                <TableHead>{t('credentials.columns.kind')}</TableHead>
                <TableHead>{t('credentials.columns.code')}</TableHead>
                <TableHead>{t('credentials.columns.validity')}</TableHead>
                <TableHead>{t('credentials.columns.state')}</TableHead>
                {canManage && <TableHead className="text-end">{t('common.actions')}</TableHead>}
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((password) => (
                <PasswordRow
                  key={password.id}
                  password={password}
                  timeZone={timeZone}
                  canManage={canManage}
                  isRetrying={retry.isPending && retry.variables?.id === password.id}
                  onRetry={() => retry.mutate({ id: password.id })}
                  onRevoke={() => setRevoking(password)}
                />
              ))}
            </TableBody>
          </Table>
        </>
      )}

      {total > PAGE_SIZE && (
        <div className="border-t p-3">
          <ListPagination page={page} pageSize={PAGE_SIZE} total={total} onPageChange={setPage} />
        </div>
      )}

      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={t('credentials.revokeTitle')}
        description={revoking ? t('credentials.revokeText', { holder: revoking.holderName, room: room.name }) : ''}
        confirmLabel={t('credentials.revoke')}
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        data-testid="revoke-password-dialog"
        confirmTestId="revoke-password-confirm"
      />
      {isIssueMounted && (
        <Suspense fallback={null}>
          <IssuePasswordDialog open={isIssueOpen} onOpenChange={setIsIssueOpen} room={room} stay={stay} timeZone={timeZone} />
        </Suspense>
      )}
    </Card>
  );
}

function PasswordRow({
  password,
  timeZone,
  canManage,
  isRetrying,
  onRetry,
  onRevoke,
}: {
  password: PasswordDto;
  timeZone: string;
  canManage: boolean;
  isRetrying: boolean;
  onRetry(): void;
  onRevoke(): void;
}) {
  const { t } = useTranslation();
  const { id, deliveryState: state } = password;
  return (
    <TableRow data-testid={`password-row-${id}`} data-state={state} data-kind={password.kind}>
      <TableCell className="max-w-56">
        <div className="truncate font-medium" title={password.holderName}>
          {password.holderName || '—'}
        </div>
        <div className="text-muted-foreground text-xs">
          {password.stayId !== null ? t('credentials.holderStay', { id: password.stayId }) : password.accountId !== null ? t('credentials.holderStaff') : t('credentials.holderStandalone')}
        </div>
      </TableCell>
      <TableCell className="whitespace-nowrap">{t(`credentials.kinds.${password.kind}`)}</TableCell>
      <TableCell className="whitespace-nowrap">
        <PasswordCode id={id} code={password.code} state={state} />
      </TableCell>
      <TableCell className="text-sm whitespace-nowrap tabular-nums">
        <ValidityRange from={password.validFrom} until={password.validUntil} timeZone={timeZone} />
      </TableCell>
      <TableCell className="max-w-72">
        <DeliveryStatus state={state} lastError={password.lastError} revokeReason={password.revokeReason} errorTestId={`password-${id}-error`} />
      </TableCell>
      {canManage && (
        <TableCell className="text-end whitespace-nowrap">
          <div className="inline-flex gap-1">
            {canRetry(state) && (
              <IconAction label={t('credentials.retry')} onClick={onRetry} testId={`password-${id}-retry`}>
                <RotateCcw className={isRetrying ? 'animate-spin' : undefined} aria-hidden />
              </IconAction>
            )}
            {canRevoke(state) && (
              <IconAction label={t('credentials.revoke')} onClick={onRevoke} testId={`password-${id}-revoke`} destructive>
                <Ban aria-hidden />
              </IconAction>
            )}
          </div>
        </TableCell>
      )}
    </TableRow>
  );
}
