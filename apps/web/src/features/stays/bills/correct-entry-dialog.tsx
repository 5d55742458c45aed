import { useMutation } from '@tanstack/react-query';
import { ORDER_LIMITS, ZCorrectInput } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldMessage } from '@/lib/field-message';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { useInvalidateOrders, type OrderEntryDto } from './order-helpers';

/**
 * Corrects an entry recorded by mistake (docs/orders.md): the ledger is append-only, so the entry
 * stays and a correction of the opposite amount is recorded with the reason given here. The
 * server refuses a correction of a correction, a second correction, and a payment whose refunds
 * are not corrected first: its reason is shown in the dialog, the reason typed kept.
 */
export function CorrectEntryDialog({ entry, timeZone, onClose }: { entry: OrderEntryDto | null; timeZone: string; onClose(): void }) {
  if (!entry) return null;
  return <CorrectEntryForm key={entry.id} entry={entry} timeZone={timeZone} onClose={onClose} />;
}

/** The reason of a correction: the shared rule of ZCorrectInput. */
const schema = ZCorrectInput.pick({ reason: true });

function CorrectEntryForm({ entry, timeZone, onClose }: { entry: OrderEntryDto; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateOrders();
  const form = useAppForm(schema, { reason: '' });
  const correct = useMutation(
    trpc.order.correct.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('orders.correct.done'));
        void invalidate();
        close();
      },
    }),
  );
  function close() {
    correct.reset();
    onClose();
  }
  const reasonError = fieldMessage(t, form.formState.errors.reason?.message);
  const submit = form.handleSubmit((values) => {
    if (!correct.isPending) correct.mutate({ entryId: entry.id, reason: values.reason });
  });

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && close()}
      title={t('orders.correct.title')}
      description={t('orders.correct.description', {
        kind: t(`orders.kinds.${entry.kind}`),
        amount: formatMoney(entry.amount, entry.currency),
        at: formatShortDateTime(entry.createdAt, timeZone),
        reversal: formatMoney(-entry.amount, entry.currency),
      })}
      isDirty={form.formState.isDirty}
      isSaving={correct.isPending}
      error={correct.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('orders.correct.submit')}
      initialFocus="correct-reason"
      safeToRetry={false}
      data-testid="correct-entry-dialog"
      submitTestId="correct-entry-submit"
    >
      <FormField id="correct-reason" label={t('orders.correct.reason')} error={reasonError} required>
        <Input
          maxLength={ORDER_LIMITS.reasonMaxLength}
          dir="auto"
          autoComplete="off"
          aria-required
          {...fieldControlProps('correct-reason', reasonError)}
          {...form.register('reason')}
          data-testid="correct-reason"
        />
      </FormField>
    </FormDialog>
  );
}
