import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZShiftOpenInput } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatMoney, parseMoneyInput } from '@/lib/money';
import { checkField } from '@/lib/money-rules';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateShifts } from './api';

/** The float as typed, checked by the shared rule of ZShiftOpenInput: required (never taken as zero), 0 or more. */
function openSchema(currency: string) {
  return z
    .object({ openingFloat: z.string() })
    .superRefine((v, ctx) => void checkField(ZShiftOpenInput.shape.openingFloat, parseMoneyInput(v.openingFloat, currency), ctx, 'openingFloat'));
}

/**
 * Opens the clerk's shift with the cash float they counted in the drawer. The float starts empty
 * (a default must never record money: issue 26), and the button waits until an amount is typed.
 */
export function OpenShiftDialog({ open, currency, onClose }: { open: boolean; currency: string; onClose(): void }) {
  if (!open) return null;
  return <OpenShiftForm currency={currency} onClose={onClose} />;
}

function OpenShiftForm({ currency, onClose }: { currency: string; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => openSchema(currency), [currency]);
  const form = useAppForm(schema, { openingFloat: '' });
  const openShift = useMutation(
    trpc.order.shiftOpen.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (shift) => {
        toast.success(t('shifts.open.done', { amount: formatMoney(shift.openingFloat, shift.currency) }));
        void invalidateShifts(queryClient);
        onClose();
      },
      onError: (error) => {
        if (appErrorOf(error)?.code === 'VALIDATION') form.applyServerErrors(error);
      },
    }),
  );
  const typed = parseMoneyInput(form.watch('openingFloat'), currency);
  const floatError = fieldMessage(t, form.formState.errors.openingFloat?.message);
  const submit = form.handleSubmit((values) => {
    if (openShift.isPending) return;
    openShift.mutate({ openingFloat: parseMoneyInput(values.openingFloat, currency)! });
  });
  return (
    <FormDialog
      open
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={t('shifts.open.title')}
      description={t('shifts.open.description')}
      isDirty={form.formState.isDirty}
      isSaving={openShift.isPending}
      error={openShift.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('shifts.open.action')}
      submitDisabled={typed === undefined || Number.isNaN(typed)}
      initialFocus="shift-float"
      data-testid="shift-open-dialog"
      submitTestId="shift-open-submit"
    >
      <FormField id="shift-float" label={t('shifts.open.float')} error={floatError} required>
        <MoneyInput
          currency={currency}
          aria-required
          data-testid="shift-float"
          {...fieldControlProps('shift-float', floatError)}
          {...form.register('openingFloat')}
        />
      </FormField>
    </FormDialog>
  );
}
