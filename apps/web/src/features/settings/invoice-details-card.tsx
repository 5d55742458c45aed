import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { INVOICE_LIMITS } from '@console/shared';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { settingsQueries } from './api';
import { SettingsCard } from './settings-card';

/**
 * The hotel's legal details printed on its invoices (docs/invoices.md): its registered name and tax
 * number, beside the name, address and phone of the hotel information above. Owners and
 * administrators change them; invoices already issued keep what they printed.
 */
export function InvoiceDetailsCard() {
  const { t } = useTranslation();
  const details = useQuery(settingsQueries.invoiceDetails());
  return (
    <SettingsCard title={t('invoices.details.title')} description={t('invoices.details.description')} query={details} data-testid="invoice-details">
      {(saved) => <DetailsForm saved={saved} />}
    </SettingsCard>
  );
}

function DetailsForm({ saved }: { saved: { legalName: string; taxId: string } }) {
  const { t } = useTranslation();
  const canEdit = hasPermission(useUserInfo(), 'hotel.manage');
  const queryClient = useQueryClient();
  const [values, setValues] = useState(saved);
  const set = useMutation(
    trpc.invoice.setDetails.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: async () => {
        toast.success(t('invoices.details.saved'));
        await queryClient.invalidateQueries({ queryKey: settingsQueries.invoiceDetails().queryKey });
      },
    }),
  );
  const changed = values.legalName.trim() !== saved.legalName || values.taxId.trim() !== saved.taxId;
  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!set.isPending && changed) set.mutate(values);
      }}
    >
      <FormField id="invoice-legal-name" label={t('invoices.details.legalName')}>
        <Input
          id="invoice-legal-name"
          data-testid="invoice-legal-name"
          dir="auto"
          maxLength={INVOICE_LIMITS.legalNameMaxLength}
          disabled={!canEdit || set.isPending}
          value={values.legalName}
          onChange={(event) => setValues({ ...values, legalName: event.target.value })}
        />
      </FormField>
      <FormField id="invoice-tax-id" label={t('invoices.details.taxId')}>
        <Input
          id="invoice-tax-id"
          data-testid="invoice-tax-id"
          dir="ltr"
          maxLength={INVOICE_LIMITS.taxIdMaxLength}
          disabled={!canEdit || set.isPending}
          value={values.taxId}
          onChange={(event) => setValues({ ...values, taxId: event.target.value })}
        />
      </FormField>
      {canEdit && (
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" disabled={set.isPending || !changed} data-testid="invoice-details-save">
            {set.isPending && <Spinner />}
            {t('settings.save')}
          </Button>
        </div>
      )}
    </form>
  );
}
