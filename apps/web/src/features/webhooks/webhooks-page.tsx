import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { History, Plus, RefreshCw, Send, Trash2, TriangleAlert, Webhook } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_LIMITS } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage } from '@/components/list-page';
import { ActionsHead, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateWebhooks, webhookQueries } from './api';
import { eventKey, type Endpoint, type WithSecret } from './webhook-types';
import { NewWebhookDialog, SecretDialog } from './webhook-dialogs';
import { DeliveryLog } from './delivery-log';

/**
 * `/webhooks` (issue 29 §2, docs/webhooks.md): the hotel's webhook endpoints. Each with its events,
 * whether it is enabled (and why not: a user, or every attempt failing for days), its last success
 * and what waits; a new endpoint's secret is shown once with a copy button; its delivery log
 * (request, answer, time, attempt) with "send again"; "send a test event"; a new secret; delete
 * after a confirmation. For managers of the hotel (hotel.manage).
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const list = useQuery(webhookQueries.list());
  const items = list.data?.items ?? [];
  const [isCreating, setIsCreating] = useState(false);
  const [secret, setSecret] = useState<WithSecret | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [logOf, setLogOf] = useState<Endpoint | null>(null);

  const after = () => void invalidateWebhooks(queryClient);
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('webhooks.deleted'));
        setDeleting(null);
        after();
      },
    }),
  );
  const update = useMutation(trpc.webhooks.update.mutationOptions({ meta: { showsErrors: true }, onSuccess: after }));
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (rotated) => {
        after();
        setSecret(rotated);
      },
    }),
  );
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('webhooks.testQueued'));
        after();
      },
    }),
  );
  const failing = items.filter((e) => e.disabledReason === 'failing');

  const newButton = (testId: string) => (
    <Button onClick={() => setIsCreating(true)} data-testid={testId} disabled={items.length >= WEBHOOK_LIMITS.endpointsMax}>
      <Plus aria-hidden />
      {t('webhooks.new')}
    </Button>
  );

  return (
    <>
      <ListPage
        title={t('webhooks.title')}
        actions={newButton('webhook-new')}
        beforeList={
          <div className="grid max-w-3xl gap-2">
            <p className="text-muted-foreground text-sm">{t('webhooks.intro')}</p>
            {failing.map((e) => (
              <div
                key={e.id}
                role="alert"
                className="border-destructive bg-destructive/10 flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
                data-testid={`webhook-failing-${e.id}`}
              >
                <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                <p>{t('webhooks.failingNotice', { url: e.url, since: e.failingSince ? formatDateTime(e.failingSince, timeZone) : '' })}</p>
              </div>
            ))}
          </div>
        }
        query={list}
        what={t('webhooks.listWhat')}
        toolbarEnd={<RefreshButton onRefresh={list.refetch} fetching={list.isFetching} />}
        isEmpty={items.length === 0}
        empty={
          <EmptyState
            icon={Webhook}
            title={t('webhooks.emptyTitle')}
            description={t('webhooks.emptyText')}
            action={newButton('webhook-new-empty')}
            data-testid="webhooks-empty"
          />
        }
        data-testid="webhooks-page"
      >
        <ListTable
          aria-label={t('webhooks.listWhat')}
          data-testid="webhooks-table"
          head={
            <>
              <TableHead>{t('webhooks.columns.url')}</TableHead>
              <TableHead>{t('webhooks.columns.events')}</TableHead>
              <TableHead>{t('webhooks.columns.state')}</TableHead>
              <TableHead>{t('webhooks.columns.lastSuccess')}</TableHead>
              <ActionsHead />
            </>
          }
        >
          {items.map((e) => (
            <TableRow key={e.id} data-testid={`webhook-row-${e.id}`}>
              <TableCell>
                <code className="block max-w-80 truncate font-mono text-xs" dir="ltr" title={e.url}>
                  {e.url}
                </code>
                {e.description && (
                  <span className="text-muted-foreground block text-xs" dir="auto">
                    {e.description}
                  </span>
                )}
              </TableCell>
              <TableCell>
                <ul className="flex max-w-80 flex-wrap gap-1" aria-label={t('webhooks.columns.events')}>
                  {e.events.map((event) => (
                    <li key={event}>
                      <Badge variant="outline" title={event}>
                        {t(eventKey(event))}
                      </Badge>
                    </li>
                  ))}
                </ul>
              </TableCell>
              <TableCell>
                <div className="flex items-center gap-2">
                  <Checkbox
                    id={`webhook-enabled-${e.id}`}
                    checked={e.enabled}
                    disabled={update.isPending}
                    onCheckedChange={(checked) => update.mutate({ id: e.id, enabled: checked === true })}
                    data-testid={`webhook-enabled-${e.id}`}
                  />
                  <Label htmlFor={`webhook-enabled-${e.id}`} className="font-normal">
                    {e.enabled ? t('webhooks.states.enabled') : t(`webhooks.states.${e.disabledReason ?? 'manual'}`)}
                  </Label>
                </div>
                {e.pending > 0 && <span className="text-muted-foreground block text-xs">{t('webhooks.pending', { count: e.pending })}</span>}
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {e.lastSuccessAt ? (
                  <time dateTime={String(e.lastSuccessAt)}>{formatDateTime(e.lastSuccessAt, timeZone)}</time>
                ) : (
                  <span className="text-muted-foreground">{t('webhooks.never')}</span>
                )}
              </TableCell>
              <RowActions>
                <IconAction label={t('webhooks.log.open', { url: e.url })} onClick={() => setLogOf(e)} testId={`webhook-log-${e.id}`}>
                  <History aria-hidden />
                </IconAction>
                <IconAction label={t('webhooks.sendTest', { url: e.url })} onClick={() => sendTest.mutate({ id: e.id })} testId={`webhook-test-${e.id}`}>
                  <Send aria-hidden />
                </IconAction>
                <IconAction label={t('webhooks.rotate', { url: e.url })} onClick={() => rotate.mutate({ id: e.id })} testId={`webhook-rotate-${e.id}`}>
                  <RefreshCw aria-hidden />
                </IconAction>
                <IconAction label={t('webhooks.delete.action', { url: e.url })} onClick={() => setDeleting(e)} testId={`webhook-delete-${e.id}`} destructive>
                  <Trash2 aria-hidden />
                </IconAction>
              </RowActions>
            </TableRow>
          ))}
        </ListTable>
      </ListPage>

      {isCreating && (
        <NewWebhookDialog
          onClose={() => setIsCreating(false)}
          onCreated={(created) => {
            setIsCreating(false);
            after();
            setSecret(created);
          }}
        />
      )}
      <SecretDialog created={secret} onClose={() => setSecret(null)} />
      {logOf && <DeliveryLog endpoint={logOf} timeZone={timeZone} onClose={() => setLogOf(null)} />}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) {
            setDeleting(null);
            remove.reset();
          }
        }}
        title={t('webhooks.delete.title')}
        description={t('webhooks.delete.description', { url: deleting?.url ?? '' })}
        confirmLabel={t('webhooks.delete.confirm')}
        destructive
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        data-testid="webhook-delete-dialog"
        confirmTestId="webhook-delete-confirm"
      >
        <FormError error={remove.error} safeToRetry />
      </ConfirmDialog>
    </>
  );
}
