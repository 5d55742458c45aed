import { Suspense, lazy, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { History, Pencil, Plus, RotateCcw, ScanFace, Trash2 } from 'lucide-react';
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
import { FACE_PHOTO_REFRESH_MS, IN_FLIGHT_REFETCH_MS, canRetry, canRevoke, isInFlight } from '@/lib/credentials';
import { useMountedOnce, usePrefetchWhenIdle } from '@/lib/lazy';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { AuthorizationNoteDialog } from './authorization-note-dialog';

type Authorization = RouterOutputs['face']['authorizations']['items'][number];
type Scope = 'active' | 'history';
const PAGE_SIZE = 10;

const loadAuthorizeDialog = () => import('./authorize-face-dialog');
const AuthorizeFaceDialog = lazy(() => loadAuthorizeDialog().then((m) => ({ default: m.AuthorizeFaceDialog })));

export interface RoomFacesProps {
  room: { id: number; name: string; lockId: string | null };
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
  const queryClient = useQueryClient();
  const [scope, setScope] = useState<Scope>('active');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Authorization | null>(null);
  const [isAuthorizeOpen, setIsAuthorizeOpen] = useState(false);
  const [revoking, setRevoking] = useState<Authorization | null>(null);
  usePrefetchWhenIdle(loadAuthorizeDialog);
  const isDialogMounted = useMountedOnce(isAuthorizeOpen);

  const list = useQuery(
    trpc.face.authorizations.queryOptions(
      { roomId: room.id, scope, page, pageSize: PAGE_SIZE },
      {
        placeholderData: keepPreviousData,
        refetchInterval: (query) => (query.state.data?.items.some((a) => isInFlight(a.deliveryState)) ? IN_FLIGHT_REFETCH_MS : FACE_PHOTO_REFRESH_MS),
        meta: { showsErrors: true },
      },
    ),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.face.pathKey() });
  const revoke = useMutation(
    trpc.face.revokeAuthorization.mutationOptions({
      onSuccess: () => {
        setRevoking(null);
        toast.success(t('faces.revoked'));
        void refresh();
      },
    }),
  );
  const retry = useMutation(
    trpc.face.retryAuthorization.mutationOptions({
      onSuccess: () => {
        toast.success(t('credentials.retried'));
        void refresh();
      },
      onError: () => void refresh(),
    }),
  );

  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  if (list.data && !list.isPlaceholderData && page > lastPage) setPage(lastPage);
  const authorizeButton = canManage && (
    <Button variant="outline" onClick={() => setIsAuthorizeOpen(true)} data-testid="authorize-face">
      <Plus aria-hidden />
      {t('faces.authorizeButton')}
    </Button>
  );

  return (
    <Card className="gap-0 p-0" data-testid="room-faces" aria-labelledby="room-faces-heading">
      <div className="flex flex-wrap items-center gap-3 border-b p-3">
        <h2 id="room-faces-heading" className="flex items-center gap-2 font-semibold">
          <ScanFace className="size-4" aria-hidden />
          {t('faces.roomSection')}
        </h2>
        <ToggleGroup
          type="single"
          value={scope}
          onValueChange={(value) => {
            if (!value) return;
            setScope(value as Scope);
            setPage(1);
          }}
          aria-label={t('faces.scopeLabel')}
        >
          <ToggleGroupItem value="active" data-testid="faces-scope-active">
            <ScanFace aria-hidden />
            {t('credentials.scopes.active')}
          </ToggleGroupItem>
          <ToggleGroupItem value="history" data-testid="faces-scope-history">
            <History aria-hidden />
            {t('credentials.scopes.history')}
          </ToggleGroupItem>
        </ToggleGroup>
        <div className="ms-auto flex items-center gap-2">
          <RefreshButton onRefresh={list.refetch} fetching={list.isFetching} size="icon-sm" />
          {authorizeButton}
        </div>
      </div>

      {list.isError && !list.data ? (
        <LoadError query={failedQuery(list)} what={t('faces.authorizationsWhat')} />
      ) : list.isLoading ? (
        <SkeletonRows rows={2} label={t('common.loading')} />
      ) : total === 0 ? (
        scope === 'active' ? (
          <EmptyState icon={ScanFace} title={t('faces.noAuthorizations')} description={t('faces.noAuthorizationsText')} data-testid="room-faces-empty" />
        ) : (
          <EmptyState icon={History} title={t('faces.noHistory')} description={t('faces.noHistoryText')} data-testid="room-faces-history-empty" />
        )
      ) : (
        <>
          {list.isError && <LoadError query={failedQuery(list)} what={t('faces.authorizationsWhat')} className="m-3" />}
          <Table data-testid="face-authorization-table" aria-labelledby="room-faces-heading">
            <TableHeader>
              <TableRow>
                <TableHead>{t('credentials.columns.holder')}</TableHead>
                <TableHead>{t('credentials.columns.validity')}</TableHead>
                <TableHead>{t('credentials.columns.state')}</TableHead>
                <TableHead className="text-end">{t('common.actions')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((a) => (
                <AuthorizationRow
                  key={a.id}
                  authorization={a}
                  timeZone={timeZone}
                  canManage={canManage}
                  isRetrying={retry.isPending && retry.variables?.authorizationId === a.id}
                  onRetry={() => retry.mutate({ authorizationId: a.id })}
                  onRevoke={() => setRevoking(a)}
                  onEditNote={() => setEditing(a)}
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
        title={t('faces.revokeTitle')}
        description={revoking ? t('faces.revokeText', { face: revoking.face.note, room: room.name }) : ''}
        confirmLabel={t('common.delete')}
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ authorizationId: revoking.id })}
        data-testid="revoke-face-dialog"
        confirmTestId="revoke-face-confirm"
      />
      <AuthorizationNoteDialog authorization={editing} onClose={() => setEditing(null)} />
      {isDialogMounted && (
        <Suspense fallback={null}>
          <AuthorizeFaceDialog open={isAuthorizeOpen} onOpenChange={setIsAuthorizeOpen} room={room} stay={stay} timeZone={timeZone} />
        </Suspense>
      )}
    </Card>
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
      <TableCell className="text-end whitespace-nowrap">
        <div className="inline-flex gap-1">
          <Button variant="ghost" size="icon" className="size-8" asChild>
            <Link to="/unlock-records" search={{ credential: `face:${a.id}` }} aria-label={t('faces.recordsOf', { face: a.face.note })} title={t('faces.recordsOf', { face: a.face.note })} data-testid={`face-${a.face.faceId}-records`}>
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
          {canManage && canRevoke(state) && (
            <IconAction label={t('common.delete')} onClick={onRevoke} testId={`face-${a.face.faceId}-revoke`} destructive>
              <Trash2 aria-hidden />
            </IconAction>
          )}
        </div>
      </TableCell>
    </TableRow>
  );
}
