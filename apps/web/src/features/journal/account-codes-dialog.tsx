import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_CODE_KEYS, ACCOUNT_CODE_MAX_LENGTH, ZAccountCodesInput, type TAccountCodeKey } from '@console/shared';
import { FormDialog } from '@/components/form-dialog';
import { LoadError, failedQuery } from '@/components/load-error';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateJournal, journalQueries } from './api';

/** The name of a code's key: an account, or the money account of a way of paying. */
function useKeyLabel() {
  const { t } = useTranslation();
  return (key: TAccountCodeKey) => {
    const [account, method] = key.split('.') as [string, string | undefined];
    return method ? t('journal.way', { way: t(`orders.methods.${method}`) }) : t(`journal.accounts.${account}`);
  };
}

/**
 * The hotel's chart-of-accounts codes (docs/journal.md "The general-ledger export"): a code of its
 * own accounting for each account, and for the money account of each way of paying (a way with no
 * code of its own takes the money account's). A blank code is none: the general ledger writes those
 * lines under our account's name and counts them. Saved all at once; audited.
 */
export function AccountCodesDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const codes = useQuery({ ...journalQueries.codes(), enabled: open });
  if (!open) return null;
  if (!codes.data) {
    return (
      <FormDialog
        open
        onOpenChange={(isOpen) => !isOpen && onClose()}
        title={t('journal.codes.title')}
        description={t('journal.codes.description')}
        isDirty={false}
        isSaving={false}
        error={null}
        onSubmit={(event) => event.preventDefault()}
        submitLabel={t('journal.codes.save')}
        submitDisabled
        data-testid="tb-codes-dialog"
      >
        <LoadError query={failedQuery(codes)} what={t('journal.codes.what')} />
        {!codes.isError && <Skeleton className="h-48 w-full" role="status" aria-label={t('common.loading')} />}
      </FormDialog>
    );
  }
  const current = new Map(codes.data.codes.map((c) => [c.key, c.code]));
  return <CodesForm initial={ACCOUNT_CODE_KEYS.map((key) => ({ key, code: current.get(key) ?? '' }))} onClose={onClose} />;
}

function CodesForm({ initial, onClose }: { initial: { key: TAccountCodeKey; code: string }[]; onClose(): void }) {
  const { t } = useTranslation();
  const keyLabel = useKeyLabel();
  const queryClient = useQueryClient();
  const form = useAppForm(ZAccountCodesInput, { codes: initial });
  const save = useMutation(
    trpc.order.setAccountCodes.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: async () => {
        toast.success(t('journal.codes.saved'));
        await invalidateJournal(queryClient);
        onClose();
      },
      onError: (error) => {
        if (appErrorOf(error)?.code === 'VALIDATION') form.applyServerErrors(error);
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate({ codes: values.codes.map((c) => ({ key: c.key, code: c.code.trim() })) });
  });
  return (
    <FormDialog
      open
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={t('journal.codes.title')}
      description={t('journal.codes.description')}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      error={save.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('journal.codes.save')}
      size="lg"
      initialFocus="tb-code-0"
      data-testid="tb-codes-dialog"
      submitTestId="tb-codes-save"
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        {initial.map((c, i) => {
          const id = `tb-code-${i}`;
          const error = fieldMessage(t, form.formState.errors.codes?.[i]?.code?.message);
          return (
            <FormField key={c.key} id={id} label={keyLabel(c.key)} error={error}>
              <Input
                maxLength={ACCOUNT_CODE_MAX_LENGTH}
                dir="auto"
                autoComplete="off"
                placeholder={t('journal.codes.none')}
                data-testid={`tb-code-${c.key}`}
                {...fieldControlProps(id, error)}
                {...form.register(`codes.${i}.code`)}
              />
            </FormField>
          );
        })}
      </div>
      <p className="text-muted-foreground text-sm">{t('journal.codes.hint')}</p>
    </FormDialog>
  );
}
