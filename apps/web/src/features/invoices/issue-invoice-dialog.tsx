import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INVOICE_LIMITS, LANGUAGES, ZIssueInvoiceInput, type TLanguageHeader } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/components/form-dialog';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { fieldMessage } from '@/lib/field-message';
import { newIdempotencyKey } from '@/lib/idempotency';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateInvoices } from './api';

const schema = ZIssueInvoiceInput.pick({ language: true, buyer: true });

/**
 * Issues the invoice of a final bill (docs/invoices.md): to whom (the guest's name proposed) and in
 * which language (the guest's proposed, from the phone); the buyer's tax number and address when a
 * company asks for them. Numbered by the server when issued; the printable page opens.
 */
export function IssueInvoiceDialog({
  stayId,
  draft,
  open,
  onOpenChange,
  onIssued,
}: {
  stayId: number;
  draft: { language: string; buyerName: string };
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The invoice issued (the dialog has closed itself). */
  onIssued(invoice: { id: number }): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const requestId = useMemo(() => newIdempotencyKey(), []);
  const form = useAppForm(schema, { language: draft.language as TLanguageHeader, buyer: { name: draft.buyerName, taxId: '', address: '' } });
  const issue = useMutation(
    trpc.invoice.issue.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (invoice) => {
        toast.success(t('invoices.issued', { number: invoice.number }));
        void invalidateInvoices(queryClient);
        onOpenChange(false);
        onIssued(invoice);
      },
    }),
  );
  const errors = form.formState.errors;
  const nameError = fieldMessage(t, errors.buyer?.name?.message ?? errors.buyer?.message);
  const languageError = fieldMessage(t, errors.language?.message);
  const submit = form.handleSubmit((values) => {
    if (!issue.isPending) issue.mutate({ stayId, ...values, requestId });
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('invoices.issueTitle')}
      description={t('invoices.issueDescription')}
      isDirty={form.formState.isDirty}
      isSaving={issue.isPending}
      error={issue.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('invoices.issue')}
      initialFocus="invoice-buyer-name"
      data-testid="issue-invoice-dialog"
      submitTestId="issue-invoice-submit"
    >
      <FormField id="invoice-buyer-name" label={t('invoices.buyerName')} error={nameError} required>
        <Input
          maxLength={INVOICE_LIMITS.buyerNameMaxLength}
          dir="auto"
          autoComplete="off"
          aria-required
          {...fieldControlProps('invoice-buyer-name', nameError)}
          {...form.register('buyer.name')}
          data-testid="invoice-buyer-name"
        />
      </FormField>
      <FormField id="invoice-buyer-tax-id" label={t('invoices.buyerTaxId')} hint={t('invoices.optional')}>
        <Input
          maxLength={INVOICE_LIMITS.buyerTaxIdMaxLength}
          dir="ltr"
          autoComplete="off"
          id="invoice-buyer-tax-id"
          {...form.register('buyer.taxId')}
          data-testid="invoice-buyer-tax-id"
        />
      </FormField>
      <FormField id="invoice-buyer-address" label={t('invoices.buyerAddress')} hint={t('invoices.optional')}>
        <Input
          maxLength={INVOICE_LIMITS.buyerAddressMaxLength}
          dir="auto"
          autoComplete="off"
          id="invoice-buyer-address"
          {...form.register('buyer.address')}
          data-testid="invoice-buyer-address"
        />
      </FormField>
      <FormField id="invoice-language" label={t('invoices.language')} hint={t('invoices.languageHint')} error={languageError} required>
        <NativeSelect wrapperClassName="w-full" id="invoice-language" {...form.register('language')} data-testid="invoice-language">
          {LANGUAGES.map((l) => (
            <NativeSelectOption key={l.header} value={l.header} lang={l.header}>
              {l.nativeName}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
    </FormDialog>
  );
}
