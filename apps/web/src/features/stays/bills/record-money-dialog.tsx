import { useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { PAYMENT_METHODS, ORDER_LIMITS, ZOrderNote, ZOrderReason, ZPaymentMethod, type TPaymentMethod } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { fieldMessage } from '@/lib/field-message';
import { formatMoney, moneyInputValue, parseMoneyInput } from '@/lib/money';
import { checkAmountText, checkField, checkPayerText } from '@/lib/money-rules';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { newIdempotencyKey } from '@/lib/idempotency';
import { BalancePayerField, payerMobile } from './balance-payer';
import { useInvalidateOrders } from './order-helpers';

export type RecordKind = 'deposit' | 'payment' | 'charge';

/** The form's text, checked by the shared rules of ZStayMoneyInput and ZChargeInput. */
function recordSchema(kind: RecordKind, currency: string) {
  // The way of paying starts unchosen (''): the clerk says how the money came, nothing is assumed.
  return z.object({ amount: z.string(), method: z.union([ZPaymentMethod, z.literal('')]), payer: z.string(), note: z.string() }).superRefine((v, ctx) => {
    checkAmountText(v.amount, currency, ctx);
    if (kind !== 'charge' && v.method === '') ctx.addIssue({ code: 'custom', message: 'validation.paymentMethodInvalid', path: ['method'] });
    checkField(kind === 'charge' ? ZOrderReason : ZOrderNote, v.note, ctx, 'note');
    if (kind !== 'charge' && v.method === 'balance') checkPayerText(v.payer, ctx);
  });
}

/**
 * Records a deposit, a payment or a charge on a stay's folio at the desk: the amount in the hotel's
 * currency (a payment proposes what is owed), how it was paid (a charge says what for instead; from a member's balance, whose). Each attempt has its own request id,
 * the same on a retry of a lost answer, so a double click records one entry.
 */
export function RecordMoneyDialog(props: { kind: RecordKind | null; stayId: number; roomName: string; currency: string; owed?: number; onClose(): void }) {
  if (props.kind === null) return null;
  return <RecordMoneyForm key={props.kind} {...props} kind={props.kind} />;
}

function RecordMoneyForm({
  kind,
  stayId,
  roomName,
  currency,
  owed = 0,
  onClose,
}: {
  kind: RecordKind;
  stayId: number;
  roomName: string;
  currency: string;
  owed?: number;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const invalidate = useInvalidateOrders();
  const schema = useMemo(() => recordSchema(kind, currency), [kind, currency]);
  // A payment proposes what the guest owes (the clerk can change it).
  const [defaults] = useState(() => ({
    amount: kind === 'payment' && owed > 0 ? moneyInputValue(owed, currency) : '',
    method: '' as TPaymentMethod | '',
    payer: '',
    note: '',
  }));
  const form = useAppForm(schema, defaults);
  const [requestId] = useState(newIdempotencyKey);
  const onDone = (done: { entry: { amount: number } }) => {
    toast.success(t('orders.record.succeeded', { kind: t(`orders.kinds.${kind}`), amount: formatMoney(Math.abs(done.entry.amount), currency) }));
    void invalidate();
    onClose();
  };
  const options = { meta: { showsErrors: true }, onSuccess: onDone };
  const deposit = useMutation(trpc.order.recordDeposit.mutationOptions(options));
  const payment = useMutation(trpc.order.recordPayment.mutationOptions(options));
  const charge = useMutation(trpc.order.recordCharge.mutationOptions(options));
  const mutation = kind === 'deposit' ? deposit : kind === 'charge' ? charge : payment;

  const [amountText, method, payer] = form.watch(['amount', 'method', 'payer']);
  const amount = parseMoneyInput(amountText, currency);
  const fromBalance = kind !== 'charge' && method === 'balance';
  const errors = form.formState.errors;
  const amountError = fieldMessage(t, errors.amount?.message);
  const noteError = fieldMessage(t, errors.note?.message);
  const methodError = fieldMessage(t, errors.method?.message);
  const payerError = fromBalance ? fieldMessage(t, errors.payer?.message) : undefined;

  const submit = form.handleSubmit((values) => {
    if (mutation.isPending) return;
    const minor = parseMoneyInput(values.amount, currency)!;
    if (kind === 'charge') {
      charge.mutate({ stayId, amount: minor, note: values.note.trim(), requestId });
      return;
    }
    const mobile = fromBalance ? payerMobile(values.payer.trim()) : null;
    if (values.method === '') return;
    mutation.mutate({ stayId, amount: minor, method: values.method, ...(mobile !== null ? { mobile } : {}), note: values.note.trim(), requestId });
  });

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t(`orders.record.${kind}Title`, { room: roomName })}
      isDirty={form.formState.isDirty}
      isSaving={mutation.isPending}
      error={mutation.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('orders.record.submit')}
      initialFocus="order-amount"
      data-testid="record-money-dialog"
      submitTestId="record-money-submit"
    >
      <div className="grid gap-2">
        <FormField id="order-amount" label={t('orders.record.amount')} error={amountError} required>
          <MoneyInput currency={currency} aria-required {...fieldControlProps('order-amount', amountError)} {...form.register('amount')} />
        </FormField>
        {kind !== 'charge' && (
          <FormField id="order-method" label={t('orders.record.method')} error={methodError} required>
            <NativeSelect wrapperClassName="w-full" aria-required {...fieldControlProps('order-method', methodError)} {...form.register('method')}>
              <NativeSelectOption value="" disabled>
                {t('common.choose')}
              </NativeSelectOption>
              {PAYMENT_METHODS.map((m) => (
                <NativeSelectOption key={m} value={m}>
                  {t(`orders.methods.${m}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </FormField>
        )}
        {fromBalance && (
          <BalancePayerField
            id="order-payer"
            mobile={payer}
            onMobileChange={(value) => form.setValue('payer', value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
            amount={amount}
            currency={currency}
            error={payerError}
          />
        )}
        <FormField id="order-note" label={t(kind === 'charge' ? 'orders.record.reason' : 'orders.record.note')} error={noteError} required={kind === 'charge'}>
          <Input maxLength={ORDER_LIMITS.noteMaxLength} {...fieldControlProps('order-note', noteError)} {...form.register('note')} />
        </FormField>
      </div>
    </FormDialog>
  );
}
