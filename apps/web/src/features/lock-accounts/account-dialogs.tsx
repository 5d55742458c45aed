import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { LIMITS, LOCK_ACCOUNT_KINDS, LOCK_CALL_BUDGET, ZLockAccountBudgetInput, ZLockAccountConnectInput, ZLockAccountReconnectInput } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { PasswordInput } from '@/components/password-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatNumber } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { cn } from '@/lib/utils';
import { invalidateLockAccounts } from './api';
import type { LockAccount } from './lock-accounts';

/** The server's error in the dialog unless it is all about fields shown next to them. */
export function shownErrorOf(error: unknown, fields: string[]) {
  const named = Object.keys(appErrorOf(error)?.fields ?? {});
  return named.length > 0 && named.every((f) => fields.includes(f)) ? null : error;
}

/** After any change of an account: the accounts, and the locks (their account's state, counts). */
export function useAccountsChanged() {
  const queryClient = useQueryClient();
  return () => invalidateLockAccounts(queryClient);
}

const CONNECT_FIELDS = ['username', 'password', 'kind', 'label'];

/**
 * "Connect an account": the TTLock account (phone, e-mail or user name, as the lock app signs in),
 * its password (sent once to the lock cloud, never shown again, never stored), its kind and an
 * optional label. The server's refusals of the account or the password (wrong password, the other
 * region) show on their fields. `onConnected` gets the new account (its locks are got at once).
 */
export function ConnectAccountDialog({
  open,
  onOpenChange,
  onConnected,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onConnected(account: { id: number; username: string }): void;
}) {
  if (!open) return null;
  return <ConnectAccountForm onOpenChange={onOpenChange} onConnected={onConnected} />;
}

function ConnectAccountForm({
  onOpenChange,
  onConnected,
}: {
  onOpenChange(open: boolean): void;
  onConnected(account: { id: number; username: string }): void;
}) {
  const { t } = useTranslation();
  const changed = useAccountsChanged();
  const form = useAppForm(ZLockAccountConnectInput, { username: '', password: '', kind: 'ttlock', label: '' });
  const { errors } = form.formState;
  const kind = useWatch({ control: form.control, name: 'kind' });
  const connect = useMutation(
    trpc.lockAccount.connect.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: ({ id }, input) => {
        toast.success(t('lockAccounts.connected', { username: input.username }));
        changed();
        onOpenChange(false);
        onConnected({ id, username: input.username });
      },
      onError: (error) => {
        form.applyServerErrors(error);
        // The password is typed again after a refusal (never kept longer than needed).
        if (appErrorOf(error)?.fields?.password) form.setValue('password', '');
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!connect.isPending) connect.mutate(values);
  });
  const error = (name: keyof typeof errors) => fieldMessage(t, errors[name]?.message);

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('lockAccounts.connectTitle')}
      description={t('lockAccounts.connectDescription')}
      isDirty={form.formState.isDirty}
      isSaving={connect.isPending}
      error={shownErrorOf(connect.error, CONNECT_FIELDS)}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('lockAccounts.connectSubmit')}
      initialFocus="lock-account-username"
      safeToRetry={false}
      data-testid="lock-account-connect-dialog"
      submitTestId="lock-account-connect-submit"
    >
      <FormField
        id="lock-account-username"
        label={t('lockAccounts.form.username')}
        hint={t('lockAccounts.form.usernameHint')}
        error={error('username')}
        required
      >
        <Input
          {...fieldControlProps('lock-account-username', error('username'), true)}
          aria-required
          autoComplete="off"
          dir="ltr"
          maxLength={LIMITS.lockAccountMax + 20}
          {...form.register('username')}
          data-testid="lock-account-username"
        />
      </FormField>
      <FormField
        id="lock-account-password"
        label={t('lockAccounts.form.password')}
        hint={t('lockAccounts.form.passwordHint')}
        error={error('password')}
        required
      >
        <PasswordInput
          {...fieldControlProps('lock-account-password', error('password'), true)}
          aria-required
          autoComplete="new-password"
          maxLength={LIMITS.passwordMaxLength}
          {...form.register('password')}
          data-testid="lock-account-password"
        />
      </FormField>
      <fieldset className="grid gap-2" data-testid="lock-account-kind">
        <legend className="mb-2 text-sm leading-none font-medium">{t('lockAccounts.form.kind')}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {LOCK_ACCOUNT_KINDS.map((value) => (
            <label
              key={value}
              htmlFor={`lock-account-kind-${value}`}
              className={cn(
                'has-focus-visible:ring-ring flex cursor-pointer gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                kind === value ? 'border-primary bg-primary/5' : 'hover:bg-accent/50',
              )}
            >
              <input
                type="radio"
                id={`lock-account-kind-${value}`}
                value={value}
                className="accent-primary mt-0.5 size-4 shrink-0"
                data-testid={`lock-account-kind-${value}`}
                {...form.register('kind')}
              />
              <span className="grid gap-1">
                <span className="font-medium">{t(`lockAccounts.kinds.${value}`)}</span>
                <span className="text-muted-foreground text-xs leading-snug">{t(`lockAccounts.form.kindHints.${value}`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <FormField id="lock-account-label" label={t('lockAccounts.form.label')} hint={t('lockAccounts.form.labelHint')} error={error('label')}>
        <Input
          {...fieldControlProps('lock-account-label', error('label'), true)}
          autoComplete="off"
          maxLength={LIMITS.lockAccountMax + 20}
          {...form.register('label')}
          data-testid="lock-account-label"
        />
      </FormField>
    </FormDialog>
  );
}

const reconnectSchema = ZLockAccountReconnectInput.pick({ password: true });

/** Connects an account again with its password (it needs it again, was disconnected, or was in the other region). */
export function ReconnectAccountDialog({ account, onClose }: { account: LockAccount | null; onClose(): void }) {
  if (!account) return null;
  return <ReconnectForm key={account.id} account={account} onClose={onClose} />;
}

function ReconnectForm({ account, onClose }: { account: LockAccount; onClose(): void }) {
  const { t } = useTranslation();
  const changed = useAccountsChanged();
  const form = useAppForm(reconnectSchema, { password: '' });
  const { errors } = form.formState;
  const reconnect = useMutation(
    trpc.lockAccount.reconnect.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('lockAccounts.reconnected', { username: account.username }));
        changed();
        onClose();
      },
      onError: (error) => {
        form.applyServerErrors(error);
        if (appErrorOf(error)?.fields?.password) form.setValue('password', '');
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!reconnect.isPending) reconnect.mutate({ accountId: account.id, password: values.password });
  });
  const passwordError = fieldMessage(t, errors.password?.message);

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('lockAccounts.reconnectTitle', { username: account.username })}
      description={t('lockAccounts.reconnectDescription')}
      isDirty={form.formState.isDirty}
      isSaving={reconnect.isPending}
      error={shownErrorOf(reconnect.error, ['password'])}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('lockAccounts.reconnect')}
      initialFocus="lock-account-reconnect-password"
      data-testid="lock-account-reconnect-dialog"
      submitTestId="lock-account-reconnect-submit"
    >
      <FormField
        id="lock-account-reconnect-password"
        label={t('lockAccounts.form.password')}
        hint={t('lockAccounts.form.passwordHint')}
        error={passwordError}
        required
      >
        <PasswordInput
          {...fieldControlProps('lock-account-reconnect-password', passwordError, true)}
          aria-required
          autoComplete="new-password"
          maxLength={LIMITS.passwordMaxLength}
          {...form.register('password')}
          data-testid="lock-account-reconnect-password"
        />
      </FormField>
    </FormDialog>
  );
}

