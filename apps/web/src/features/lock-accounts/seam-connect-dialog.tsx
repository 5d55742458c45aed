import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS, ZLockAccountConnectSeamInput } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { PasswordInput } from '@/components/password-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { shownErrorOf, useAccountsChanged } from './account-dialogs';
import type { LockAccount } from './lock-accounts';

/** Where the Seam dialog stands: closed, connecting a workspace, or connecting one again with a new key. */
export type SeamDialogState = null | { account: LockAccount | null };

/**
 * "Connect a Seam workspace" (docs/seam.md, "Lock accounts"): the workspace's API key (made in
 * Seam's console, Developer > API keys; checked once with Seam, kept sealed, never shown again) and
 * an optional label (the workspace's name in Seam when empty). A Seam account whose key Seam no
 * longer accepts is connected again the same way, with a new key (`account`: the label it has is
 * kept). A key Seam refuses is said on its field and cleared. `onConnected` gets the account (its
 * locks are got at once).
 */
export function SeamConnectDialog({
  state,
  onClose,
  onConnected,
}: {
  state: SeamDialogState;
  onClose(): void;
  onConnected(account: { id: number; username: string }): void;
}) {
  if (!state) return null;
  return <SeamConnectForm key={state.account?.id ?? 'new'} account={state.account} onClose={onClose} onConnected={onConnected} />;
}

function SeamConnectForm({
  account,
  onClose,
  onConnected,
}: {
  account: LockAccount | null;
  onClose(): void;
  onConnected(account: { id: number; username: string }): void;
}) {
  const { t } = useTranslation();
  const changed = useAccountsChanged();
  const form = useAppForm(ZLockAccountConnectSeamInput, { apiKey: '', label: '' });
  const { errors } = form.formState;
  const connect = useMutation(
    trpc.lockAccount.connectSeam.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: ({ id }, input) => {
        toast.success(t('lockAccounts.seam.connected'));
        changed();
        onClose();
        onConnected({ id, username: account?.username ?? (input.label || t('lockAccounts.kinds.seam')) });
      },
      onError: (error) => {
        form.applyServerErrors(error);
        // A refused key is typed again (never kept longer than needed).
        if (appErrorOf(error)?.fields?.apiKey) form.setValue('apiKey', '');
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!connect.isPending) connect.mutate(account ? { apiKey: values.apiKey, label: '' } : values);
  });
  const apiKeyError = fieldMessage(t, errors.apiKey?.message);
  const labelError = fieldMessage(t, errors.label?.message);

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={account ? t('lockAccounts.seam.reconnectTitle', { username: account.username }) : t('lockAccounts.seam.connect')}
      description={account ? t('lockAccounts.seam.reconnectDescription') : t('lockAccounts.seam.connectDescription')}
      isDirty={form.formState.isDirty}
      isSaving={connect.isPending}
      error={shownErrorOf(connect.error, ['apiKey', 'label'])}
      onSubmit={(event) => void submit(event)}
      submitLabel={account ? t('lockAccounts.seam.reconnect') : t('lockAccounts.connectSubmit')}
      initialFocus="seam-account-api-key"
      safeToRetry={false}
      data-testid="seam-account-connect-dialog"
      submitTestId="seam-account-connect-submit"
    >
      <FormField id="seam-account-api-key" label={t('lockAccounts.seam.apiKey')} hint={t('lockAccounts.seam.apiKeyHint')} error={apiKeyError} required>
        <PasswordInput
          {...fieldControlProps('seam-account-api-key', apiKeyError, true)}
          aria-required
          autoComplete="new-password"
          spellCheck={false}
          dir="ltr"
          maxLength={LIMITS.lockAccountMax + 20}
          {...form.register('apiKey')}
          data-testid="seam-account-api-key"
        />
      </FormField>
      {!account && (
        <FormField id="seam-account-label" label={t('lockAccounts.form.label')} hint={t('lockAccounts.seam.labelHint')} error={labelError}>
          <Input
            {...fieldControlProps('seam-account-label', labelError, true)}
            autoComplete="off"
            maxLength={LIMITS.lockAccountMax + 20}
            {...form.register('label')}
            data-testid="seam-account-label"
          />
        </FormField>
      )}
    </FormDialog>
  );
}
