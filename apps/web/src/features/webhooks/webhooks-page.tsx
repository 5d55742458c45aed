import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, History, Plus, RefreshCw, Send, Trash2, TriangleAlert, Webhook } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type TWebhookEvent } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormDialog } from '@/components/form-dialog';
import { FormError } from '@/components/form-error';
import { IconAction } from '@/components/icon-action';
import { ListPage } from '@/components/list-page';
import { ActionsHead, ListTable, RowActions } from '@/components/list-table';
import { RefreshButton } from '@/components/refresh-button';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { appErrorOf } from '@/lib/api-errors';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { invalidateWebhooks, webhookQueries } from './api';

/** An event's name on the page (its key: the public name with `_` for `.`, i18next's separator). */
const eventKey = (event: TWebhookEvent) => `webhooks.events.${event.replace('.', '_')}`;

type Endpoint = RouterOutputs['webhooks']['list']['items'][number];
type WithSecret = RouterOutputs['webhooks']['create'];

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

/** "New endpoint": its address, a description, the events it receives (at least one). */
function NewWebhookDialog({ onClose, onCreated }: { onClose(): void; onCreated(created: WithSecret): void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<TWebhookEvent[]>([]);
  const create = useMutation(trpc.webhooks.create.mutationOptions({ meta: { showsErrors: true }, onSuccess: onCreated }));
  const fields = appErrorOf(create.error)?.fields ?? {};
  const toggle = (event: TWebhookEvent, on: boolean) => setEvents((now) => (on ? [...now, event] : now.filter((e) => e !== event)));
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('webhooks.form.title')}
      description={t('webhooks.form.description')}
      isDirty={url !== '' || description !== '' || events.length > 0}
      isSaving={create.isPending}
      error={Object.keys(fields).length ? null : create.error}
      onSubmit={(event) => {
        event.preventDefault();
        if (!create.isPending) create.mutate({ url: url.trim(), description, events });
      }}
      submitLabel={t('webhooks.form.submit')}
      submitDisabled={events.length === 0 || url.trim() === ''}
      size="lg"
      initialFocus="webhook-url"
      safeToRetry={false}
      data-testid="webhook-dialog"
      submitTestId="webhook-submit"
    >
      <FormField id="webhook-url" label={t('webhooks.form.url')} hint={t('webhooks.form.urlHint')} error={fields.url} required>
        <Input
          {...fieldControlProps('webhook-url', fields.url, true)}
          aria-required
          dir="ltr"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          maxLength={WEBHOOK_LIMITS.urlMax}
          data-testid="webhook-url"
        />
      </FormField>
      <FormField id="webhook-description" label={t('webhooks.form.descriptionLabel')} error={fields.description}>
        <Input
          {...fieldControlProps('webhook-description', fields.description, false)}
          dir="auto"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={WEBHOOK_LIMITS.descriptionMax}
          data-testid="webhook-description"
        />
      </FormField>
      <fieldset className="grid gap-2" data-testid="webhook-events">
        <legend className="mb-1 text-sm leading-none font-medium">
          {t('webhooks.form.events')}
          <span aria-hidden="true" className="text-destructive ms-1">
            *
          </span>
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((event) => (
            <div key={event} className="flex items-start gap-2">
              <Checkbox
                id={`webhook-event-${event}`}
                checked={events.includes(event)}
                onCheckedChange={(checked) => toggle(event, checked === true)}
                data-testid={`webhook-event-${event}`}
              />
              <Label htmlFor={`webhook-event-${event}`} className="grid gap-0.5 font-normal">
                <span>{t(eventKey(event))}</span>
                <code className="text-muted-foreground text-xs" dir="ltr">
                  {event}
                </code>
              </Label>
            </div>
          ))}
        </div>
        {fields.events && (
          <p className="text-destructive text-sm" role="alert">
            {fields.events}
          </p>
        )}
      </fieldset>
    </FormDialog>
  );
}

