import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ORDER_LIMITS, ZOrderNote, ZShiftOpenInput } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { formatDateTime } from '@/lib/format';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatMoney, parseMoneyInput } from '@/lib/money';
import { checkField } from '@/lib/money-rules';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateShifts, shiftQueries } from './api';

/** The float as typed, checked by the shared rule of ZShiftOpenInput: required (never taken as zero), 0 or more. */
function openSchema(currency: string) {
  return z.object({ openingFloat: z.string(), note: z.string() }).superRefine((v, ctx) => {
    checkField(ZShiftOpenInput.shape.openingFloat, parseMoneyInput(v.openingFloat, currency), ctx, 'openingFloat');
    checkField(ZOrderNote, v.note, ctx, 'note');
  });
}

/**
 * Opens the clerk's shift with the cash float they counted in the drawer. The float starts empty
 * (a default must never record money: issue 26), and the button waits until an amount is typed.
 * What the last close left in the drawer is said beside it (never filled in); a float counted
 * otherwise needs why, in the note (the server's rule too).
 */
export function OpenShiftDialog({ open, currency, timeZone, onClose }: { open: boolean; currency: string; timeZone: string; onClose(): void }) {
  if (!open) return null;
  return <OpenShiftForm currency={currency} timeZone={timeZone} onClose={onClose} />;
}

function OpenShiftForm({ currency, timeZone, onClose }: { currency: string; timeZone: string; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => openSchema(currency), [currency]);
  const form = useAppForm(schema, { openingFloat: '', note: '' });
  const handover = useQuery(shiftQueries.handover());
  const left = handover.data ?? null;
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
  const noteError = fieldMessage(t, form.formState.errors.note?.message);
  const isTyped = typed !== undefined && !Number.isNaN(typed);
  const differs = left !== null && isTyped && typed !== left.leftInDrawer;
  const noteMissing = differs && !form.watch('note').trim();
  const submit = form.handleSubmit((values) => {
    if (openShift.isPending || noteMissing) return;
    openShift.mutate({ openingFloat: parseMoneyInput(values.openingFloat, currency)!, note: values.note.trim() });
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
      submitDisabled={!isTyped || noteMissing || handover.isPending}
      footerStart={noteMissing ? <span data-testid="shift-open-note-missing">{t('shifts.validation.floatNoteRequired')}</span> : undefined}
      initialFocus="shift-float"
      data-testid="shift-open-dialog"
      submitTestId="shift-open-submit"
    >
      <FormField
        id="shift-float"
        label={t('shifts.open.float')}
        error={floatError}
        required
        hint={
          left ? (
            <span data-testid="shift-open-handover" data-amount={left.leftInDrawer}>
              {t('shifts.open.handover', {
                name: left.operator.nickname,
                amount: formatMoney(left.leftInDrawer, currency),
                time: formatDateTime(left.closedAt, timeZone),
              })}
            </span>
          ) : undefined
        }
      >
        <MoneyInput
          currency={currency}
          aria-required
          data-testid="shift-float"
          {...fieldControlProps('shift-float', floatError, left !== null)}
          {...form.register('openingFloat')}
        />
      </FormField>
      {left && (
        <FormField id="shift-open-note" label={t('shifts.open.note')} required={differs} error={noteError}>
          <Input
            maxLength={ORDER_LIMITS.noteMaxLength}
            aria-required={differs}
            {...fieldControlProps('shift-open-note', noteError)}
            {...form.register('note')}
          />
        </FormField>
      )}
    </FormDialog>
  );
}
