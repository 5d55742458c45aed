import { Suspense, lazy, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Activity, ArrowDownToLine, ArrowUpFromLine, CreditCard, Pencil, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DeleteDialog } from '@/components/delete-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage } from '@/components/list-page';
import { ActionsHead, DeleteAction, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { useMountedOnce } from '@/lib/lazy';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateDispenserList, invalidateDispensers, readerQueries } from './api';
import type { RouterOutputs } from '@/lib/trpc-types';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { useDeskReader } from '@/lib/desk-reader';
import { deskReaderState } from '@/lib/desk-reader-env';
import type { DispenserStatus } from '@/readers/types';
import { ReaderErrorAlert, ReaderTypeSelect } from './desk-reader-panel';

type Dispenser = RouterOutputs['dispenser']['list']['items'][number];
type Status = Dispenser['status'];

const loadAddDialog = () => import('./add-dispenser-dialog');
const AddDispenserDialog = lazy(() => loadAddDialog().then((m) => ({ default: m.AddDispenserDialog })));
const RenameDialog = lazy(() => import('./rename-dialog').then((m) => ({ default: m.RenameDialog })));

const STATUS_VARIANT: Record<Status, 'success' | 'secondary' | 'warning' | 'destructive'> = {
  online: 'success',
  offline: 'secondary',
  empty: 'warning',
  fault: 'destructive',
};

export function DispenserStatusBadge({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <Badge variant={STATUS_VARIANT[status]} data-status={status}>
      {t(`deskReaders.dispenserStatus.${status}`)}
    </Badge>
  );
}

/** How a failed status check is recorded: no answer or no dispenser is offline, anything else a fault. */
function statusOfFailure(error: unknown): Status {
  const kind = (error as { kind?: string } | null)?.kind;
  return kind === 'noResponse' || kind === 'dispenserUnavailable' || kind === 'deviceNotConnected' || kind === 'deviceNotFound' ? 'offline' : 'fault';
}

/**
 * Card dispensers (issue 8 §5, `/manage/cardDispenser/*`): the dispenser at this desk, driven
 * through this computer's reader service (its status, dispense a card onto the reader, retract
 * it), and the hotel's registered dispensers with the last status a desk reported. A check of the
 * desk's dispenser is recorded for the registered dispenser of the same device id.
 */
