import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateWebhooks, webhookQueries } from './api';
import type { Endpoint } from './webhook-types';

const STATUS_VARIANT = { pending: 'secondary', succeeded: 'success', failed: 'destructive' } as const;

/** The endpoint's deliveries, newest first: each attempt's request, answer and time; "send again". */
export function DeliveryLog({ endpoint, timeZone, onClose }: { endpoint: Endpoint; timeZone: string; onClose(): void }) {
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
