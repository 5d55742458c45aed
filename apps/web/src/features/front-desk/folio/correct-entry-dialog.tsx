import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { ORDER_LIMITS } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { formatShortDateTime } from '@/lib/format';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useInvalidateOrders, type OrderEntryDto } from './order-helpers';

/**
 * Corrects an entry recorded by mistake (docs/orders.md): the ledger is append-only, so the entry
 * stays and a correction of the opposite amount is recorded with the reason given here. The
 * server refuses a correction of a correction, a second correction, and a payment whose refunds
 * are not corrected first: its reason is shown in the dialog, the reason typed kept.
 */
export function CorrectEntryDialog({ entry, timeZone, onClose }: { entry: OrderEntryDto | null; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateOrders();
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
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
    setReason('');
    setSubmitted(false);
    correct.reset();
    onClose();
  }
  const reasonError = submitted && reason.trim() === '' ? t('validation.reasonRequired') : undefined;

  return (
    <FormDialog
      open={entry !== null}
      onOpenChange={(open) => !open && close()}
      title={t('orders.correct.title')}
      description={
        entry
          ? t('orders.correct.description', { kind: t(`orders.kinds.${entry.kind}`), amount: formatMoney(entry.amount, entry.currency), at: formatShortDateTime(entry.createdAt, timeZone), reversal: formatMoney(-entry.amount, entry.currency) })
          : ''
      }
      isDirty={reason !== ''}
      isSaving={correct.isPending}
      error={correct.error}
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        if (!entry || reason.trim() === '' || correct.isPending) return;
        correct.mutate({ entryId: entry.id, reason: reason.trim() });
      }}
      submitLabel={t('orders.correct.submit')}
      initialFocus="correct-reason"
      safeToRetry={false}
      data-testid="correct-entry-dialog"
      submitTestId="correct-entry-submit"
    >
      <FormField id="correct-reason" label={t('orders.correct.reason')} error={reasonError} required>
        <Input value={reason} maxLength={ORDER_LIMITS.reasonMaxLength} dir="auto" autoComplete="off" onChange={(e) => setReason(e.target.value)} aria-required {...fieldControlProps('correct-reason', reasonError)} data-testid="correct-reason" />
      </FormField>
    </FormDialog>
  );
}
