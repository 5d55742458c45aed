import { Suspense, lazy, useState } from 'react';
import { Ban, CalendarClock, History, KeyRound, LifeBuoy, Plus, RefreshCcwDot, RotateCcw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CredentialSection, SECTION_PAGE_SIZE, useRevokeRetry, useSectionList } from '@/components/credential-section';
import { DeliveryStatus, ValidityRange } from '@/components/delivery-state-badge';
import { ExportButton } from '@/components/export-button';
import { IconAction } from '@/components/icon-action';
import { ActionsHead, ListTable, RowActions } from '@/components/list-table';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { canRetry, canRevoke, type PasswordDto } from '@/lib/credentials';
import { useMountedOnce, usePrefetchWhenIdle } from '@/lib/lazy';
import { trpc } from '@/lib/trpc';
import { credentialQueries, passwordsKey } from './api';
import type { StayForPassword } from './issue-password-form';
import { PasswordCode } from './password-code';
import { LockCannotTake, lockTakes, type LockTakes } from '@/components/lock-cannot-take';

/** The "Issue password" dialog (a form with zod) is a chunk of its own, loaded when the page is idle. */
const loadIssueDialog = () => import('./issue-password-dialog');
const IssuePasswordDialog = lazy(() => loadIssueDialog().then((m) => ({ default: m.IssuePasswordDialog })));

export interface CredentialsTabProps {
  room: { id: number; name: string; lockId: string | null; takes?: LockTakes | null };
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
  const [isIssueOpen, setIsIssueOpen] = useState(false);
  usePrefetchWhenIdle(loadIssueDialog);
  const isIssueMounted = useMountedOnce(isIssueOpen);

  const list = useSectionList((input) => credentialQueries.list(room.id, input));
  const { revoking, askRevoke, revokeDialog, retry } = useRevokeRetry({
    revokeOptions: trpc.password.revoke.mutationOptions,
    retryOptions: trpc.password.retry.mutationOptions,
    revokeInput: (password: PasswordDto) => ({ id: password.id }),
    pathKey: passwordsKey(),
    revokedMessage: t('credentials.revoked'),
  });

  const items = list.query.data?.items ?? [];
  const exportButton = (
    <ExportButton
      list="passwords"
      filters={{ roomId: room.id, scope: list.scope }}
      page={list.page}
      pageSize={SECTION_PAGE_SIZE}
      total={list.total}
      what={t('credentials.exportWhat', { room: room.name })}
    />
  );
  // A lock without a keypad takes no code: why, in place of "issue" (issue 38).
  const issueButton = !lockTakes(room.takes ?? null, 'codes') ? (
    <LockCannotTake what="codes" roomName={room.name} />
  ) : (
    canManage && (
      <Button onClick={() => setIsIssueOpen(true)} data-testid="issue-password">
        <Plus aria-hidden />
        {t('credentials.issue')}
      </Button>
    )
  );

  return (
    <CredentialSection
      list={list}
      title={t('frontDesk.detail.tabs.credentials')}
      titleHidden
      icon={KeyRound}
      scopeLabel={t('credentials.scopeLabel')}
      scopeTestIdPrefix="credentials"
      action={
        <>
          {exportButton}
          {issueButton}
        </>
      }
      beforeList={
        !room.lockId && (
          <p
            className="m-3 mb-0 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
            role="note"
            data-testid="credentials-no-lock"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('credentials.noLock')}
          </p>
        )
      }
      what={t('credentials.loadWhat')}
      skeletonRows={4}
      empty={{
        active: (
          <EmptyState
            icon={KeyRound}
            title={t('credentials.emptyActiveTitle')}
            description={t('credentials.emptyActiveText')}
            action={issueButton}
            data-testid="credentials-empty"
          />
        ),
        history: (
          <EmptyState
            icon={History}
            title={t('credentials.emptyHistoryTitle')}
            description={t('credentials.emptyHistoryText')}
            data-testid="credentials-empty"
          />
        ),
      }}
      table={
        <ListTable
          data-testid="password-table"
          aria-label={t('credentials.tableLabel', { room: room.name })}
          head={
            <>
              <TableHead>{t('credentials.columns.holder')}</TableHead>
              <TableHead>{t('credentials.columns.kind')}</TableHead>
              <TableHead>{t('credentials.columns.code')}</TableHead>
              <TableHead>{t('credentials.columns.validity')}</TableHead>
              <TableHead>{t('credentials.columns.state')}</TableHead>
              {canManage && <ActionsHead />}
            </>
          }
        >
          {items.map((password) => (
            <PasswordRow
              key={password.id}
              password={password}
              timeZone={timeZone}
              canManage={canManage}
              isRetrying={retry.isPending && retry.variables?.id === password.id}
              onRetry={() => retry.mutate({ id: password.id })}
              onRevoke={() => askRevoke(password)}
            />
          ))}
        </ListTable>
      }
      dialogs={
        <>
          <ConfirmDialog
            {...revokeDialog}
            title={t('credentials.revokeTitle')}
            description={revoking ? t('credentials.revokeText', { holder: revoking.holderName, room: room.name }) : ''}
            confirmLabel={t('credentials.revoke')}
            data-testid="revoke-password-dialog"
            confirmTestId="revoke-password-confirm"
          />
          {isIssueMounted && (
            <Suspense fallback={null}>
              <IssuePasswordDialog open={isIssueOpen} onOpenChange={setIsIssueOpen} room={room} stay={stay} timeZone={timeZone} />
            </Suspense>
          )}
        </>
      }
      data-testid="credentials-tab"
      data-scope={list.scope}
    />
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
          {password.stayId !== null
            ? t('credentials.holderStay', { id: password.stayId })
            : password.accountId !== null
              ? t('credentials.holderStaff')
              : t('credentials.holderStandalone')}
        </div>
      </TableCell>
      <TableCell className="whitespace-nowrap">{t(`credentials.kinds.${password.kind}`)}</TableCell>
      <TableCell className="whitespace-nowrap">
        <PasswordCode id={id} code={password.code} state={state} />
        {password.replacesId !== null && (
          <span
            className="mt-1 flex max-w-52 items-start gap-1 text-xs font-medium whitespace-normal text-amber-800"
            data-testid={`password-${id}-replaces`}
            data-replaces={password.replacesId}
          >
            <RefreshCcwDot className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            {t('credentials.replacesNote')}
          </span>
        )}
        {password.backupCode && (
          <span className="mt-1 flex max-w-52 items-start gap-1 text-xs font-medium whitespace-normal text-amber-800" data-testid={`password-${id}-backup`}>
            <LifeBuoy className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            {t('credentials.backupCode')}
          </span>
        )}
      </TableCell>
      <TableCell className="text-sm whitespace-nowrap tabular-nums">
        <ValidityRange from={password.validFrom} until={password.validUntil} timeZone={timeZone} />
        {password.validityAdjusted && (
          <span className="text-muted-foreground mt-1 flex max-w-60 items-start gap-1 text-xs whitespace-normal" data-testid={`password-${id}-adjusted`}>
            <CalendarClock className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            {t('credentials.validityAdjusted')}
          </span>
        )}
      </TableCell>
      <TableCell className="max-w-72">
        <DeliveryStatus
          state={state}
          setting={password.setting}
          lastError={password.lastError}
          revokeReason={password.revokeReason}
          errorTestId={`password-${id}-error`}
        />
      </TableCell>
      {canManage && (
        <RowActions>
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
        </RowActions>
      )}
    </TableRow>
  );
}