export function DispensersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const desk = useDeskReader();
  const user = useUserInfo();
  const canManage = hasPermission(user, 'hotel.manage');
  const canReport = hasPermission(user, 'credential.manage');
  const list = useQuery(readerQueries.dispensers());
  const items = list.data?.items ?? [];
  const [adding, setAdding] = useState<{ deviceId?: string } | null>(null);
  const [renaming, setRenaming] = useState<Dispenser | null>(null);
  const [deleting, setDeleting] = useState<Dispenser | null>(null);
  const isDialogMounted = useMountedOnce(adding !== null || renaming !== null);

  const [desked, setDesked] = useState<{
    busy: 'check' | 'dispense' | 'capture' | null;
    deviceId: string | null;
    status: DispenserStatus | null;
    dispensed: string | null;
    captured: boolean;
    error: unknown;
  }>({
    busy: null,
    deviceId: null,
    status: null,
    dispensed: null,
    captured: false,
    error: null,
  });
  const registered = desked.deviceId ? items.find((d) => d.deviceId === desked.deviceId) : undefined;

  const record = useMutation(
    trpc.dispenser.checkStatus.mutationOptions({
      meta: { showsErrors: true },
      onSettled: () => void invalidateDispenserList(queryClient),
    }),
  );
  const remove = useMutation(
    trpc.dispenser.delete.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('common.deleted'));
        setDeleting(null);
      },
      onSettled: () => void invalidateDispensers(queryClient),
    }),
  );

  /** Reports a check to the server for the registered dispenser of this desk's device. */
  const report = async (deviceId: string | null, status: Status, reading?: DispenserStatus) => {
    if (!canReport || !deviceId) return;
    const known = (await queryClient.fetchQuery(readerQueries.knownDispensers())).items.find((d) => d.deviceId === deviceId);
    if (!known) return;
    record.mutate({ id: known.id, status, ...(reading ? { stock: reading.stock, capacity: reading.capacity } : {}) });
  };

  const run = async (busy: 'check' | 'dispense' | 'capture') => {
    setDesked((s) => ({ ...s, busy, error: null, dispensed: busy === 'check' ? s.dispensed : null, captured: false }));
    // When the reader does not answer, the dispenser is the one of the reader last opened here.
    let deviceId = desked.deviceId ?? deskReaderState().lastDeviceId;
    try {
      const reader = await desk.getReader();
      deviceId = (await reader.open()).deviceId;
      let dispensed: string | null = null;
      if (busy === 'dispense') dispensed = await reader.dispenseCard();
      if (busy === 'capture') await reader.captureCard();
      const status = await reader.dispenserStatus();
      setDesked({
        busy: null,
        deviceId,
        status,
        dispensed: dispensed ?? (busy === 'check' ? desked.dispensed : null),
        captured: busy === 'capture',
        error: null,
      });
      if (busy === 'dispense') toast.success(t('deskReaders.dispensed', { uid: dispensed }));
      await report(deviceId, 'online', status);
    } catch (error) {
      setDesked((s) => ({ ...s, busy: null, deviceId, status: busy === 'check' ? null : s.status, error }));
      await report(deviceId, statusOfFailure(error));
    }
  };

  const addButton = canManage && (
    <Button onClick={() => setAdding({})} data-testid="add-dispenser">
      <Plus aria-hidden />
      {t('deskReaders.addDispenser')}
    </Button>
  );
  const s = desked.status;

  return (
    <>
      <div className="flex flex-col gap-4">
        <Card className="gap-4 py-4" data-testid="desk-dispenser">
          <CardHeader className="px-4">
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="size-4" aria-hidden />
              {t('deskReaders.deskDispenser')}
            </CardTitle>
            <CardDescription>{t('deskReaders.deskDispenserText')}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 px-4">
            <div className="flex flex-wrap items-end gap-3">
              <ReaderTypeSelect />
              <Button variant="outline" onClick={() => void run('check')} disabled={desked.busy !== null} data-testid="dispenser-check">
                {desked.busy === 'check' ? <Spinner /> : <Activity aria-hidden />}
                {t('deskReaders.checkStatus')}
              </Button>
              <Button onClick={() => void run('dispense')} disabled={desked.busy !== null} data-testid="dispenser-dispense">
                {desked.busy === 'dispense' ? <Spinner /> : <ArrowUpFromLine aria-hidden />}
                {t('deskReaders.dispense')}
              </Button>
              <Button variant="outline" onClick={() => void run('capture')} disabled={desked.busy !== null} data-testid="dispenser-capture">
                {desked.busy === 'capture' ? <Spinner /> : <ArrowDownToLine aria-hidden />}
                {t('deskReaders.retract')}
              </Button>
            </div>
            {desked.error !== null && <ReaderErrorAlert error={desked.error} testId="dispenser-error" />}
            {s && (
              <div role="status" data-testid="dispenser-status" data-stock={s.stock} data-card-at-reader={s.cardAtReader}>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-muted-foreground">{t('deskReaders.stock')}</dt>
                  <dd className="tabular-nums" data-testid="dispenser-stock">
                    {t('deskReaders.stockOf', { stock: formatNumber(s.stock), capacity: formatNumber(s.capacity) })}
                  </dd>
                  <dt className="text-muted-foreground">{t('deskReaders.bin')}</dt>
                  <dd className="tabular-nums">{t('deskReaders.stockOf', { stock: formatNumber(s.bin), capacity: formatNumber(s.binCapacity) })}</dd>
                  <dt className="text-muted-foreground">{t('deskReaders.cardAtReader')}</dt>
                  <dd data-testid="dispenser-card-at-reader">{s.cardAtReader ? t('deskReaders.yes') : t('deskReaders.no')}</dd>
                </dl>
              </div>
            )}
            {desked.dispensed && (
              <p className="text-sm font-medium" role="status" data-testid="dispenser-dispensed">
                {t('deskReaders.dispensed', { uid: desked.dispensed })}
              </p>
            )}
            {desked.captured && (
              <p className="text-sm font-medium" role="status" data-testid="dispenser-captured">
                {t('deskReaders.retracted')}
              </p>
            )}
            {desked.deviceId && !registered && list.data && (
              <div className="text-muted-foreground flex flex-wrap items-center gap-2 text-sm" data-testid="dispenser-unregistered">
                {t('deskReaders.dispenserNotRegistered', { device: desked.deviceId })}
                {canManage && (
                  <Button size="sm" variant="outline" onClick={() => setAdding({ deviceId: desked.deviceId ?? undefined })} data-testid="dispenser-register">
                    {t('deskReaders.addDispenser')}
                  </Button>
                )}
              </div>
            )}
            <FormError error={record.error} />
          </CardContent>
        </Card>

        <ListPage
          title={t('route.cardDispensers')}
          actions={addButton}
          query={list}
          what={t('deskReaders.dispensersWhat')}
          toolbarEnd={<RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />}
          isEmpty={items.length === 0}
          empty={
            <EmptyState
              icon={CreditCard}
              title={t('deskReaders.noDispensersTitle')}
              description={t('deskReaders.noDispensersText')}
              action={addButton}
              data-testid="dispensers-empty"
            />
          }
          data-testid="dispensers"
        >
          <ListTable
            data-testid="dispensers-table"
            head={
              <>
                <TableHead>{t('deskReaders.name')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('deskReaders.deviceId')}</TableHead>
                <TableHead>{t('deskReaders.status')}</TableHead>
                <TableHead>{t('deskReaders.stock')}</TableHead>
                <TableHead className="hidden sm:table-cell">{t('deskReaders.lastChecked')}</TableHead>
                {canManage && <ActionsHead />}
              </>
            }
          >
            {items.map((d) => (
              <TableRow key={d.id} data-testid={`dispenser-row-${d.deviceId}`} data-status={d.status} data-stock={d.stock}>
                <TableCell className="max-w-48 truncate" dir="auto" title={d.name}>
                  {d.name || <span className="text-muted-foreground">—</span>}
                  {d.deviceId === desked.deviceId && (
                    <Badge variant="secondary" className="ms-2">
                      {t('deskReaders.thisComputerShort')}
                    </Badge>
                  )}
                </TableCell>
                <TableCell className="hidden font-mono text-xs md:table-cell" dir="ltr">
                  {d.deviceId}
                </TableCell>
                <TableCell>
                  <DispenserStatusBadge status={d.status} />
                </TableCell>
                <TableCell className="tabular-nums" data-testid={`dispenser-row-stock-${d.deviceId}`}>
                  {d.capacity !== null ? t('deskReaders.stockOf', { stock: formatNumber(d.stock), capacity: formatNumber(d.capacity) }) : formatNumber(d.stock)}
                </TableCell>
                <TableCell className="text-muted-foreground hidden whitespace-nowrap tabular-nums sm:table-cell">
                  {d.lastCheckedAt ? <time dateTime={d.lastCheckedAt}>{formatDateTime(d.lastCheckedAt, timeZone)}</time> : t('deskReaders.neverChecked')}
                </TableCell>
                {canManage && (
                  <RowActions>
                    <IconAction label={t('deskReaders.rename')} onClick={() => setRenaming(d)} testId={`dispenser-rename-${d.deviceId}`}>
                      <Pencil aria-hidden />
                    </IconAction>
                    <DeleteAction
                      onClick={() => {
                        remove.reset();
                        setDeleting(d);
                      }}
                      testId={`dispenser-delete-${d.deviceId}`}
                    />
                  </RowActions>
                )}
              </TableRow>
            ))}
          </ListTable>
        </ListPage>
      </div>

      <DeleteDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('deskReaders.deleteDispenserTitle')}
        description={deleting ? t('deskReaders.deleteDispenserText', { dispenser: deleting.name || deleting.deviceId }) : ''}
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        data-testid="dispenser-delete-dialog"
        confirmTestId="dispenser-delete-confirm"
      />
      {isDialogMounted && (
        <Suspense fallback={null}>
          <AddDispenserDialog open={adding !== null} deviceId={adding?.deviceId} onOpenChange={(open) => !open && setAdding(null)} />
          <RenameDialog kind="dispenser" item={renaming} onClose={() => setRenaming(null)} />
        </Suspense>
      )}
    </>
  );
}
