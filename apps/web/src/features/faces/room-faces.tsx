import { Suspense, lazy, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { History, Pencil, Plus, RotateCcw, ScanFace } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { CredentialSection, useRevokeRetry, useSectionList } from '@/components/credential-section';
import { DeliveryStatus, ValidityRange } from '@/components/delivery-state-badge';
import { IconAction } from '@/components/icon-action';
import { ActionsHead, DeleteAction, ListTable, RowActions } from '@/components/list-table';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { canRetry, canRevoke } from '@/lib/credentials';
import { useMountedOnce, usePrefetchWhenIdle } from '@/lib/lazy';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { faceQueries, facesKey } from './api';
import { AuthorizationNoteDialog } from './authorization-note-dialog';
import { LockCannotTake, lockTakes, type LockTakes } from '@/components/lock-cannot-take';

type Authorization = RouterOutputs['face']['authorizations']['items'][number];

const loadAuthorizeDialog = () => import('./authorize-face-dialog');
const AuthorizeFaceDialog = lazy(() => loadAuthorizeDialog().then((m) => ({ default: m.AuthorizeFaceDialog })));

export interface RoomFacesProps {
  room: { id: number; name: string; lockId: string | null; takes?: LockTakes | null };
  /** The room's current stay: a face can be authorised for it. */
  stay: { id: number; expectedCheckOutAt: string } | null;
  timeZone: string;
  canManage: boolean;
}

/**
 * Faces authorised on the room's lock (under the Credentials tab): who, from the face database,
 * for how long, and where it stands with the lock; or, under History, the ones taken off (and why)
 * or ended. While one is being sent or taken off the list asks again every 1.5 s; failures say why
 * and can be tried again; an authorisation's note can be edited; deleting asks first.
 */
export function RoomFaces({ room, stay, timeZone, canManage }: RoomFacesProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Authorization | null>(null);
  const [isAuthorizeOpen, setIsAuthorizeOpen] = useState(false);
  usePrefetchWhenIdle(loadAuthorizeDialog);
  const isDialogMounted = useMountedOnce(isAuthorizeOpen);

  const list = useSectionList((input) => faceQueries.authorizations(room.id, input));
  const { revoking, askRevoke, revokeDialog, retry } = useRevokeRetry({
    revokeOptions: trpc.face.revokeAuthorization.mutationOptions,
    retryOptions: trpc.face.retryAuthorization.mutationOptions,
    revokeInput: (authorization: Authorization) => ({ authorizationId: authorization.id }),
    pathKey: facesKey(),
    revokedMessage: t('faces.revoked'),
  });

  const items = list.query.data?.items ?? [];
  const authorizeButton = canManage && (
    <Button variant="outline" onClick={() => setIsAuthorizeOpen(true)} data-testid="authorize-face">
      <Plus aria-hidden />
      {t('faces.authorizeButton')}
    </Button>
  );

  return (
    <CredentialSection
      list={list}
      title={t('faces.roomSection')}
      titleId="room-faces-heading"
      icon={ScanFace}
      scopeLabel={t('faces.scopeLabel')}
      scopeTestIdPrefix="faces"
      action={lockTakes(room.takes ?? null, 'faces') ? authorizeButton : <LockCannotTake what="faces" roomName={room.name} />}
      what={t('faces.authorizationsWhat')}
      skeletonRows={2}
      empty={{
        active: <EmptyState icon={ScanFace} title={t('faces.noAuthorizations')} description={t('faces.noAuthorizationsText')} data-testid="room-faces-empty" />,
        history: <EmptyState icon={History} title={t('faces.noHistory')} description={t('faces.noHistoryText')} data-testid="room-faces-history-empty" />,
      }}
      table={
        <ListTable
          data-testid="face-authorization-table"
          aria-labelledby="room-faces-heading"
          head={
            <>
              <TableHead>{t('credentials.columns.holder')}</TableHead>
              <TableHead>{t('credentials.columns.validity')}</TableHead>
              <TableHead>{t('credentials.columns.state')}</TableHead>
              <ActionsHead />
            </>
          }
        >
          {items.map((a) => (
            <AuthorizationRow
              key={a.id}
              authorization={a}
              timeZone={timeZone}
              canManage={canManage}
              isRetrying={retry.isPending && retry.variables?.authorizationId === a.id}
              onRetry={() => retry.mutate({ authorizationId: a.id })}
              onRevoke={() => askRevoke(a)}
              onEditNote={() => setEditing(a)}
            />
          ))}
        </ListTable>
      }
      dialogs={
        <>
          <ConfirmDialog
            {...revokeDialog}
            title={t('faces.revokeTitle')}
            description={revoking ? t('faces.revokeText', { face: revoking.face.note, room: room.name }) : ''}
            confirmLabel={t('common.delete')}
            data-testid="revoke-face-dialog"
            confirmTestId="revoke-face-confirm"
          />
          <AuthorizationNoteDialog authorization={editing} onClose={() => setEditing(null)} />
          {isDialogMounted && (
            <Suspense fallback={null}>
              <AuthorizeFaceDialog open={isAuthorizeOpen} onOpenChange={setIsAuthorizeOpen} room={room} stay={stay} timeZone={timeZone} />
            </Suspense>
          )}
        </>
      }
      data-testid="room-faces"
    />
  );
}

function AuthorizationRow({
  authorization: a,
  timeZone,
  canManage,
  isRetrying,
  onRetry,
  onRevoke,
  onEditNote,
}: {
  authorization: Authorization;
  timeZone: string;
  canManage: boolean;
  isRetrying: boolean;
  onRetry(): void;
  onRevoke(): void;
  onEditNote(): void;
}) {
  const { t } = useTranslation();
  const state = a.deliveryState;
  return (
    <TableRow data-testid={`face-authorization-${a.face.faceId}`} data-state={state}>
      <TableCell className="max-w-56">
        <div className="flex items-center gap-2">
          <img src={a.face.imageUrl} alt="" className="bg-muted size-8 shrink-0 rounded border object-cover" />
          <div className="min-w-0">
            <div className="truncate font-medium" title={a.face.note} dir="auto">
              {a.face.note}
            </div>
            <div className="text-muted-foreground truncate text-xs" dir="auto">
              {a.note || a.face.faceId}
              {a.stayId !== null && ` · ${t('credentials.holderStay', { id: a.stayId })}`}
            </div>
          </div>
        </div>
      </TableCell>
      <TableCell className="text-sm whitespace-nowrap tabular-nums">
        <ValidityRange from={a.validFrom} until={a.validUntil} timeZone={timeZone} />
      </TableCell>
      <TableCell className="max-w-72">
        <DeliveryStatus state={state} lastError={a.lastError} revokeReason={a.revokeReason} />
      </TableCell>
      <RowActions>
        <Button variant="ghost" size="icon" className="size-8" asChild>
          <Link
            to="/unlock-records"
            search={{ credential: `face:${a.id}` }}
            aria-label={t('faces.recordsOf', { face: a.face.note })}
            title={t('faces.recordsOf', { face: a.face.note })}
            data-testid={`face-${a.face.faceId}-records`}
          >
            <History aria-hidden />
          </Link>
        </Button>
        {canManage && canRevoke(state) && (
          <IconAction label={t('faces.authorizationNoteEdit')} onClick={onEditNote} testId={`face-${a.face.faceId}-note`}>
            <Pencil aria-hidden />
          </IconAction>
        )}
        {canManage && canRetry(state) && (
          <IconAction label={t('credentials.retry')} onClick={onRetry} testId={`face-${a.face.faceId}-retry`}>
            <RotateCcw className={isRetrying ? 'animate-spin' : undefined} aria-hidden />
          </IconAction>
        )}
        {canManage && canRevoke(state) && <DeleteAction onClick={onRevoke} testId={`face-${a.face.faceId}-revoke`} />}
      </RowActions>
    </TableRow>
  );
}