/** The endpoint's secret, shown this once (after creating it or a new one): copy it now. */
function SecretDialog({ created, onClose }: { created: WithSecret | null; onClose(): void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created?.secret ?? '');
      setCopied('copied');
    } catch {
      (document.getElementById('webhook-secret') as HTMLInputElement | null)?.select();
      setCopied('failed');
    }
  };
  return (
    <Dialog
      open={created !== null}
      onOpenChange={(open) => {
        if (!open) {
          setCopied('idle');
          onClose();
        }
      }}
    >
      <DialogContent closeLabel={t('common.close')} className="sm:max-w-xl" data-testid="webhook-secret-dialog">
        <DialogHeader className="pe-8">
          <DialogTitle>{t('webhooks.secret.title')}</DialogTitle>
          <DialogDescription>{t('webhooks.secret.description')}</DialogDescription>
        </DialogHeader>
        <div role="alert" className="border-warning bg-warning/15 flex items-start gap-2 rounded-md border px-3 py-2 text-sm">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p>{t('webhooks.secret.warning')}</p>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="webhook-secret">{t('webhooks.secret.label')}</Label>
          <div className="flex gap-2">
            <input
              id="webhook-secret"
              readOnly
              value={created?.secret ?? ''}
              dir="ltr"
              spellCheck={false}
              onFocus={(event) => event.currentTarget.select()}
              className="border-input bg-muted/40 min-w-0 flex-1 rounded-md border px-3 py-2 font-mono text-sm"
              data-testid="webhook-secret"
            />
            <Button type="button" variant={copied === 'copied' ? 'secondary' : 'default'} onClick={() => void copy()} data-testid="webhook-secret-copy">
              {copied === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
              {copied === 'copied' ? t('webhooks.secret.copied') : t('webhooks.secret.copy')}
            </Button>
          </div>
          <p className="text-muted-foreground text-sm" aria-live="polite">
            {copied === 'failed' ? t('webhooks.secret.copyFailed') : null}
          </p>
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose} data-testid="webhook-secret-done">
            {t('common.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const STATUS_VARIANT = { pending: 'secondary', succeeded: 'success', failed: 'destructive' } as const;

/** The endpoint's deliveries, newest first: each attempt's request, answer and time; "send again". */
function DeliveryLog({ endpoint, timeZone, onClose }: { endpoint: Endpoint; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const log = useQuery(webhookQueries.deliveries(endpoint.id));
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('webhooks.log.resent'));
        void invalidateWebhooks(queryClient);
      },
    }),
  );
  const items = log.data?.items ?? [];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-h-[90vh] overflow-y-auto sm:max-w-4xl" data-testid="webhook-log-dialog">
        <DialogHeader className="pe-8">
          <DialogTitle>{t('webhooks.log.title')}</DialogTitle>
          <DialogDescription dir="ltr" className="font-mono text-xs">
            {endpoint.url}
          </DialogDescription>
        </DialogHeader>
        <FormError error={log.error ?? resend.error} safeToRetry />
        {log.data && items.length === 0 && <p className="text-muted-foreground text-sm">{t('webhooks.log.empty')}</p>}
        <ol className="grid gap-3" data-testid="webhook-log">
          {items.map((d) => (
            <li key={d.id} className="rounded-md border p-3" data-testid={`webhook-delivery-${d.id}`} data-status={d.status}>
              <div className="flex flex-wrap items-center gap-2">
                <code className="font-mono text-sm" dir="ltr">
                  {d.kind}
                </code>
                <Badge variant={STATUS_VARIANT[d.status]}>{t(`webhooks.log.status.${d.status}`)}</Badge>
                <span className="text-muted-foreground text-xs tabular-nums">{t('webhooks.log.attempts', { count: d.attempts })}</span>
                <time className="text-muted-foreground text-xs tabular-nums" dateTime={String(d.createdAt)}>
                  {formatDateTime(d.createdAt, timeZone)}
                </time>
                {d.status === 'pending' && d.nextAttemptAt && (
                  <span className="text-muted-foreground text-xs">{t('webhooks.log.next', { at: formatDateTime(d.nextAttemptAt, timeZone) })}</span>
                )}
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  className="ms-auto"
                  disabled={resend.isPending}
                  onClick={() => resend.mutate({ id: endpoint.id, deliveryId: d.id })}
                  data-testid={`webhook-resend-${d.id}`}
                >
                  <Send aria-hidden />
                  {t('webhooks.log.resend')}
                </Button>
              </div>
              <code className="text-muted-foreground mt-1 block text-xs" dir="ltr">
                webhook-id: {d.messageId}
              </code>
              {d.log.map((a) => (
                <details key={a.attempt} className="mt-2 rounded border px-2 py-1 text-sm" data-testid="webhook-attempt">
                  <summary className="cursor-pointer">
                    {t('webhooks.log.attempt', {
                      attempt: a.attempt,
                      answer: a.responseStatus !== null ? String(a.responseStatus) : t(`webhooks.log.errors.${a.error ?? 'network'}`),
                      ms: a.durationMs,
                      at: formatDateTime(a.startedAt, timeZone),
                    })}
                  </summary>
                  <div className="grid gap-1 py-2">
                    <span className="font-medium">{t('webhooks.log.request')}</span>
                    <pre className="bg-muted max-h-48 overflow-auto rounded p-2 text-xs whitespace-pre-wrap" dir="ltr">
                      {Object.entries(a.requestHeaders)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join('\n')}
                      {'\n\n'}
                      {a.requestBody}
                    </pre>
                    <span className="font-medium">{t('webhooks.log.answer')}</span>
                    <pre className="bg-muted max-h-32 overflow-auto rounded p-2 text-xs whitespace-pre-wrap" dir="ltr">
                      {a.responseStatus !== null ? `${a.responseStatus}\n${a.responseExcerpt ?? ''}` : t(`webhooks.log.errors.${a.error ?? 'network'}`)}
                    </pre>
                  </div>
                </details>
              ))}
            </li>
          ))}
        </ol>
      </DialogContent>
    </Dialog>
  );
}
