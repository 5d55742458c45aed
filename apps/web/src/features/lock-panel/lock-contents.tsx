import { useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ScanSearch, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TLockDrift } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { LoadError, failedQuery } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { cn } from '@/lib/utils';
import { lockPanelQueries } from './api';

type LockItem = RouterOutputs['lock']['contents']['items'][number];

/** How each finding looks: fine, under way, needing attention, or not ours. */
const DRIFT_STYLES: Record<TLockDrift, string> = {
  ok: 'bg-emerald-100 text-emerald-800',
  in_flight: 'bg-blue-100 text-blue-800',
  unconfirmed: 'bg-amber-100 text-amber-900',
  missing: 'bg-red-100 text-red-800',
  should_be_removed: 'bg-red-100 text-red-800',
  expired: 'bg-red-100 text-red-800',
  unmanaged: 'bg-orange-100 text-orange-900',
};

/**
 * "What the lock holds": the passwords, faces and cards on the room's lock, read live when asked
 * (a read goes to the lock cloud, which limits calls), each marked with how it compares with the
 * console's records. What the console did not put there can be taken off, after a confirmation.
 */
export function LockContents({ room, timeZone }: { room: { id: number; name: string }; timeZone: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [isRequested, setIsRequested] = useState(false);
  const [toRemove, setToRemove] = useState<LockItem | null>(null);
  const contents = useQuery(lockPanelQueries.contents(room.id, isRequested));
  const remove = useMutation(
    trpc.lock.removeUnmanaged.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('locks.removed'));
        setToRemove(null);
        void contents.refetch();
      },
    }),
  );
  const items = contents.data?.items ?? [];

  return (
    <section aria-labelledby={headingId} className="space-y-3 border-t pt-4" data-testid="lock-contents">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h2 id={headingId} className="font-medium">
          {t('locks.contents')}
        </h2>
        {contents.data && <span className="text-muted-foreground text-xs">{t('locks.readAt', { time: formatDateTime(contents.data.readAt, timeZone) })}</span>}
        <Button
          variant="outline"
          size="sm"
          className="ms-auto"
          onClick={() => (isRequested ? void contents.refetch() : setIsRequested(true))}
          disabled={contents.isFetching}
          data-testid="lock-contents-read"
        >
          {contents.isFetching ? <Spinner /> : <ScanSearch aria-hidden />}
          {t('locks.read')}
        </Button>
      </div>
      {!isRequested ? (
        <p className="text-muted-foreground text-sm">{t('locks.contentsHint')}</p>
      ) : contents.isError ? (
        <LoadError query={failedQuery(contents)} what={t('locks.contentsWhat')} />
      ) : contents.isLoading ? (
        <SkeletonRows rows={3} label={t('common.loading')} />
      ) : items.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="lock-contents-empty">
          {t('locks.contentsEmpty')}
        </p>
      ) : (
        <Table aria-labelledby={headingId} data-testid="lock-contents-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('locks.columns.item')}</TableHead>
              <TableHead>{t('locks.columns.kind')}</TableHead>
              <TableHead>{t('locks.columns.ends')}</TableHead>
              <TableHead>{t('locks.columns.check')}</TableHead>
              <TableHead className="w-12">
                <span className="sr-only">{t('common.actions')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((item, index) => (
              <TableRow
                key={`${item.kind}-${item.ref ?? `missing-${item.credentialId ?? index}`}`}
                data-testid={`lock-item-${item.kind}-${item.ref ?? 'missing'}`}
                data-drift={item.drift}
              >
                <TableCell>
                  <div className="font-medium" dir="auto">
                    {item.name || '—'}
                  </div>
                  {item.code && (
                    <div className="text-muted-foreground font-mono text-xs" dir="ltr">
                      {item.code}
                    </div>
                  )}
                </TableCell>
                <TableCell>{t(`locks.itemKinds.${item.kind}`)}</TableCell>
                <TableCell className="whitespace-nowrap">{item.endAt ? formatDateTime(item.endAt, timeZone) : t('locks.noEnd')}</TableCell>
                <TableCell>
                  <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-medium', DRIFT_STYLES[item.drift])}>
                    {t(`credentials.drift.${item.drift}`)}
                  </span>
                </TableCell>
                <TableCell className="text-end">
                  {item.drift === 'unmanaged' && item.ref && (
                    <Button
                      variant="outline"
                      size="sm"
                      className="text-destructive hover:text-destructive"
                      onClick={() => setToRemove(item)}
                      data-testid={`lock-item-remove-${item.ref}`}
                    >
                      <Trash2 aria-hidden />
                      {t('locks.remove')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <ConfirmDialog
        open={toRemove !== null}
        onOpenChange={(open) => {
          if (open) return;
          setToRemove(null);
          remove.reset();
        }}
        title={t('locks.removeTitle')}
        description={toRemove ? t('locks.removeText', { item: toRemove.name || toRemove.code || t(`locks.itemKinds.${toRemove.kind}`), room: room.name }) : ''}
        confirmLabel={t('locks.remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => toRemove?.ref && remove.mutate({ roomId: room.id, kind: toRemove.kind, ref: toRemove.ref })}
        data-testid="lock-item-remove-dialog"
        confirmTestId="lock-item-remove-confirm"
      >
        <FormError error={remove.error} safeToRetry={false} />
      </ConfirmDialog>
    </section>
  );
}
