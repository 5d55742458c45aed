import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Copy, Webhook } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ZLockAccountSeamWebhookInput } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormDialog } from '@/components/form-dialog';
import { FormError } from '@/components/form-error';
import { PasswordInput } from '@/components/password-input';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { shownErrorOf, useAccountsChanged } from './account-dialogs';
import type { LockAccount } from './lock-accounts';

type Webhook = NonNullable<LockAccount['webhook']>;

/**
 * A Seam workspace's webhook on its account's card (docs/seam.md, "Webhooks"): the address to
 * register in Seam's console (this console's own, copied in one click), whether events are
 * received and the last one's time, and the signing secret: set or changed in a dialog (kept
 * encrypted, never shown again), or taken off after a confirmation.
 */
export function SeamWebhookSection({ account, webhook, timeZone }: { account: LockAccount; webhook: Webhook; timeZone: string }) {
  const { t } = useTranslation();
  const changed = useAccountsChanged();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const address = `${window.location.origin}${webhook.path}`;
  const remove = useMutation(
    trpc.lockAccount.setSeamWebhook.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('lockAccounts.webhook.removed'));
        setRemoving(false);
      },
      onSettled: changed,
    }),
  );
  return (
    <div role="group" className="grid gap-2 rounded-md border px-3 py-2 text-sm" aria-labelledby={`seam-webhook-${account.id}`} data-testid="seam-webhook">
      <div className="flex flex-wrap items-center gap-2">
        <Webhook className="text-muted-foreground size-4" aria-hidden />
        <h4 id={`seam-webhook-${account.id}`} className="font-medium">
          {t('lockAccounts.webhook.title')}
        </h4>
        <Badge variant={webhook.configured ? 'default' : 'secondary'} data-testid="seam-webhook-state" data-configured={webhook.configured}>
          {t(webhook.configured ? 'lockAccounts.webhook.configured' : 'lockAccounts.webhook.notConfigured')}
        </Badge>
      </div>
      <p className="text-muted-foreground text-xs">
        {webhook.configured
          ? webhook.lastEventAt
            ? t('lockAccounts.webhook.lastEvent', { time: formatDateTime(webhook.lastEventAt, timeZone) })
            : t('lockAccounts.webhook.noEventYet')
          : t('lockAccounts.webhook.description')}
      </p>
      <div className="flex items-center gap-2">
        <Input
          readOnly
          dir="ltr"
          value={address}
          aria-label={t('lockAccounts.webhook.address')}
          className="font-mono text-xs"
          data-testid="seam-webhook-address"
        />
        <Button
          size="sm"
          variant="outline"
          onClick={() => void navigator.clipboard.writeText(address).then(() => toast.success(t('lockAccounts.webhook.copied')))}
          data-testid="seam-webhook-copy"
        >
          <Copy aria-hidden />
          {t('lockAccounts.webhook.copy')}
        </Button>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => setEditing(true)} data-testid="seam-webhook-set">
          {t(webhook.configured ? 'lockAccounts.webhook.change' : 'lockAccounts.webhook.set')}
        </Button>
        {webhook.configured && (
          <Button
            size="sm"
            variant="outline"
            className="text-destructive hover:text-destructive"
            onClick={() => {
              remove.reset();
              setRemoving(true);
            }}
            data-testid="seam-webhook-remove"
          >
            {t('lockAccounts.webhook.remove')}
          </Button>
        )}
      </div>
      {editing && <SecretDialog accountId={account.id} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        open={removing}
        onOpenChange={(open) => !open && setRemoving(false)}
        title={t('lockAccounts.webhook.removeTitle')}
        description={t('lockAccounts.webhook.removeText')}
        confirmLabel={t('lockAccounts.webhook.remove')}
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ accountId: account.id, secret: '' })}
        data-testid="seam-webhook-remove-dialog"
        confirmTestId="seam-webhook-remove-confirm"
      >
        <FormError error={remove.error} />
      </ConfirmDialog>
    </div>
  );
}

/** The dialog's secret: as the server checks it, and not empty (taking the webhook off is its own action). */
const ZSecretForm = ZLockAccountSeamWebhookInput.extend({
  secret: ZLockAccountSeamWebhookInput.shape.secret.refine((v) => v !== '', { error: 'validation.webhookSecretInvalid' }),
});

/** The signing secret as Seam's console shows it (`whsec_...`). */
function SecretDialog({ accountId, onClose }: { accountId: number; onClose(): void }) {
  const { t } = useTranslation();
  const changed = useAccountsChanged();
  const form = useAppForm(ZSecretForm, { accountId, secret: '' });
  const save = useMutation(
    trpc.lockAccount.setSeamWebhook.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('lockAccounts.webhook.saved'));
        changed();
        onClose();
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate(values);
  });
  const error = fieldMessage(t, form.formState.errors.secret?.message);
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('lockAccounts.webhook.dialogTitle')}
      description={t('lockAccounts.webhook.dialogDescription')}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      error={shownErrorOf(save.error, ['secret'])}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('lockAccounts.webhook.save')}
      initialFocus="seam-webhook-secret"
      data-testid="seam-webhook-dialog"
      submitTestId="seam-webhook-submit"
    >
      <FormField id="seam-webhook-secret" label={t('lockAccounts.webhook.secret')} hint={t('lockAccounts.webhook.secretHint')} error={error} required>
        <PasswordInput
          {...fieldControlProps('seam-webhook-secret', error, true)}
          aria-required
          autoComplete="new-password"
          spellCheck={false}
          dir="ltr"
          maxLength={220}
          {...form.register('secret')}
          data-testid="seam-webhook-secret"
        />
      </FormField>
    </FormDialog>
  );
}
