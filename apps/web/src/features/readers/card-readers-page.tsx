import { Suspense, lazy, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Fingerprint, Link2, Link2Off, Pencil, Plus, Usb } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage } from '@/components/list-page';
import { ActionsHead, DeleteAction, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { useMountedOnce } from '@/lib/lazy';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateReaders, readerQueries } from './api';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { DeskReaderPanel } from './desk-reader-panel';

export type RegisteredReader = RouterOutputs['reader']['list']['items'][number];

const RenameDialog = lazy(() => import('./rename-dialog').then((m) => ({ default: m.RenameDialog })));

/**
 * `/bindCardReaderToUser/cardReaderAndUserList` (spec §2, issue 8 §3): this computer's reader (its
 * type, a check), and the hotel's registered readers with the account each is bound to: rename,
 * bind to a user (the hidden bind page), unbind, delete. Binding the attached reader starts here.
 */
export function CardReadersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const canManage = hasPermission(user, 'hotel.manage');
  const canBind = hasPermission(user, 'credential.manage');
  const [attached, setAttached] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<RegisteredReader | null>(null);
  const [confirming, setConfirming] = useState<{ kind: 'unbind' | 'delete'; reader: RegisteredReader } | null>(null);
  const isRenameMounted = useMountedOnce(renaming !== null);
  const list = useQuery(readerQueries.readers());
  const items = list.data?.items ?? [];

  const done = (message: string) => {
    toast.success(message);
    setConfirming(null);
  };
  const invalidate = () => void invalidateReaders(queryClient);
  const unbind = useMutation(
    trpc.reader.unbind.mutationOptions({ meta: { showsErrors: true }, onSuccess: () => done(t('deskReaders.unbound')), onSettled: invalidate }),
  );
  const remove = useMutation(
    trpc.reader.delete.mutationOptions({ meta: { showsErrors: true }, onSuccess: () => done(t('common.deleted')), onSettled: invalidate }),
  );
  const pending = unbind.isPending || remove.isPending;
  const confirmError = confirming?.kind === 'unbind' ? unbind.error : remove.error;

  const bindAttached = canBind && (
    <Button asChild data-testid="bind-attached">
      <Link to="/bindCardReaderToUser/bindCardReaderToUser">
        <Plus aria-hidden />
        {t('deskReaders.bindAttached')}
      </Link>
    </Button>
  );

  return (
    <>
      <div className="flex flex-col gap-4">
        <DeskReaderPanel onFound={(info) => setAttached(info.deviceId)}>
          {(info) => {
            const registered = items.find((r) => r.deviceId === info.deviceId);
            return (
              <p className="text-muted-foreground text-sm" data-testid="reader-registration">
                {registered
                  ? registered.boundAccount
                    ? t('deskReaders.attachedBoundTo', { name: registered.boundAccount.nickname })
                    : t('deskReaders.attachedNotBound')
                  : t('deskReaders.attachedNotRegistered')}
              </p>
            );
          }}
        </DeskReaderPanel>
        <ListPage
          title={t('route.cardReaders')}
          actions={
            <>
              <Button asChild variant="outline" data-testid="finger-test-link">
                <Link to="/center/personalCenter/cardSenderFingerTest">
                  <Fingerprint aria-hidden />
                  {t('route.fingerTest')}
                </Link>
              </Button>
              {bindAttached}
            </>
          }
          query={list}
          what={t('deskReaders.listWhat')}
          toolbarEnd={<RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />}
          isEmpty={items.length === 0}
          empty={
            <EmptyState
              icon={Usb}
              title={t('deskReaders.emptyTitle')}
              description={t('deskReaders.emptyText')}
              action={bindAttached}
              data-testid="readers-empty"
            />
          }
          data-testid="card-readers"
        >
          <ListTable
            data-testid="readers-table"
            head={
              <>
                <TableHead>{t('deskReaders.deviceId')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('deskReaders.serial')}</TableHead>
                <TableHead>{t('deskReaders.name')}</TableHead>
                <TableHead className="hidden lg:table-cell">{t('deskReaders.type')}</TableHead>
                <TableHead>{t('deskReaders.boundAccount')}</TableHead>
                <ActionsHead />
              </>
            }
          >
            {items.map((reader) => {
              const isMine = reader.boundAccount?.id === user?.id;
              const mayUnbind = reader.boundAccount !== null && (canManage || (isMine && canBind));
              const mayBind = canManage || (canBind && reader.boundAccount === null);
              return (
                <TableRow key={reader.id} data-testid={`reader-row-${reader.deviceId}`} data-attached={attached === reader.deviceId || undefined}>
                  <TableCell className="font-mono text-xs break-all" dir="ltr">
                    <span className="flex flex-wrap items-center gap-2">
                      {reader.deviceId}
                      {attached === reader.deviceId && <Badge variant="secondary">{t('deskReaders.thisComputerShort')}</Badge>}
                    </span>
                  </TableCell>
                  <TableCell className="hidden font-mono text-xs md:table-cell" dir="ltr">
                    {reader.serial || '—'}
                  </TableCell>
                  <TableCell className="max-w-48 truncate" dir="auto" title={reader.name}>
                    {reader.name || <span className="text-muted-foreground">—</span>}
                  </TableCell>
                  <TableCell className="hidden lg:table-cell">{t(`deskReaders.typeShort${reader.readerType}`)}</TableCell>
                  <TableCell data-testid={`reader-bound-${reader.deviceId}`}>
                    {reader.boundAccount ? (
                      <span className="flex flex-col">
                        <span dir="auto">{reader.boundAccount.nickname}</span>
                        {reader.boundAccount.mobile && (
                          <span className="text-muted-foreground text-xs tabular-nums" dir="ltr">
                            {reader.boundAccount.mobile}
                          </span>
                        )}
                      </span>
                    ) : (
                      <span className="text-muted-foreground">{t('deskReaders.notBound')}</span>
                    )}
                  </TableCell>
                  <RowActions>
                    {canManage && (
                      <IconAction label={t('deskReaders.rename')} onClick={() => setRenaming(reader)} testId={`reader-rename-${reader.deviceId}`}>
                        <Pencil aria-hidden />
                      </IconAction>
                    )}
                    {mayBind && (
                      <IconAction
                        label={t('deskReaders.bindToUser')}
                        onClick={() => void navigate({ to: '/bindCardReaderToUser/bindCardReaderToUser', search: { id: reader.id } })}
                        testId={`reader-bind-${reader.deviceId}`}
                      >
                        <Link2 aria-hidden />
                      </IconAction>
                    )}
                    {mayUnbind && (
                      <IconAction
                        label={t('deskReaders.unbind')}
                        onClick={() => {
                          unbind.reset();
                          setConfirming({ kind: 'unbind', reader });
                        }}
                        testId={`reader-unbind-${reader.deviceId}`}
                      >
                        <Link2Off aria-hidden />
                      </IconAction>
                    )}
                    {canManage && (
                      <DeleteAction
                        onClick={() => {
                          remove.reset();
                          setConfirming({ kind: 'delete', reader });
                        }}
                        testId={`reader-delete-${reader.deviceId}`}
                      />
                    )}
                  </RowActions>
                </TableRow>
              );
            })}
          </ListTable>
        </ListPage>
      </div>

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        title={confirming?.kind === 'unbind' ? t('deskReaders.unbindTitle') : t('deskReaders.deleteTitle')}
        description={
          confirming
            ? t(confirming.kind === 'unbind' ? 'deskReaders.unbindText' : 'deskReaders.deleteText', {
                reader: confirming.reader.name || confirming.reader.deviceId,
                name: confirming.reader.boundAccount?.nickname ?? '',
              })
            : ''
        }
        confirmLabel={confirming?.kind === 'unbind' ? t('deskReaders.unbind') : t('common.delete')}
        destructive={confirming?.kind === 'delete'}
        pending={pending}
        onConfirm={() => {
          if (!confirming) return;
          if (confirming.kind === 'unbind') unbind.mutate({ id: confirming.reader.id });
          else remove.mutate({ id: confirming.reader.id });
        }}
        data-testid="reader-confirm-dialog"
        confirmTestId="reader-confirm"
      >
        <FormError error={confirmError} safeToRetry={confirming?.kind === 'unbind'} />
      </ConfirmDialog>
      {isRenameMounted && (
        <Suspense fallback={null}>
          <RenameDialog kind="reader" item={renaming} onClose={() => setRenaming(null)} />
        </Suspense>
      )}
    </>
  );
}