const budgetSchema = z.object({ monthlyBudget: ZLockAccountBudgetInput.shape.monthlyBudget });

/** The most calls an account may make to the lock cloud in a month (TTLock does not publish its own limit). */
export function BudgetDialog({ account, onClose }: { account: LockAccount | null; onClose(): void }) {
  if (!account) return null;
  return <BudgetForm key={account.id} account={account} onClose={onClose} />;
}

function BudgetForm({ account, onClose }: { account: LockAccount; onClose(): void }) {
  const { t } = useTranslation();
  const changed = useAccountsChanged();
  const form = useAppForm(budgetSchema, { monthlyBudget: String(account.monthlyBudget) });
  const { errors } = form.formState;
  const save = useMutation(
    trpc.lockAccount.setBudget.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (saved) => {
        toast.success(t('lockAccounts.budgetSaved', { username: account.username, budget: formatNumber(saved.monthlyBudget) }));
        changed();
        onClose();
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate({ accountId: account.id, monthlyBudget: values.monthlyBudget });
  });
  const budgetError = fieldMessage(t, errors.monthlyBudget?.message);

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('lockAccounts.budgetTitle', { username: account.username })}
      description={t('lockAccounts.budgetDescription', { percent: formatNumber(LOCK_CALL_BUDGET.warnAtPercent) })}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      error={shownErrorOf(save.error, ['monthlyBudget'])}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('lockAccounts.budgetSubmit')}
      initialFocus="lock-account-budget-value"
      data-testid="lock-account-budget-dialog"
      submitTestId="lock-account-budget-submit"
    >
      <FormField
        id="lock-account-budget-value"
        label={t('lockAccounts.budgetField')}
        hint={t('lockAccounts.budgetHint', {
          min: formatNumber(LOCK_CALL_BUDGET.min),
          max: formatNumber(LOCK_CALL_BUDGET.max),
          used: formatNumber(account.calls.month),
        })}
        error={budgetError}
        required
      >
        <Input
          {...fieldControlProps('lock-account-budget-value', budgetError, true)}
          aria-required
          inputMode="numeric"
          autoComplete="off"
          dir="ltr"
          className="sm:w-56"
          maxLength={12}
          {...form.register('monthlyBudget')}
          data-testid="lock-account-budget-value"
        />
      </FormField>
    </FormDialog>
  );
}
