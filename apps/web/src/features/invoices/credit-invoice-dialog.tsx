import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ORDER_LIMITS, ZCreditInvoiceInput } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { fieldMessage } from '@/lib/field-message';
import { newIdempotencyKey } from '@/lib/idempotency';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateInvoices } from './api';

const schema = ZCreditInvoiceInput.pick({ reason: true });

/** Cancels an invoice with a credit note, with the reason (managers; docs/invoices.md): the invoice is never edited. */
export function CreditInvoiceDialog({ invoice, onClose }: { invoice: { id: number; number: number } | null; onClose(): void }) {
  if (!invoice) return null;
  return <CreditInvoiceForm key={invoice.id} invoice={invoice} onClose={onClose} />;
}

function CreditInvoiceForm({ invoice, onClose }: { invoice: { id: number; number: number }; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const requestId = useMemo(() => newIdempotencyKey(), []);
  const form = useAppForm(schema, { reason: '' });
  const credit = useMutation(
    trpc.invoice.credit.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (note) => {
        toast.success(t('invoices.credited', { number: note.number }));
        void invalidateInvoices(queryClient);
        onClose();
      },
    }),
  );
  const reasonError = fieldMessage(t, form.formState.errors.reason?.message);
  const submit = form.handleSubmit((values) => {
    if (!credit.isPending) credit.mutate({ invoiceId: invoice.id, reason: values.reason, requestId });
  });
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('invoices.creditTitle', { number: invoice.number })}
      description={t('invoices.creditDescription')}
      isDirty={form.formState.isDirty}
      isSaving={credit.isPending}
      error={credit.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('invoices.credit')}
      initialFocus="credit-reason"
      data-testid="credit-invoice-dialog"
      submitTestId="credit-invoice-submit"
    >
      <FormField id="credit-reason" label={t('invoices.reason')} error={reasonError} required>
        <Input
          maxLength={ORDER_LIMITS.reasonMaxLength}
          dir="auto"
          autoComplete="off"
          aria-required
          {...fieldControlProps('credit-reason', reasonError)}
          {...form.register('reason')}
          data-testid="credit-reason"
        />
      </FormField>
    </FormDialog>
  );
}
