import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type TWebhookEvent } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { appErrorOf } from '@/lib/api-errors';
import { trpc } from '@/lib/trpc';
import { eventKey, type WithSecret } from './webhook-types';

/** "New endpoint": its address, a description, the events it receives (at least one). */
export function NewWebhookDialog({ onClose, onCreated }: { onClose(): void; onCreated(created: WithSecret): void }) {
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
export function SecretDialog({ created, onClose }: { created: WithSecret | null; onClose(): void }) {
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
